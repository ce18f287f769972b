package eval

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

// testNetwork is a seeded random 10x16 network.
func testNetwork(t testing.TB, sw float64) *nnue.Network {
	fs, err := nnue.NewFeatureSet(nnue.Shared, 10, 16)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.NewNetwork(fs, 32, nnue.HardTanh)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n.W1 {
		n.W1[i] = float32(rng.Float64()*0.2 - 0.1)
	}
	for j := range n.B1 {
		n.B1[j], n.W2[j] = float32(rng.Float64()-0.5), float32(rng.Float64()-0.5)
	}
	n.ScoreWeight = sw
	n.Header.Name = "test"
	return n
}

// TestNNUEWorker: values with and without SetParent are identical (the
// accumulator update is exact), within the error bound of the float
// network, and carry the score weight on score and quiescence lines alike.
func TestNNUEWorker(t *testing.T) {
	r := hatetris.Standard()
	n := testNetwork(t, 0.25)
	e, err := NewNNUE(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check(r); err != nil {
		t.Fatal(err)
	}
	small, _ := hatetris.NewRules(8, 20, 4)
	if err := e.Check(small); err == nil {
		t.Fatal("8-wide rules: no error")
	}
	wp := e.NewWorker(r).(*NNUEWorker)
	wf := e.NewWorker(r)
	g := hatetris.NewGenerator(r)
	rng := rand.New(rand.NewPCG(3, 4))
	w := hatetris.Well{}
	var buf []hatetris.Outcome
	checked := 0
	for step := 0; step < 400; step++ {
		_, buf = g.Move(&w, hatetris.Mild, nil, buf[:0])
		wp.SetParent(&w)
		var live []hatetris.Outcome
		for _, res := range buf {
			if res.GameOver {
				continue
			}
			live = append(live, res)
			a := wp.Evaluate(&res.Well, 3, 1)
			b := wf.Evaluate(&res.Well, 3, 1)
			if a != b {
				t.Fatalf("step %d: with parent %v, without %v", step, a, b)
			}
			f := n.Evaluate(res.Well[r.Bar:r.Depth]) + 0.25*4
			if math.Abs(a-f) > e.Quantized().ErrorBound() {
				t.Fatalf("int %v float %v", a, f)
			}
			checked++
		}
		if len(live) == 0 {
			w = hatetris.Well{}
			continue
		}
		w = live[rng.IntN(len(live))].Well
	}
	if checked < 1000 {
		t.Fatalf("only %d children", checked)
	}
	if a := testing.AllocsPerRun(100, func() { wp.SetParent(&w); wp.Evaluate(&buf[0].Well, 0, 0) }); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestByNameNNUE: "nnue" loads a weights file; without one, or with a bad
// one, it is a one-line error.
func TestByNameNNUE(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.hlnn")
	if err := nnue.Save(path, testNetwork(t, 0)); err != nil {
		t.Fatal(err)
	}
	ev, err := ByName("nnue", path)
	if err != nil || !strings.HasPrefix(ev.Name(), "nnue:test[shared 10x16") {
		t.Fatal(err, ev)
	}
	for _, c := range []struct{ name, file string }{{"nnue", ""}, {"nnue", filepath.Join(t.TempDir(), "none")}, {"NNUE", "eval.go"}, {"nn", path}} {
		if _, err := ByName(c.name, c.file); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q %q: %v", c.name, c.file, err)
		}
	}
}
