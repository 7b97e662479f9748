template <int N> struct F { static const int v = F<N + 1>::v; };
__global__ void k(int* o) { *o = F<0>::v; }
