#include <cuda_fp16.h>
__global__ void k(half* h) { *h = __float2half(1.0f); }
