package figure

import (
	"testing"

	"github.com/warpbook/warpbook/engine/sim"
)

// Every warp state has a code, and no two share one: the timeline tells
// states apart by it, not by colour alone.
func TestStateCodes(t *testing.T) {
	seen := map[string]string{}
	for _, st := range sim.States() {
		code := stateCodes[st.String()]
		if code == "" {
			t.Errorf("state %s has no code", st)
		}
		if other, dup := seen[code]; dup {
			t.Errorf("states %s and %s share the code %s", other, st, code)
		}
		seen[code] = st.String()
	}
	if len(stateCodes) != len(sim.States()) {
		t.Errorf("%d codes for %d states", len(stateCodes), len(sim.States()))
	}
}
