__global__ void k(){ int unused = 3; }
#warning hi
