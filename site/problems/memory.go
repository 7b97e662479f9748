package problems

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/sim"
)

var accessWidths = []int{1, 2, 4, 4, 4, 8, 8, 16}

func sectorsFamily() Family {
	return Family{
		Name: "sectors", Code: "sec", Tags: []string{"memory", "coalescing"}, Title: "Sectors per request for an access pattern",
		Section: "memory-mechanics.md#from-32-addresses-to-sectors",
		draw: func(r *rng) Values {
			return Values{{"width", pick(r, accessWidths)}, {"stride", pick(r, []int{1, 1, 2, 3, 4, 5, 8, 16, 32, 33, 64})}}
		},
		make: makeSectors,
	}
}

func elementOf(width int) string {
	switch width {
	case 1:
		return "char"
	case 2:
		return "half"
	case 4:
		return "float"
	case 8:
		return "double"
	}
	return "float4"
}

func makeSectors(in Values) (*Problem, error) {
	width, stride := in.Int("width"), in.Int("stride")
	if stride < 1 {
		return nil, fmt.Errorf("problems: stride %d, want 1 or more elements", stride)
	}
	n, err := sim.Sectors(width, stride)
	if err != nil {
		return nil, err
	}
	sol, err := sim.ExplainSectors(width, stride)
	if err != nil {
		return nil, err
	}
	eff := round(100*float64(32*width)/float64(32*n), 2)
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("Each thread t of a warp loads one %d-byte %s, a[%s], from global memory (a is aligned to 128 bytes). How many 32-byte sectors does the warp's request move, and what share of the bytes moved do the threads use?",
			width, elementOf(width), indexOf(stride)),
		Given: []string{"Global memory moves whole 32-byte sectors: a request moves every sector any of its threads touches."},
		Parts: []Part{
			numberPart("sectors", "Sectors per request", "sectors", float64(n), 0, exactly),
			numberPart("efficiency", "Bytes used ÷ bytes moved (%)", "%", eff, 2, func() (float64, bool, string) { return within(0.5) }),
		},
		Answer:   Values{{"sectors", n}, {"efficiency", eff}},
		Solution: sol,
	}, nil
}

func indexOf(stride int) string {
	if stride == 1 {
		return "t"
	}
	return fmt.Sprintf("%d * t", stride)
}

func bankFamily() Family {
	return Family{
		Name: "bank-conflicts", Code: "bank", Tags: []string{"memory", "shared-memory", "bank-conflicts"}, Title: "Bank-conflict passes for a shared-memory access",
		Section: "memory-mechanics.md#shared-memory-banks",
		draw: func(r *rng) Values {
			return Values{{"width", pick(r, []int{4, 4, 4, 8, 16})}, {"stride", pick(r, []int{1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 64})}}
		},
		make: makeBank,
	}
}

func makeBank(in Values) (*Problem, error) {
	width, stride := in.Int("width"), in.Int("stride")
	if stride < 1 {
		return nil, fmt.Errorf("problems: stride %d, want 1 or more elements", stride)
	}
	n, err := sim.Wavefronts(width, stride)
	if err != nil {
		return nil, err
	}
	sol, err := sim.ExplainWavefronts(width, stride)
	if err != nil {
		return nil, err
	}
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("Each thread t of a warp reads one %d-byte %s, s[%s], from a __shared__ array. How many passes over the banks (wavefronts) does the access take?",
			width, elementOf(width), indexOf(stride)),
		Given:    []string{"Shared memory has 32 banks of 4-byte words (word w is in bank w mod 32); a warp is served in phases of 128 bytes, and a bank serves one distinct word per pass (threads reading the same word share it)."},
		Parts:    []Part{numberPart("wavefronts", "Passes (wavefronts)", "passes", float64(n), 0, exactly)},
		Answer:   Values{{"wavefronts", n}},
		Solution: sol,
	}, nil
}
