// Kernels whose ptxas -v report is the golden input of warpbook occupancy
// --ptxas (see gen.sh): shared memory, a template, an extern "C" kernel,
// launch bounds, and a kernel that asks for many registers.
#include <cuda_fp16.h>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// A 32 x 32 tile with one column of padding: 32 * 33 * 4 = 4224 bytes.
__global__ void transpose(float* out, const float* in, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

template <int Block>
__global__ void reduce(float* out, const float* in) {
  __shared__ float partial[Block];
  partial[threadIdx.x] = in[blockIdx.x * Block + threadIdx.x];
  __syncthreads();
  for (int s = Block / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
template __global__ void reduce<256>(float*, const float*);
template __global__ void reduce<1024>(float*, const float*);

extern "C" __global__ void scale_dynamic(half* data, float s) {
  extern __shared__ half buf[];
  buf[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = __hmul(buf[blockDim.x - 1 - threadIdx.x], __float2half(s));
}

// 64 accumulators per thread, unrolled, all live across the loop: many
// registers, and the occupancy they limit.
__global__ void __launch_bounds__(256) ilp64(float* out, const float* in, int iters) {
  float acc[64];
#pragma unroll
  for (int j = 0; j < 64; j++) acc[j] = in[threadIdx.x + 256 * j];
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 64; j++) acc[j] = acc[j] * acc[(j + 1) % 64] + acc[(j + 7) % 64];
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; j++) s += acc[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
