package sim

import (
	"reflect"
	"strings"
	"testing"
)

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

// TestIssuePC: every issue carries the PC of its instruction in the
// flattened program (Program.Listing), the same on every trip through a
// loop and for every warp.
func TestIssuePC(t *testing.T) {
	p := NewProgram().
		Add(Inst{Op: "MOV", Dst: "r1", Src: []string{"RZ"}}). // 0
		Loop(3, NewProgram().
			Add(Inst{Op: "FFMA", Dst: "r0", Src: []string{"r0", "r1"}, ILP: 2}). // 1, 2
			Branch("0-15",
					NewProgram().LDG("r2", "r3", "l2"),                                            // 3 BRA, 4
					NewProgram().Add(Inst{Op: "LDS", Dst: "r4", Src: []string{"r5"}, Width: 16})). // 5
				BAR()). // 6
		NANOSLEEP(7) // 7; the EXIT added is 8
	want := []string{
		"MOV r1",
		"FFMA r0, r0, r1",
		"FFMA r0~1, r0~1, r1",
		"BRA (lanes 0-15)",
		"LDG r2, r3 (l2)",
		"LDS r4, r5 (16 B)",
		"BAR",
		"NANOSLEEP (7 cycles)",
		"EXIT",
	}
	got, err := p.Listing()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listing\n%q\nwant\n%q", got, want)
	}
	r, err := Config{Trace: Window{From: 0, To: 100000}}.Run(Workload{GPU: "volta", Launch: Launch{Block: 64, Blocks: 1}, Program: p})
	if err != nil {
		t.Fatal(err)
	}
	perWarp := map[int][]int{}
	for _, is := range r.Trace.Issues {
		if is.PC < 0 || is.PC >= len(want) || !strings.HasPrefix(want[is.PC], is.Op+" ") && want[is.PC] != is.Op {
			t.Fatalf("issue %+v: PC %d is not a %s", is, is.PC, is.Op)
		}
		perWarp[is.Warp] = append(perWarp[is.Warp], is.PC)
	}
	// Each warp: MOV, three trips (FFMA ×2, BRA, then path, else path, BAR),
	// NANOSLEEP, EXIT.
	trip := []int{1, 2, 3, 4, 5, 6}
	seq := append([]int{0}, trip...)
	seq = append(append(seq, trip...), trip...)
	seq = append(seq, 7, 8)
	for wi := 0; wi < 2; wi++ {
		if !reflect.DeepEqual(perWarp[wi], seq) {
			t.Errorf("warp %d issued PCs %v, want %v", wi, perWarp[wi], seq)
		}
	}
	if _, err := NewProgram().Op("FFMX", "r0").Listing(); err == nil || !strings.Contains(err.Error(), `unknown op "FFMX"`) {
		t.Errorf("Listing of a bad program: %v", err)
	}
	uniform, err := NewProgram().BranchWarps("0,2-3", NewProgram().IADD3("r0", "r0"), nil).Listing()
	if err != nil || uniform[0] != "BRA (warps 0,2-3)" {
		t.Errorf("warp-uniform branch listed as %q, %v", uniform, err)
	}
}
