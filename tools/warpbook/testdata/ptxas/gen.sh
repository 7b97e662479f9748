#!/bin/sh
# Regenerates build.log, the golden input of TestOccupancyPtxas: the output
# of a two-step nvcc build (host and device code, four architectures), as a
# CUDA developer's build prints it. Needs a CUDA 12.4 toolkit
# (tools/cuda/fetch) and g++-12. The compiler's output is the reference:
# review the diff of a regenerated log before committing it.
set -eu
cd "$(dirname "$0")"
nvcc=${NVCC:-$(../../../../tools/cuda/fetch --print)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
archs="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90a,code=sm_90a"
{
	echo "\$ nvcc -ccbin g++-12 -c $archs -Xptxas -v -o kernels.o kernels.cu"
	"$nvcc" -ccbin g++-12 -c $archs -Xptxas -v -o "$tmp/kernels.o" kernels.cu 2>&1
	echo "\$ nvcc -ccbin g++-12 -c $archs -maxrregcount=32 -Xptxas -v -o spill.o spill.cu"
	"$nvcc" -ccbin g++-12 -c $archs -maxrregcount=32 -Xptxas -v -o "$tmp/spill.o" spill.cu 2>&1
} >build.log
