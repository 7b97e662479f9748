package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
	"github.com/warpbook/warpbook/tools/warpbook/internal/batch"
)

var occupancyCommand = command{
	summary: "compute occupancy for a kernel on a GPU",
	usage: `usage: warpbook occupancy (--gpu NAME | --cc X.Y) --threads N --regs R [flags]
       warpbook occupancy (--gpu NAME | --cc X.Y) --suggest --regs R [flags]
       warpbook occupancy --ptxas FILE --threads N [--gpu NAME] [flags]
       warpbook occupancy --batch < in.csv > out.csv

Computes how many blocks of a kernel fit on one SM of a GPU, the occupancy,
what limits it (in Nsight Compute's occupancy-section names: Block Limit
Warps, Registers, Shared Mem, SM), and the arithmetic behind each limit. The
figures agree with NVIDIA's occupancy calculator (cuda_occupancy.h). A
configuration that cannot launch exits 1 with the reason. "warpbook gpus"
lists the GPUs. --regs is required (--regs 0: a kernel not limited by
registers). Sizes in bytes take K, KB or KiB (1024) and M, MB or MiB:
--dyn-smem 48K is 49152.

--batch reads CSV on stdin and writes CSV on stdout: the columns of the
golden reference file (cc or gpu, block_size, regs, static_smem,
dynamic_smem, carveout, cache_config, shmem_limit_config, max_dynamic_smem,
gc_config, num_barriers, func_max_threads; all but the first three are
optional), with status, active_blocks, active_warps, max_warps,
occupancy_percent, limiter and the other result columns appended. A bad row
gets status invalid_input or unknown_device and a message; the rest still run.

--ptxas reads the -Xptxas -v output of an nvcc build (FILE, or - for stdin;
other lines of a build log are skipped) and prints the occupancy of every
kernel it reports, at --threads threads per block: on the GPU that stands
for each architecture's compute capability (as --cc picks it: sm_75 the
Tesla T4, sm_80 the A100 SXM4, sm_86 the GeForce RTX 3090, sm_89 the
GeForce RTX 4090, sm_90 and sm_90a the H100 SXM5; each line names it), or
with --gpu on that GPU, from the SASS the driver would load there (the
newest architecture of the same major capability). Each line has ptxas's
registers, shared memory and spills, the blocks, warps and occupancy,
what limits them, and the block sizes that would give a higher occupancy
(ptxas does not report __launch_bounds__: sizes above a kernel's bound
would not launch). Barriers are ptxas's when it reports them, else one.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		var o occOptions
		fs.StringVar(&o.gpu, "gpu", "", "GPU name, such as A100, \"H100 SXM\", \"RTX 4090\" (or a capability)")
		fs.StringVar(&o.cc, "cc", "", "compute capability, such as 8.0 or sm_80 (the preset part for it)")
		fs.IntVar(&o.threads, "threads", 0, "threads per block")
		fs.IntVar(&o.regs, "regs", 0, "registers per thread (required; 0: not limited by registers)")
		fs.Var(byteSize{&o.smem}, "smem", "static shared memory per block, bytes (48K, 48KB, 48KiB, 49152)")
		fs.Var(byteSize{&o.dynSmem}, "dyn-smem", "dynamic shared memory per block at launch, bytes")
		o.maxDynSmem = -1
		fs.Var(byteSize{&o.maxDynSmem}, "max-dyn-smem", "the kernel's max dynamic shared memory attribute, bytes; -1: the same as --dyn-smem")
		fs.IntVar(&o.carveout, "carveout", -1, "preferred shared-memory carveout, percent 0-100; -1: no preference")
		fs.StringVar(&o.cache, "cache", "none", "cache preference: none, prefer_shared, prefer_l1, prefer_equal")
		fs.StringVar(&o.smemLimit, "smem-limit", "optin", "per-block shared memory limit: optin or default")
		fs.IntVar(&o.barriers, "barriers", 1, "block barriers the kernel uses")
		fs.StringVar(&o.gc, "gc", "off", "partitioned global caching: off, on, on_strict")
		fs.IntVar(&o.funcMax, "max-threads", 0, "the kernel's own maximum block size (__launch_bounds__); 0: none")
		fs.Var(byteSize{&o.perThread}, "dyn-smem-per-thread", "with --suggest: dynamic shared memory per thread of the block, bytes")
		fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
		fs.BoolVar(&o.suggest, "suggest", false, "suggest the block size with the best occupancy, and the sizes that tie")
		fs.BoolVar(&o.batch, "batch", false, "read CSV rows on stdin, write results as CSV on stdout")
		fs.BoolVar(&o.explain, "explain", true, "print the arithmetic behind each limit")
		fs.StringVar(&o.ptxas, "ptxas", "", "read the kernels' registers and shared memory from this nvcc -Xptxas -v output (- for stdin)")
		return func(args []string) int {
			if len(args) > 0 {
				return c.usagef("unexpected argument %q", args[0])
			}
			fs.Visit(func(f *flag.Flag) {
				if f.Name == "regs" {
					o.regsSet = true
				}
				o.set = append(o.set, f.Name)
			})
			return runOccupancy(c, o)
		}
	},
}

// occOptions are the flags of warpbook occupancy.
type occOptions struct {
	gpu, cc, cache, smemLimit, gc              string
	threads, regs, carveout, barriers, funcMax int
	smem, dynSmem, maxDynSmem, perThread       int
	json, suggest, batch, explain, regsSet     bool
	ptxas                                      string
	set                                        []string // the flags given
}

// byteSize is a flag of bytes that takes K, KB, KiB, M, MB and MiB
// (powers of 1024, as CUDA's shared-memory sizes are written).
type byteSize struct{ n *int }

func (b byteSize) String() string {
	if b.n == nil {
		return "0"
	}
	return strconv.Itoa(*b.n)
}

func (b byteSize) Set(s string) error {
	v := strings.TrimSpace(s)
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"KB", 1 << 10}, {"K", 1 << 10}, {"MiB", 1 << 20}, {"MB", 1 << 20}, {"M", 1 << 20}} {
		if rest, ok := strings.CutSuffix(v, u.suffix); ok {
			v, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a size in bytes (write 49152, 48K, 48KB or 48KiB)", s)
	}
	if n > math.MaxInt32/int64(mult) || n < -1 {
		return fmt.Errorf("%s is out of range (0 to %d bytes)", s, math.MaxInt32)
	}
	*b.n = int(n) * mult
	return nil
}

// runOccupancy implements "warpbook occupancy".
func runOccupancy(c *cli, o occOptions) int {
	if o.batch && o.ptxas == "" {
		var out bytes.Buffer // nothing reaches stdout unless the whole batch ran
		if err := batch.Run(c.stdin, &out); err != nil {
			var be *batch.Error
			if errors.As(err, &be) {
				return c.failf("stdin:%d: %v", be.Line, be.Err)
			}
			return c.failf("reading stdin: %v", err)
		}
		if _, err := c.stdout.Write(out.Bytes()); err != nil {
			return c.failf("%v", err)
		}
		return 0
	}

	if !o.regsSet && o.ptxas == "" {
		return c.usagef("how many registers per thread? give --regs N (--regs 0 for a kernel that registers do not limit)")
	}
	// The calculator takes 32-bit numbers, as CUDA does; a larger flag is
	// named here rather than wrapped or blamed on a block size.
	for _, f := range []struct {
		name string
		v    int
	}{
		{"threads", o.threads}, {"regs", o.regs}, {"smem", o.smem}, {"dyn-smem", o.dynSmem},
		{"max-dyn-smem", o.maxDynSmem}, {"carveout", o.carveout}, {"barriers", o.barriers},
		{"max-threads", o.funcMax}, {"dyn-smem-per-thread", o.perThread},
	} {
		if f.v > math.MaxInt32 {
			return c.usagef("--%s %d is too large (at most %d)", f.name, f.v, math.MaxInt32)
		}
	}
	if o.ptxas != "" {
		return runOccupancyPtxas(c, o)
	}
	var d gpu.Device
	var err error
	switch {
	case o.gpu != "" && o.cc != "":
		return c.usagef("give --gpu or --cc, not both")
	case o.gpu != "":
		d, err = gpu.Lookup(o.gpu)
	case o.cc != "":
		var cc gpu.CC
		if cc, err = gpu.ParseCC(o.cc); err == nil {
			d, err = gpu.ForCapability(cc)
		}
	default:
		return c.usagef("which GPU? give --gpu NAME or --cc X.Y")
	}
	if err != nil {
		return c.failf("%v", err)
	}

	k := occupancy.Kernel{
		BlockSize:          o.threads,
		Registers:          o.regs,
		StaticSharedMem:    o.smem,
		DynamicSharedMem:   o.dynSmem,
		Barriers:           o.barriers,
		MaxThreadsPerBlock: o.funcMax,
	}
	if msg := o.launch(&k); msg != "" {
		return c.usagef("%s", msg)
	}

	if o.suggest {
		var s occupancy.Suggestion
		if o.perThread > 0 {
			n := o.perThread
			// The largest block tried must not need more bytes than the
			// calculator takes: n × b must not wrap.
			largest := d.MaxThreadsPerBlock
			if o.funcMax > 0 {
				largest = min(largest, o.funcMax)
			}
			if n > math.MaxInt32/max(largest, 1) {
				return c.usagef("--dyn-smem-per-thread %d is too large: a block of %d threads would need %d bytes (at most %d)",
					n, largest, int64(n)*int64(largest), math.MaxInt32)
			}
			s, err = occupancy.SuggestBlockSizeFunc(d, k, func(b int) int { return n * b })
		} else {
			s, err = occupancy.SuggestBlockSize(d, k)
		}
		if err != nil {
			return c.failf("%v", err)
		}
		if o.json {
			return printJSON(c, struct {
				GPU        gpu.Device           `json:"gpu"`
				Kernel     occupancy.Kernel     `json:"kernel"`
				Suggestion occupancy.Suggestion `json:"suggestion"`
			}{d, k, s})
		}
		fmt.Fprintf(c.stdout, "GPU        %s\n", d)
		if s.BlockSize == 0 {
			fmt.Fprintf(c.stdout, "suggestion none: no block size lets this kernel run (%s)\n", s.Result.Obstacles)
			return c.failf("no block size lets this kernel run: %s", s.Result.Obstacles)
		}
		fmt.Fprintf(c.stdout, "block size %d threads\n", s.BlockSize)
		if len(s.Ties) > 0 {
			ties := make([]string, len(s.Ties))
			for i, t := range s.Ties {
				ties[i] = strconv.Itoa(t)
			}
			fmt.Fprintf(c.stdout, "ties       %s threads keep as many threads resident\n", strings.Join(ties, ", "))
		}
		fmt.Fprintf(c.stdout, "grid       at least %d blocks to fill all %d SMs\n", s.MinGridSize, d.SMs)
		fmt.Fprintf(c.stdout, "occupancy  %s\n", summary(s.Result))
		return 0
	}

	if o.threads <= 0 {
		return c.usagef("--threads must be a positive block size")
	}
	r, err := occupancy.Compute(d, k)
	if err != nil {
		return c.failf("%v", err)
	}
	steps, err := occupancy.ExplainSteps(d, k)
	if err != nil {
		return c.failf("%v", err)
	}
	if o.json {
		return printJSON(c, struct {
			GPU         gpu.Device       `json:"gpu"`
			Kernel      occupancy.Kernel `json:"kernel"`
			Result      occupancy.Result `json:"result"`
			Explanation []occupancy.Step `json:"explanation"`
		}{d, k, r, steps})
	}
	fmt.Fprintf(c.stdout, "GPU        %s\n", d)
	fmt.Fprintf(c.stdout, "kernel     %d threads per block, %d registers per thread, %d + %d bytes of shared memory\n",
		k.BlockSize, k.Registers, k.StaticSharedMem, k.DynamicSharedMem)
	fmt.Fprintf(c.stdout, "occupancy  %s\n", summary(r))
	// The limits in the words of Nsight Compute's occupancy section.
	fmt.Fprintln(c.stdout)
	for _, s := range steps {
		if s.Resource == "result" {
			continue
		}
		limit := "no limit"
		if !s.Limit.Unlimited {
			limit = plural(s.Limit.Blocks, "block", "blocks")
		}
		mark := ""
		if r.ActiveBlocks > 0 && !s.Limit.Unlimited && s.Limit.Blocks == r.ActiveBlocks {
			mark = "  (limiter)"
		}
		fmt.Fprintf(c.stdout, "%-32s %s%s\n", nsightName[s.Resource], limit, mark)
	}
	fmt.Fprintf(c.stdout, "%-32s %d\n", "Theoretical Active Warps per SM", r.ActiveWarps)
	fmt.Fprintf(c.stdout, "%-32s %.2f %%\n", "Theoretical Occupancy", 100*r.Occupancy)
	if o.explain {
		fmt.Fprintln(c.stdout)
		for _, s := range steps {
			fmt.Fprintf(c.stdout, "%s: %s\n", nsightName[s.Resource], s.Text)
		}
	}
	if r.ActiveBlocks == 0 {
		return c.failf("this configuration cannot launch: %s", r.Obstacles)
	}
	return 0
}

// launch sets the launch's settings of k from the flags (max dynamic
// shared memory, carveout, cache preference, shared-memory limit,
// partitioned global caching); it returns what is wrong with a flag, or "".
func (o occOptions) launch(k *occupancy.Kernel) string {
	switch {
	case o.maxDynSmem == 0:
		k.MaxDynamicSharedMem = occupancy.NoDynamicSharedMem
	case o.maxDynSmem > 0:
		k.MaxDynamicSharedMem = o.maxDynSmem
	case o.maxDynSmem < -1:
		return "--max-dyn-smem must not be negative"
	}
	if o.carveout != -1 {
		k.Carveout = occupancy.CarveoutPercent(o.carveout)
	}
	if err := k.CachePreference.UnmarshalText([]byte(o.cache)); err != nil {
		return fmt.Sprintf("--cache %v", err)
	}
	if err := k.SharedMemLimit.UnmarshalText([]byte(o.smemLimit)); err != nil {
		return fmt.Sprintf("--smem-limit %v", err)
	}
	if err := k.PartitionedGC.UnmarshalText([]byte(o.gc)); err != nil {
		return fmt.Sprintf("--gc %v", err)
	}
	return ""
}

// nsightName names a limit as Nsight Compute's occupancy section does
// (Block Limit Barriers is the calculator's own: Nsight has none).
var nsightName = map[string]string{
	"warps":      "Block Limit Warps",
	"registers":  "Block Limit Registers",
	"shared_mem": "Block Limit Shared Mem",
	"blocks":     "Block Limit SM",
	"barriers":   "Block Limit Barriers",
	"result":     "Result",
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// summary is the one-line answer: blocks, warps, occupancy, limiters.
func summary(r occupancy.Result) string {
	if r.ActiveBlocks == 0 {
		return fmt.Sprintf("0 blocks per SM: cannot run (%s)", r.Obstacles)
	}
	return fmt.Sprintf("%s per SM, %d of %d warps, %.2f %%, limited by %s",
		plural(r.ActiveBlocks, "block", "blocks"), r.ActiveWarps, r.MaxWarps, 100*r.Occupancy, strings.ReplaceAll(r.Limiters.String(), "|", ", "))
}
