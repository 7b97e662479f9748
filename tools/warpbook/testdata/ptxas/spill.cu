// A kernel that needs about 70 registers, compiled with -maxrregcount=32
// (see gen.sh): ptxas spills the rest to local memory.
__global__ void spill(float* out, const float* in) {
  float acc[64];
#pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = in[threadIdx.x + i * 32];
#pragma unroll
  for (int j = 0; j < 8; j++)
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = acc[i] * acc[(i + j) % 64] + 1.0f;
  float s = 0;
#pragma unroll
  for (int i = 0; i < 64; i++) s += acc[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
