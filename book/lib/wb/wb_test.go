package wb

import (
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1280: "1,280", 65536: "65,536", 999999: "999,999"} {
		if got := Commas(n); got != want {
			t.Errorf("Commas(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestComputePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Compute of a block of no threads did not panic")
		}
	}()
	Compute(gpu.A100(), occupancy.Kernel{BlockSize: 0})
}
