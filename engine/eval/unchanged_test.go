//go:build amd64 && !amd64.v3

package eval

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestValuesUnchanged: the names, values and features of evaluations that
// leave Tim's terms (edge_heights, s_surface_height) at 0, on seeded wells
// (the openings of two suites, with the wells they passed through, and
// random wells, contiguous or not), hash to what they were before those
// terms were added (the hash below was made by this test at c65d913, the
// commit before them): such a worker values every well as before, bit for
// bit.
// The hash covers Name, Evaluate, EvaluateClears (value and clears) and
// every Features field that existed then. The hash is amd64's below
// GOAMD64=v3 (the build constraint): elsewhere, and at v3 or above, the
// compiler may fuse a multiply and an add, which rounds once. A deliberate
// change of the evaluation's values changes the hash: print h.Sum64() from
// the code before the change and put it here.
func TestValuesUnchanged(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the hash of the values is amd64's")
	}
	const want = uint64(0x1c50a78bcc6f4750)
	r := hatetris.Standard()
	var ws []hatetris.Well
	for _, o := range hatetris.Openings(r, 30, 12, 77) {
		ws = append(ws, o.Well)
		for _, p := range o.Placed {
			ws = append(ws, p.Well)
		}
	}
	rng := rand.New(rand.NewPCG(2026, 7))
	for i := range 150 {
		ws = append(ws, randomWell(rng, r, i%2 == 0))
	}
	dnf := DefaultWeights()
	stack, rules := dnf, dnf
	stack.StackHeight, stack.SurfaceColumns = 7.5, -2.25
	rules.SZHoles, rules.SZTwoWell = true, true
	classic := Weights{Name: "classic", Holes: 1, SurfaceHeight: -3, RowTransitions: 10, ColumnTransitions: 20,
		CumulativeWells: 30, HoleDepth: 40, RowsWithHoles: 50, Bumpiness: 60, Score: -100, FutureFactor: 0.5}
	h := fnv.New64a()
	put := func(v uint64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	for _, wt := range []Weights{dnf, TunedWeights(), ScoreOnly(dnf), stack, rules, classic} {
		ev := NewHand(wt)
		h.Write([]byte(ev.Name()))
		hw := ev.NewHandWorker(r)
		for i := range ws {
			w := &ws[i]
			put(math.Float64bits(hw.Evaluate(w, 3, 1)))
			var clears [hatetris.NumPieces]int
			put(math.Float64bits(hw.EvaluateClears(w, 5, 2, &clears)))
			f := hw.Features(w)
			for _, v := range []int{f.Holes, f.EnclosedHoles, f.EnclosedHoleLines, f.SurfaceHeight, f.StackHeight,
				f.SurfaceColumns, f.Erasability, f.RowTransitions, f.ColumnTransitions, f.CumulativeWells, f.HoleDepth,
				f.RowsWithHoles, f.Bumpiness} {
				put(uint64(v))
			}
			for p := range clears {
				put(uint64(clears[p]) ^ uint64(f.Clears[p])<<32)
			}
		}
	}
	if got := h.Sum64(); got != want {
		t.Fatalf("hash %#x, want %#x: an evaluation without Tim's terms changed", got, want)
	}
}
