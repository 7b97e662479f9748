package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
	"github.com/warpbook/warpbook/engine/ptxas"
	"github.com/warpbook/warpbook/snippets/cuda"
	"github.com/warpbook/warpbook/snippets/page"
)

// maxPtxasInput bounds what occupancy --ptxas reads: a build log of a large
// project's every kernel is a few MiB.
const maxPtxasInput = 64 << 20

// ptxasRow is one kernel of a ptxas log on one GPU.
type ptxasRow struct {
	Name      string           `json:"name"`
	Demangled string           `json:"demangled"`
	Arch      string           `json:"arch"`
	Line      int              `json:"line"`
	GPU       string           `json:"gpu"`
	CC        gpu.CC           `json:"cc"`
	Resources ptxas.Resources  `json:"resources"`
	Kernel    occupancy.Kernel `json:"kernel"`
	Result    occupancy.Result `json:"result"`
	// Better are the block sizes that give the highest occupancy, when it
	// is higher than Result's (smallest first), and that occupancy.
	Better          []int   `json:"better_block_sizes,omitempty"`
	BetterOccupancy float64 `json:"better_occupancy,omitempty"`
}

// runOccupancyPtxas implements "warpbook occupancy --ptxas".
func runOccupancyPtxas(c *cli, o occOptions) int {
	for _, f := range o.set {
		switch f {
		case "regs", "smem", "barriers", "max-threads":
			return c.usagef("--ptxas takes the kernels' resources from ptxas's report: drop --%s", f)
		case "cc", "suggest", "batch", "dyn-smem-per-thread":
			return c.usagef("--%s does not go with --ptxas (give --gpu NAME to pick one GPU)", f)
		}
	}
	if o.threads <= 0 {
		return c.usagef("--threads must be a positive block size")
	}
	base := occupancy.Kernel{}
	if msg := o.launch(&base); msg != "" {
		return c.usagef("%s", msg)
	}
	name := o.ptxas
	var data []byte
	if name == "-" {
		name = "stdin"
		var err error
		if data, err = io.ReadAll(io.LimitReader(c.stdin, maxPtxasInput+1)); err != nil {
			return c.failf("reading %s: %v", name, err)
		}
		if len(data) > maxPtxasInput {
			return c.failf("%s is larger than %d MiB: not one build's ptxas output", name, maxPtxasInput>>20)
		}
	} else {
		// A regular file of bounded size, as every file the commands
		// read: a named pipe does not block, /dev/zero is not read.
		var err error
		if data, err = page.ReadFile(nil, name, maxPtxasInput, "ptxas output"); err != nil {
			return c.failf("%v", err)
		}
	}
	funcs, err := cuda.Parse(strings.NewReader(string(data)))
	if err != nil {
		var pe *cuda.ParseError
		if errors.As(err, &pe) {
			return c.failf("%s:%d: %v", name, pe.Line, pe.Err)
		}
		return c.failf("reading %s: %v", name, err)
	}
	var kernels []cuda.Function
	for _, f := range funcs {
		if f.Entry {
			kernels = append(kernels, f)
		}
	}
	if len(kernels) == 0 {
		return c.failf("%s holds no ptxas resource report (\"ptxas info : Used N registers\"): build with -Xptxas -v", name)
	}

	var fixed *gpu.Device
	if o.gpu != "" {
		d, err := gpu.Lookup(o.gpu)
		if err != nil {
			return c.failf("%v", err)
		}
		fixed = &d
		kernels, err = loadedOn(kernels, d.CC)
		if err != nil {
			return c.failf("%s: %v", name, err)
		}
	}
	var rows []ptxasRow
	for _, f := range kernels {
		row := ptxasRow{Name: f.Name, Demangled: f.Demangled, Arch: f.Arch, Line: f.Line, Resources: f.Resources}
		var d gpu.Device
		if fixed != nil {
			d = *fixed
		} else {
			cc, err := f.CC()
			if err == nil {
				d, err = gpu.ForCapability(cc)
			}
			if err != nil {
				return c.failf("%s:%d: %s: %v", name, f.Line, f.Arch, err)
			}
		}
		row.GPU, row.CC = d.Name, d.CC
		k := f.Resources.Launch(o.threads, o.dynSmem)
		k.MaxDynamicSharedMem, k.Carveout, k.CachePreference = base.MaxDynamicSharedMem, base.Carveout, base.CachePreference
		k.SharedMemLimit, k.PartitionedGC = base.SharedMemLimit, base.PartitionedGC
		row.Kernel = k
		if row.Result, err = occupancy.Compute(d, k); err != nil {
			return c.failf("%s:%d: %s on %s: %v", name, f.Line, f.Demangled, d.Name, err)
		}
		s, err := occupancy.SuggestBlockSize(d, k)
		if err != nil {
			return c.failf("%s:%d: %s on %s: %v", name, f.Line, f.Demangled, d.Name, err)
		}
		if s.BlockSize > 0 && s.Result.Occupancy > row.Result.Occupancy {
			row.Better = append([]int{s.BlockSize}, s.Ties...)
			sort.Ints(row.Better)
			row.BetterOccupancy = s.Result.Occupancy
		}
		rows = append(rows, row)
	}

	if o.json {
		return printJSON(c, struct {
			File             string     `json:"file"`
			Threads          int        `json:"threads"`
			DynamicSharedMem int        `json:"dynamic_shared_mem"`
			Kernels          []ptxasRow `json:"kernels"`
		}{name, o.threads, o.dynSmem, rows})
	}
	fmt.Fprintf(c.stdout, "%s: %d kernels at %d threads per block, %d bytes of dynamic shared memory\n\n", name, len(rows), o.threads, o.dynSmem)
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KERNEL\tARCH\tGPU\tREGS\tSMEM\tSPILLS\tBLOCKS\tWARPS\tOCCUPANCY\tLIMITED BY\tBETTER")
	for _, r := range rows {
		spills := "-"
		if r.Resources.SpillStores+r.Resources.SpillLoads > 0 {
			spills = fmt.Sprintf("%d/%d B", r.Resources.SpillStores, r.Resources.SpillLoads)
		}
		limited := strings.ReplaceAll(r.Result.Limiters.String(), "|", ", ")
		if r.Result.ActiveBlocks == 0 {
			limited = "cannot launch: " + strings.ReplaceAll(r.Result.Obstacles.String(), "|", ", ")
		}
		better := "-"
		if len(r.Better) > 0 {
			better = fmt.Sprintf("%.2f %% at %s", 100*r.BetterOccupancy, sizeRanges(r.Better, 32))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d/%d\t%.2f %%\t%s\t%s\n",
			r.Demangled, r.Arch, r.GPU, r.Resources.Registers, r.Resources.SharedMem, spills,
			r.Result.ActiveBlocks, r.Result.ActiveWarps, r.Result.MaxWarps, 100*r.Result.Occupancy, limited, better)
	}
	tw.Flush()
	return 0
}

// loadedOn keeps, of each kernel, the SASS a GPU of capability cc would
// load from the build: the newest architecture of the same major
// capability not newer than cc (sm_90a only on 9.0 itself). A kernel with
// none (the driver would compile its PTX) is an error.
func loadedOn(kernels []cuda.Function, cc gpu.CC) ([]cuda.Function, error) {
	best := map[string]int{} // kernel name → index in kernels
	var order []string
	archs := map[string][]string{}
	demangled := map[string]string{}
	for i, f := range kernels {
		archs[f.Name] = append(archs[f.Name], f.Arch)
		demangled[f.Name] = f.Demangled
		kc, err := f.CC()
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", f.Line, err)
		}
		if _, seen := best[f.Name]; !seen {
			order = append(order, f.Name)
			best[f.Name] = -1
		}
		specific := strings.HasSuffix(f.Arch, "a") || strings.HasSuffix(f.Arch, "f")
		if kc.Major != cc.Major || cc.Less(kc) || (specific && kc != cc) {
			continue
		}
		if j := best[f.Name]; j < 0 || kernels[j].Arch < f.Arch {
			best[f.Name] = i
		}
	}
	var out []cuda.Function
	for _, n := range order {
		j := best[n]
		if j < 0 {
			return nil, fmt.Errorf("kernel %s has no SASS a %s GPU loads (built for %s); build with -arch=sm_%d%d", demangled[n], cc, strings.Join(archs[n], ", "), cc.Major, cc.Minor)
		}
		out = append(out, kernels[j])
	}
	return out, nil
}

// sizeRanges writes block sizes (smallest first) as ranges of multiples
// of step: "256-512, 1024" for 256, 288, ..., 512, 1024.
func sizeRanges(sizes []int, step int) string {
	var parts []string
	for i := 0; i < len(sizes); {
		j := i
		for j+1 < len(sizes) && sizes[j+1]-sizes[j] == step {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(sizes[i]))
		} else {
			parts = append(parts, strconv.Itoa(sizes[i])+"-"+strconv.Itoa(sizes[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
