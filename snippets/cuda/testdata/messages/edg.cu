__global__ void k(float* out) {
	int x = undefined_thing;
  out[threadIdx.x] = nothere(3);
}
