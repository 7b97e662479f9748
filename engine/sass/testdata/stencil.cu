// A 1-D 7-point stencil through shared memory: a kernel the book does not
// contain, compiled with nvcc -cubin -arch=sm_80 and listed with plain
// cuobjdump -sass (no -res-usage), as a user would (tools/warpbook's
// TestSimForeignKernel).
#define R 3
#define B 256
__global__ void stencil1d(const float* in, float* out, int n) {
  __shared__ float t[B + 2 * R];
  int g = blockIdx.x * B + threadIdx.x, l = threadIdx.x + R;
  t[l] = in[g];
  if (threadIdx.x < R) { t[l - R] = g >= R ? in[g - R] : 0.f; t[l + B] = g + B < n ? in[g + B] : 0.f; }
  __syncthreads();
  float s = 0;
  for (int o = -R; o <= R; ++o) s += t[l + o];
  if (g < n) out[g] = s;
}
