// Kernels the simulator's tests run from their SASS without having been
// written for it (engine/sim's TestForeignKernels): a tiled matrix
// multiply, a reduction with shuffles and an atomic, a row softmax, a
// shared-memory histogram, a divergent kernel, a cp.async double buffer
// (sm_80 and later) and a double-precision kernel.

// A tiled single-precision matrix multiply: C = A * B, n×n, 16×16 tiles in shared memory.
#define T 16
extern "C" __global__ void sgemm_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// A block sum with warp shuffles and one atomic per block.
extern "C" __global__ void reduce_sum(const float* x, float* out, int n) {
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  __shared__ float w[32];
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}

// A row softmax: one warp per row.
extern "C" __global__ void softmax_rows(const float* x, float* y, int cols) {
  const float* r = x + blockIdx.x * cols;
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += 32) m = fmaxf(m, r[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += 32) s += __expf(r[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  for (int c = threadIdx.x; c < cols; c += 32) y[blockIdx.x * cols + c] = __expf(r[c] - m) / s;
}

// A histogram in shared memory with atomics.
extern "C" __global__ void histogram256(const unsigned char* in, unsigned* bins, int n) {
  __shared__ unsigned h[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&h[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], h[i]);
}

// Divergent work: odd lanes take a longer path.
extern "C" __global__ void divergent(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (threadIdx.x & 1) {
    for (int k = 0; k < 8; ++k) v = v * 1.01f + 0.5f;
  } else {
    v = sqrtf(v);
  }
  x[i] = v;
}

#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ void cp_async16(void* s, const void* g) {
  unsigned a = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(a), "l"(g));
}
// A double-buffered cp.async copy into shared memory.
extern "C" __global__ void cp_async_stage(const float4* g, float4* out, int tiles) {
  __shared__ float4 buf[2][256];
  int t = threadIdx.x;
  cp_async16(&buf[0][t], &g[t]);
  asm volatile("cp.async.commit_group;");
  float4 acc = make_float4(0, 0, 0, 0);
  for (int i = 0; i < tiles; ++i) {
    if (i + 1 < tiles) cp_async16(&buf[(i + 1) & 1][t], &g[(i + 1) * 256 + t]);
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 1;");
    __syncthreads();
    float4 v = buf[i & 1][(t + 1) & 255];
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    __syncthreads();
  }
  out[blockIdx.x * 256 + t] = acc;
}
#endif

// Doubles and conversions.
extern "C" __global__ void dmix(const int* a, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { double v = (double)a[i]; d[i] = v * v + 1.0 / (v + 2.0); }
}
