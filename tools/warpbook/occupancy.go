package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
	"github.com/warpbook/warpbook/tools/warpbook/internal/batch"
)

const occupancyUsage = `usage: warpbook occupancy (--gpu NAME | --cc X.Y) --threads N [flags]
       warpbook occupancy (--gpu NAME | --cc X.Y) --suggest [flags]
       warpbook occupancy --batch < in.csv > out.csv

Computes how many blocks of a kernel fit on one SM of a GPU, the occupancy,
what limits it, and the arithmetic behind each limit. The figures agree with
NVIDIA's occupancy calculator (cuda_occupancy.h).

--batch reads CSV on stdin and writes CSV on stdout: the columns of the
golden reference file (cc or gpu, block_size, regs, static_smem,
dynamic_smem, carveout, cache_config, shmem_limit_config, max_dynamic_smem,
gc_config, num_barriers, func_max_threads; all but the first three are
optional), with status, active_blocks, active_warps, max_warps,
occupancy_percent, limiter and the other result columns appended. A bad row
gets status invalid_input or unknown_device and a message; the rest still run.

flags:
`

// runOccupancy implements "warpbook occupancy".
func runOccupancy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("occupancy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, occupancyUsage)
		fs.PrintDefaults()
	}
	var (
		gpuName     = fs.String("gpu", "", "GPU name, such as A100, \"H100 SXM\", \"RTX 4090\" (or a capability)")
		ccFlag      = fs.String("cc", "", "compute capability, such as 8.0 or sm_80 (the preset part for it)")
		threads     = fs.Int("threads", 0, "threads per block")
		regs        = fs.Int("regs", 0, "registers per thread")
		smem        = fs.Int("smem", 0, "static shared memory per block, bytes")
		dynSmem     = fs.Int("dyn-smem", 0, "dynamic shared memory per block at launch, bytes")
		maxDynSmem  = fs.Int("max-dyn-smem", -1, "the kernel's max dynamic shared memory attribute, bytes; -1: the same as --dyn-smem")
		carveout    = fs.Int("carveout", -1, "preferred shared-memory carveout, percent 0-100; -1: no preference")
		cache       = fs.String("cache", "none", "cache preference: none, prefer_shared, prefer_l1, prefer_equal")
		smemLimit   = fs.String("smem-limit", "optin", "per-block shared memory limit: optin or default")
		barriers    = fs.Int("barriers", 1, "block barriers the kernel uses")
		gc          = fs.String("gc", "off", "partitioned global caching: off, on, on_strict")
		funcMax     = fs.Int("max-threads", 0, "the kernel's own maximum block size (__launch_bounds__); 0: none")
		perThread   = fs.Int("dyn-smem-per-thread", 0, "with --suggest: dynamic shared memory per thread of the block, bytes")
		asJSON      = fs.Bool("json", false, "print JSON instead of text")
		suggest     = fs.Bool("suggest", false, "suggest the block size with the best occupancy")
		batchMode   = fs.Bool("batch", false, "read CSV rows on stdin, write results as CSV on stdout")
		explainFlag = fs.Bool("explain", true, "print the arithmetic behind each limit")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "warpbook occupancy: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}

	if *batchMode {
		var out bytes.Buffer // nothing reaches stdout unless the whole batch ran
		if err := batch.Run(stdin, &out); err != nil {
			var be *batch.Error
			if errors.As(err, &be) {
				fmt.Fprintf(stderr, "warpbook occupancy: stdin:%d: %v\n", be.Line, be.Err)
			} else {
				fmt.Fprintf(stderr, "warpbook occupancy: reading stdin: %v\n", err)
			}
			return 1
		}
		if _, err := stdout.Write(out.Bytes()); err != nil {
			fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
			return 1
		}
		return 0
	}

	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "warpbook occupancy: "+format+"\n", a...)
		return 2
	}
	// The calculator takes 32-bit numbers, as CUDA does; a larger flag is
	// named here rather than wrapped or blamed on a block size.
	for _, f := range []struct {
		name string
		v    int
	}{
		{"threads", *threads}, {"regs", *regs}, {"smem", *smem}, {"dyn-smem", *dynSmem},
		{"max-dyn-smem", *maxDynSmem}, {"carveout", *carveout}, {"barriers", *barriers},
		{"max-threads", *funcMax}, {"dyn-smem-per-thread", *perThread},
	} {
		if f.v > math.MaxInt32 {
			return usageErr("--%s %d is too large (at most %d)", f.name, f.v, math.MaxInt32)
		}
	}
	if *perThread < 0 {
		return usageErr("--dyn-smem-per-thread must not be negative")
	}
	var d gpu.Device
	var err error
	switch {
	case *gpuName != "" && *ccFlag != "":
		return usageErr("give --gpu or --cc, not both")
	case *gpuName != "":
		d, err = gpu.Lookup(*gpuName)
	case *ccFlag != "":
		var cc gpu.CC
		if cc, err = gpu.ParseCC(*ccFlag); err == nil {
			d, err = gpu.ForCapability(cc)
		}
	default:
		return usageErr("which GPU? give --gpu NAME or --cc X.Y")
	}
	if err != nil {
		fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
		return 1
	}

	k := occupancy.Kernel{
		BlockSize:          *threads,
		Registers:          *regs,
		StaticSharedMem:    *smem,
		DynamicSharedMem:   *dynSmem,
		Barriers:           *barriers,
		MaxThreadsPerBlock: *funcMax,
	}
	switch {
	case *maxDynSmem == 0:
		k.MaxDynamicSharedMem = occupancy.NoDynamicSharedMem
	case *maxDynSmem > 0:
		k.MaxDynamicSharedMem = *maxDynSmem
	case *maxDynSmem < -1:
		return usageErr("--max-dyn-smem must not be negative")
	}
	if *carveout != -1 {
		k.Carveout = occupancy.CarveoutPercent(*carveout)
	}
	if err := k.CachePreference.UnmarshalText([]byte(*cache)); err != nil {
		return usageErr("--cache %v", err)
	}
	if err := k.SharedMemLimit.UnmarshalText([]byte(*smemLimit)); err != nil {
		return usageErr("--smem-limit %v", err)
	}
	if err := k.PartitionedGC.UnmarshalText([]byte(*gc)); err != nil {
		return usageErr("--gc %v", err)
	}

	if *suggest {
		var s occupancy.Suggestion
		if *perThread > 0 {
			n := *perThread
			// The largest block tried must not need more bytes than the
			// calculator takes: n × b must not wrap.
			largest := d.MaxThreadsPerBlock
			if *funcMax > 0 {
				largest = min(largest, *funcMax)
			}
			if n > math.MaxInt32/max(largest, 1) {
				return usageErr("--dyn-smem-per-thread %d is too large: a block of %d threads would need %d bytes (at most %d)",
					n, largest, int64(n)*int64(largest), math.MaxInt32)
			}
			s, err = occupancy.SuggestBlockSizeFunc(d, k, func(b int) int { return n * b })
		} else {
			s, err = occupancy.SuggestBlockSize(d, k)
		}
		if err != nil {
			fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
			return 1
		}
		if *asJSON {
			return writeJSON(stdout, stderr, struct {
				GPU        gpu.Device           `json:"gpu"`
				Kernel     occupancy.Kernel     `json:"kernel"`
				Suggestion occupancy.Suggestion `json:"suggestion"`
			}{d, k, s})
		}
		fmt.Fprintf(stdout, "GPU        %s\n", d)
		if s.BlockSize == 0 {
			fmt.Fprintf(stdout, "suggestion none: no block size lets this kernel run (%s)\n", s.Result.Obstacles)
			return 0
		}
		fmt.Fprintf(stdout, "block size %d threads\n", s.BlockSize)
		fmt.Fprintf(stdout, "grid       at least %d blocks to fill all %d SMs\n", s.MinGridSize, d.SMs)
		fmt.Fprintf(stdout, "occupancy  %s\n", summary(s.Result))
		return 0
	}

	if *threads <= 0 {
		return usageErr("--threads must be a positive block size")
	}
	r, err := occupancy.Compute(d, k)
	if err != nil {
		fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
		return 1
	}
	steps, err := occupancy.ExplainSteps(d, k)
	if err != nil {
		fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
		return 1
	}
	if *asJSON {
		return writeJSON(stdout, stderr, struct {
			GPU         gpu.Device       `json:"gpu"`
			Kernel      occupancy.Kernel `json:"kernel"`
			Result      occupancy.Result `json:"result"`
			Explanation []occupancy.Step `json:"explanation"`
		}{d, k, r, steps})
	}
	fmt.Fprintf(stdout, "GPU        %s\n", d)
	fmt.Fprintf(stdout, "kernel     %d threads per block, %d registers per thread, %d + %d bytes of shared memory\n",
		k.BlockSize, k.Registers, k.StaticSharedMem, k.DynamicSharedMem)
	fmt.Fprintf(stdout, "occupancy  %s\n", summary(r))
	if *explainFlag {
		fmt.Fprintln(stdout)
		for _, s := range steps {
			fmt.Fprintf(stdout, "%s: %s\n", s.Resource, s.Text)
		}
	}
	return 0
}

// summary is the one-line answer: blocks, warps, occupancy, limiters.
func summary(r occupancy.Result) string {
	if r.ActiveBlocks == 0 {
		return fmt.Sprintf("0 blocks per SM: cannot run (%s)", r.Obstacles)
	}
	blocks := "blocks"
	if r.ActiveBlocks == 1 {
		blocks = "block"
	}
	return fmt.Sprintf("%d %s per SM, %d of %d warps, %.2f %%, limited by %s",
		r.ActiveBlocks, blocks, r.ActiveWarps, r.MaxWarps, 100*r.Occupancy, strings.ReplaceAll(r.Limiters.String(), "|", ", "))
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
		return 1
	}
	b = append(b, '\n')
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "warpbook occupancy: %v\n", err)
		return 1
	}
	return 0
}
