package targets

import (
	"context"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// sampleWells follows a game that always takes the AI piece's tallest
// live outcome, keeping every other well: early wells survive a target
// beam, the last ones die in it.
func sampleWells(t testing.TB) []hatetris.Well {
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, "")
	if err != nil {
		t.Fatal(err)
	}
	gen := hatetris.NewGenerator(r)
	var out []hatetris.Well
	w := g.Well
	var buf []hatetris.Outcome
	for i := 0; i < 200; i++ {
		if i%2 == 0 {
			out = append(out, w)
		}
		_, buf = gen.Move(&w, hatetris.Mild, nil, buf[:0])
		// the tallest live outcome: wells that die soon
		best := -1
		for k := range buf {
			if !buf[k].GameOver && (best < 0 || r.Peak(&buf[k].Well) < r.Peak(&buf[best].Well)) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		w = buf[best].Well
	}
	// A well filled to one row under the bar with no line to clear: every
	// piece ends the game.
	var full hatetris.Well
	for y := 5; y < r.Depth; y++ {
		full[y] = 0b0101010101 << (y % 2)
	}
	return append(out, full)
}

// TestCompute: targets are in [-1, 1], -1 for wells whose beam dies, not
// all -1 (the peer's bug), and the same on 1 and 2 workers.
func TestCompute(t *testing.T) {
	ev, err := eval.ByName("nnue", "../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	wells := sampleWells(t)
	var res [2][]float32
	for i, workers := range []int{1, 2} {
		res[i], err = Compute(context.Background(), Config{Eval: ev, Width: 32, Pieces: 6, Workers: workers}, wells)
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(res[0], res[1]) {
		t.Fatalf("workers change the targets: %v vs %v", res[0], res[1])
	}
	dead, live := 0, 0
	for _, v := range res[0] {
		if v < -1 || v > 1 {
			t.Fatalf("target %v", v)
		}
		if v == -1 {
			dead++
		} else {
			live++
		}
	}
	t.Logf("targets %v", res[0])
	if dead == 0 || live == 0 {
		t.Fatalf("%d dead, %d live targets: want both", dead, live)
	}
}
