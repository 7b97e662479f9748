// Package cuda compiles the CUDA of a page with NVIDIA's compiler and
// reports what a reader of the book should see: each kernel's registers,
// shared memory, stack and spills as ptxas counts them, and its SASS as
// cuobjdump lists it. Device code only: nothing is linked, nothing is run.
//
// # Finding a toolkit
//
// [Find] looks for nvcc in WARPBOOK_CUDA (an nvcc, or a toolkit directory),
// then on PATH (release 12.4 or later), then where tools/cuda/fetch puts
// Debian's CUDA 12.4 packages ([FetchedDir]). Without one, it returns an
// error wrapping [ErrNoToolkit] that names the fetch command.
//
// # Compiling
//
//	tk, err := cuda.Find(ctx)
//	c := &cuda.Compiler{Toolkit: tk, CacheDir: dir}
//	res, err := c.Compile(ctx, cuda.Job{
//		Source: src, Archs: []string{"sm_80", "sm_90a"},
//		Flags: []string{"-maxrregcount=64"},
//		File: "book/occupancy.md", Line: 41,
//	})
//	k, ok := res.Kernel("saxpy", "sm_90a") // k.Resources.Registers, k.SASS
//
// Each architecture is one device-only compile (nvcc -cubin -arch=sm_XX
// -Xptxas -v) followed by cuobjdump -sass, cached by content under
// CacheDir/cuda. A [Function] carries its [ptxas.Resources]; Resources.Launch
// gives the occupancy calculator's view of it, so that the occupancy a page
// prints comes from ptxas's own register count.
//
// # Hostile sources
//
// Pages come from pull requests, and CI runs as root. Before any compiler
// runs, the flags are checked against an allow-list ([FlagHelp]) and the
// source is read as the preprocessor reads it (lines spliced, comments
// removed) and refused when it could make the compiler read a file of the
// host: only #include <name> of a header in the toolkit's include
// directory, no other path, no computed include, no #include_next,
// #import, #embed, #line, __has_include, #pragma GCC dependency or digraph
// %: directive (scan.go lists every rule). The compiler then runs with
// an environment of its own (PATH holds only the toolkit's directories;
// HOME and TMPDIR are in an empty temporary directory that is removed
// after), in that directory, under caps on wall-clock and CPU time,
// memory, file size and output ([Limits]). Its messages are rewritten so
// that no host path shows: the work directory goes, the toolkit's
// directories become <cuda>, the cache <cache>, any other path
// <host>/name.
//
// # Failures
//
// A compile that gives no result returns an [*Error]: its Kind says
// whether the source was refused, the compiler failed, a cap stopped it or
// the toolkit misbehaved, and each [Message] is positioned in the page
// (file, line, and the byte column where the compiler gives one), ready to
// be a diagnostic at the page's line.
//
// # Reading a build's ptxas output
//
// [Parse] reads the -Xptxas -v output of any nvcc build, many kernels and
// architectures, into the same [Function] values; "warpbook occupancy
// --ptxas" is built on it.
package cuda
