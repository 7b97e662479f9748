__global__ void k(float*p){ asm("bogus.instr %r1;"); }
