// Microbenchmark kernels for the SASS simulator's checks (engine/sim's
// TestMicrobenchmarks). Each kernel runs a loop of n trips around a body of
// 32 operations that the compiler unrolls; n is a kernel argument, so the
// trip count is not in the SASS and a kernel file gives it.

#define BODY 32

// A dependent FFMA chain: each FFMA needs the previous one's result.
extern "C" __global__ void ffma_chain(float* out, float a, float b, int n) {
  float x = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY; ++k) x = x * a + b;
  }
  out[threadIdx.x] = x;
}

// A dependent integer multiply-add chain (IMAD).
extern "C" __global__ void imad_chain(int* out, int a, int b, int n) {
  int x = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY; ++k) x = x * a + b;
  }
  out[threadIdx.x] = x;
}

// A global-memory pointer chase: each load's address is the previous load's
// value (64-bit pointers, LDG.E.64).
extern "C" __global__ void ldg_chase(unsigned long long* start, unsigned long long* out, int n) {
  unsigned long long p = (unsigned long long)start;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY; ++k) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
  }
  out[threadIdx.x] = p;
}

// A shared-memory chase: each LDS's address is the previous LDS's value.
extern "C" __global__ void lds_chase(unsigned* out, int n) {
  __shared__ unsigned s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = ((i + 1) % 1024) * 4;
  __syncthreads();
  unsigned j = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x % 1024]);
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY; ++k) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  }
  out[threadIdx.x] = j;
}

// A dependent MUFU chain (ex2.approx, MUFU.EX2).
extern "C" __global__ void mufu_chain(float* out, int n) {
  float x = threadIdx.x * 1e-3f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY; ++k) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

// Independent FFMA chains: ILP chains per thread, each a dependent chain.
template <int ILP>
__device__ void ffma_ilp(float* out, float a, float b, int n) {
  float x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = threadIdx.x + j;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < BODY / ILP; ++k)
#pragma unroll
      for (int j = 0; j < ILP; ++j) x[j] = x[j] * a + b;
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[threadIdx.x] = s;
}
extern "C" __global__ void ffma_ilp1(float* out, float a, float b, int n) { ffma_ilp<1>(out, a, b, n); }
extern "C" __global__ void ffma_ilp2(float* out, float a, float b, int n) { ffma_ilp<2>(out, a, b, n); }
extern "C" __global__ void ffma_ilp3(float* out, float a, float b, int n) { ffma_ilp<3>(out, a, b, n); }
extern "C" __global__ void ffma_ilp4(float* out, float a, float b, int n) { ffma_ilp<4>(out, a, b, n); }
