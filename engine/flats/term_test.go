package flats

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// denseG is G as first written: π from a dense 4^Width table of
// Permeability.At, the reach flood-filled cell by cell.
func denseG(t *Term, perm []float32, r *hatetris.Rules, w *hatetris.Well) float64 {
	d := r.Depth
	full := r.FullRow()
	top := t.height - 1
	reach := full
	var prev uint16
	rr := float32(1)
	g := float32(0)
	y := 0
	for y < d && w[y] == 0 {
		y++
	}
	for ; y < d; y++ {
		row := w[y]
		empty := full &^ row
		seed := reach & empty
		if seed == 0 {
			break
		}
		for {
			n := seed | (seed<<1|seed>>1)&empty
			if n == seed {
				break
			}
			seed = n
		}
		reach = seed
		rr *= perm[int(prev)<<t.width|int(row)]
		g += t.b[min(d-1-y, top)<<t.width|int(row)] * rr
		prev = row
	}
	return float64(g)
}

// TestTermEqualsDense: G equals the dense-table computation bit for bit
// on every well of the record replays and on random wells.
func TestTermEqualsDense(t *testing.T) {
	tab := recordTable(t)
	term, err := NewTerm(tab, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := hatetris.Standard()
	n := 1 << r.Width
	p := tab.Permeability()
	perm := make([]float32, n*n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			perm[a<<r.Width|b] = float32(p.At(uint16(a), uint16(b)))
		}
	}
	tw := term.NewWorker(r).(*TermWorker)
	var wells []hatetris.Well
	for _, g := range testRecords(t) {
		for _, s := range g.Steps {
			wells = append(wells, s.Before)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var w hatetris.Well
		for y := rng.IntN(r.Depth); y < r.Depth; y++ {
			w[y] = uint16(rng.IntN(n-1)) | uint16(1)<<rng.IntN(r.Width)&(r.FullRow()-1)
			if rng.IntN(4) == 0 {
				w[y] = uint16(rng.IntN(n - 1))
			}
		}
		wells = append(wells, w)
	}
	for i := range wells {
		if got, want := tw.G(&wells[i]), denseG(term, perm, r, &wells[i]); got != want {
			t.Fatalf("well %d: G %v, dense %v", i, got, want)
		}
	}
}

// TestFillRuns: fillRuns equals the cell-by-cell flood for every seed and
// empty mask of a 10-wide row, and on random 16-bit rows.
func TestFillRuns(t *testing.T) {
	flood := func(seed, empty uint16) uint16 {
		for {
			n := seed | (seed<<1|seed>>1)&empty
			if n == seed {
				return seed
			}
			seed = n
		}
	}
	for e := 0; e < 1<<10; e++ {
		for s := 0; s < 1<<10; s++ {
			seed := uint16(s & e)
			if got, want := fillRuns(seed, uint16(e)), flood(seed, uint16(e)); got != want {
				t.Fatalf("seed %b empty %b: %b, want %b", seed, e, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		e := uint16(rng.Uint32())
		seed := uint16(rng.Uint32()) & e
		if got, want := fillRuns(seed, e), flood(seed, e); got != want {
			t.Fatalf("seed %b empty %b: %b, want %b", seed, e, got, want)
		}
	}
}

// TestTermCheck: the term is a geometry checker (issue 28): a well of
// its table's width passes, another is refused with an error (never a
// panic) by the term, by a sum holding it, and by a beam search before it
// starts.
func TestTermCheck(t *testing.T) {
	term, err := NewTerm(recordTable(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	sum := eval.Sum{Base: eval.NewHand(eval.DefaultWeights()), Terms: []eval.Evaluator{term}}
	for _, tc := range []struct {
		width, depth, bar int
		wantErr           string
	}{
		{10, 20, 4, ""},
		{10, 12, 4, ""},
		{8, 20, 4, "flats: a width-10 term for a"},
		{12, 20, 4, "flats: a width-10 term for a"},
	} {
		r, err := hatetris.NewRules(tc.width, tc.depth, tc.bar)
		if err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string]error{"term": term.Check(r), "sum": sum.Check(r)} {
			if (got == nil) != (tc.wantErr == "") || (got != nil && !strings.Contains(got.Error(), tc.wantErr)) {
				t.Errorf("%dx%d %s: %v, want %q", tc.width, tc.depth, name, got, tc.wantErr)
			}
		}
		_, err = beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: 2, MaxPieces: 2, Eval: sum, Workers: 1})
		if tc.wantErr != "" && (!errors.Is(err, beam.ErrConfig) || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%dx%d beam: %v, want ErrConfig with %q", tc.width, tc.depth, err, tc.wantErr)
		}
		if tc.wantErr == "" && errors.Is(err, beam.ErrConfig) {
			t.Errorf("%dx%d beam: %v", tc.width, tc.depth, err)
		}
	}
}
