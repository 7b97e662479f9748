package sim

import "testing"

// TestTrace: the trace window holds exactly the cycles asked for, spans
// follow warps through slots across waves, and cells outside the window or
// an empty slot read Empty.
func TestTrace(t *testing.T) {
	w := Workload{Name: "trace", GPU: "toy", Launch: Launch{Block: 64, Blocks: 3, Resident: 2},
		Program: chain("FFMA", 20)}
	full, err := Run(w)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Config{Trace: Window{From: 10, To: 200}}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cycles != full.Cycles || r.Instructions != full.Instructions {
		t.Errorf("tracing changed the run: %d cycles, %d instructions; untraced %d, %d", r.Cycles, r.Instructions, full.Cycles, full.Instructions)
	}
	tr := r.Trace
	if tr == nil || tr.From != 10 || tr.To != 200 || tr.Slots != 64 || len(tr.States) != 64*190 {
		t.Fatalf("trace %+v", tr)
	}
	if tr.End != r.Cycles {
		t.Errorf("trace end %d, run %d cycles", tr.End, r.Cycles)
	}
	if tr.At(0, 9) != Empty || tr.At(0, 200) != Empty || tr.At(63, 50) != Empty {
		t.Errorf("cells outside the window or in an unused slot are not Empty")
	}
	// Three blocks, two resident: the third block reuses the first block's
	// slots after it retires.
	blocks := map[int]bool{}
	for _, s := range tr.Spans {
		blocks[s.Block] = true
		if s.End <= s.Start {
			t.Errorf("span %+v ends before it starts", s)
		}
		if s.Scheduler != s.Slot%tr.Schedulers {
			t.Errorf("span %+v: scheduler is not slot mod schedulers", s)
		}
	}
	if len(blocks) != 3 {
		t.Errorf("spans cover blocks %v, want 0, 1 and 2", blocks)
	}
	third, ok := tr.SpanAt(1, r.Cycles-1)
	if !ok || third.Block != 2 {
		t.Errorf("slot 1 at the end holds %+v, %v; want block 2", third, ok)
	}
	issued := 0
	for c := tr.From; c < tr.To; c++ {
		for s := 0; s < tr.Slots; s++ {
			if tr.At(s, c) == Selected {
				issued++
			}
		}
	}
	if issued != len(tr.Issues) || issued != tr.Count(Selected) {
		t.Errorf("%d selected cells, %d issues recorded", issued, len(tr.Issues))
	}
	for i := 1; i < len(tr.Issues); i++ {
		if tr.Issues[i].Cycle < tr.Issues[i-1].Cycle {
			t.Fatalf("issues out of cycle order at %d", i)
		}
	}
	if order := tr.IssueOrder(); len(order) != 2*2+2 {
		// window starts at 10: blocks 0 and 1 (4 warps) have issued before,
		// but each warp's first issue inside the window counts; block 2
		// adds 2.
		t.Errorf("issue order lists %d warps, want 6", len(order))
	}
	row := tr.Row(0)
	if len(row) != 190 || row[0] != tr.At(0, 10) {
		t.Errorf("Row(0) has %d cells", len(row))
	}
}
