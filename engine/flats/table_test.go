package flats

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

func recordTable(t testing.TB) *Table {
	c, err := CountGames(testRecords(t))
	if err != nil {
		t.Fatal(err)
	}
	return BuildTable(c, "records", "", "test: the 20 world-record replays", 0)
}

// TestTableRoundTrip: a table written and read back is the same, and the
// never-cleared shapes are those of the analysis.
func TestTableRoundTrip(t *testing.T) {
	tab := recordTable(t)
	var buf bytes.Buffer
	if err := tab.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTable(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.States) != len(tab.States) || len(back.Shapes) != 563 || len(back.Pairs) != len(tab.Pairs) || back.Games != 20 {
		t.Fatalf("read back %d states, %d shapes, %d pairs, %g games", len(back.States), len(back.Shapes), len(back.Pairs), back.Games)
	}
	never := 0
	for i, s := range back.Shapes {
		if s != tab.Shapes[i] && (s.F == nil || *s.F != *tab.Shapes[i].F) {
			t.Fatalf("shape %d differs", i)
		}
		if s.Never {
			never++
		}
	}
	if never != 100 {
		t.Fatalf("%d never-cleared shapes, want 100", never)
	}
}

// TestReadTableErrors: bad tables are one-line errors.
func TestReadTableErrors(t *testing.T) {
	for _, bad := range []string{
		``, `{}`, `[]`, `{"format":"x"}`,
		`{"format":"hatelab-flats/1","width":3,"height":5,"alpha":5}`,
		`{"format":"hatelab-flats/1","width":10,"height":5,"alpha":0}`,
		`{"format":"hatelab-flats/1","width":10,"height":5,"alpha":5,"shapes":[{"shape":"01","b":0.5,"mf":0.5}]}`,
		`{"format":"hatelab-flats/1","width":10,"height":5,"alpha":5,"states":[{"shape":"0111111110","height":5,"b":0.5}]}`,
		`{"format":"hatelab-flats/1","width":10,"height":5,"alpha":5,"pairs":[{"a":1,"b":2,"n":1,"hits":2}]}`,
		`{"format":"hatelab-flats/1","width":10,"height":5,"alpha":5,"extra":1}`,
	} {
		_, err := ParseTable([]byte(bad))
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%q: error %v", bad, err)
		}
	}
}

// FuzzReadTable: the reader never panics, and what it accepts builds a
// term (for widths the term supports) without panicking.
func FuzzReadTable(f *testing.F) {
	f.Add([]byte(`{"format":"hatelab-flats/1","width":4,"height":2,"source":"x","provenance":"","games":1,"moves":1,"alpha":5,"states":[{"shape":"0111","height":0,"n":1,"b":1}],"shapes":[{"shape":"0111","n":1,"b":1,"mf":1}],"pairs":[{"a":0,"b":7,"n":1,"hits":1}]}`))
	f.Add([]byte(`{"format":"hatelab-flats/1","width":10,"height":5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ParseTable(data)
		if err != nil {
			return
		}
		if tab.Width <= 6 {
			term, err := NewTerm(tab, 1)
			if err != nil {
				return
			}
			r, err := hatetris.NewRules(tab.Width, 8, 4)
			if err != nil {
				t.Fatal(err)
			}
			var w hatetris.Well
			w[7] = 1
			if g := term.NewWorker(r).Evaluate(&w, 0, 0); math.IsNaN(g) {
				t.Fatal("NaN term")
			}
		}
	})
}

// TestTermByHand: G on a two-row width-4 well from a hand-made table.
func TestTermByHand(t *testing.T) {
	tab := &Table{Format: TableFormat, TableInfo: TableInfo{Width: 4, Height: 4}, Alpha: 1,
		States: []StateRow{{Shape: "1110", Height: 0, B: 0.5}, {Shape: "1000", Height: 1, B: 0.25}},
		Shapes: []ShapeRow{{Shape: "1110", B: 0.4}, {Shape: "1000", B: 0.2}},
		Pairs:  []PairRow{{A: 0, B: 0b1000, N: 3, Hits: 3}, {A: 0b1000, B: 0b1110, N: 4, Hits: 1}},
	}
	term, err := NewTerm(tab, 2)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := hatetris.NewRules(4, 8, 4)
	var w hatetris.Well
	w[6], w[7] = 0b1000, 0b1110
	// Global mean 4/7. Open mask of (0, 1000) is 0111; of (1000, 1110) is
	// 0001. Each mask's smoothed share: (hits + 1*mean) / (n + 1), then
	// each pair's: (hits + 1*open) / (n + 1).
	mean := 4.0 / 7
	o1 := (3 + mean) / 4
	o2 := (1 + mean) / 5
	p1 := (3 + o1) / 4
	p2 := (1 + o2) / 5
	want := 2 * (0.25*p1 + 0.5*p1*p2)
	if got := term.NewWorker(r).Evaluate(&w, 0, 0); math.Abs(got-want) > 1e-6 {
		t.Fatalf("G = %g, want %g", got, want)
	}
	// A row below the surface's reach does not count: seal the well.
	w[5] = 0b1111 &^ 0b0001
	w[4] = 0b0001
	sealed := term.NewWorker(r).(*TermWorker).G(&w)
	w2 := hatetris.Well{}
	w2[4], w2[5] = w[4], w[5]
	if top := term.NewWorker(r).(*TermWorker).G(&w2); math.Abs(sealed-top) > 1e-6 {
		t.Fatalf("rows below the surface counted: %g vs %g", sealed, top)
	}
}

// TestSumWithHand: eval.Sum adds the term to the hand-made evaluation.
func TestSumWithHand(t *testing.T) {
	term, err := NewTerm(recordTable(t), -2.1413)
	if err != nil {
		t.Fatal(err)
	}
	hand := eval.NewHand(eval.DefaultWeights())
	sum := eval.Sum{Base: hand, Terms: []eval.Evaluator{term}}
	r := hatetris.Standard()
	hw, sw, tw := hand.NewWorker(r), sum.NewWorker(r), term.NewWorker(r)
	if _, ok := sw.(eval.ClearsWorker); !ok {
		t.Fatal("the sum hides the hand-made quiescence clears")
	}
	n := 0
	for _, g := range testRecords(t)[:3] {
		for _, s := range g.Steps {
			h, tv, sv := hw.Evaluate(&s.Before, s.Score, 0), tw.Evaluate(&s.Before, s.Score, 0), sw.Evaluate(&s.Before, s.Score, 0)
			if math.Abs(h+tv-sv) > 1e-9 {
				t.Fatalf("sum %g != hand %g + term %g", sv, h, tv)
			}
			if tv != 0 {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("the term is always 0")
	}
	if !strings.Contains(sum.Name(), "+flats:records") {
		t.Fatalf("name %q", sum.Name())
	}
}

// TestPlacebo: the placebo keeps each popcount class's values and changes
// their places; the seed decides.
func TestPlacebo(t *testing.T) {
	tab := recordTable(t)
	p := tab.Placebo(1)
	moved := 0
	class := func(tb *Table) map[int][]float64 {
		m := map[int][]float64{}
		for _, s := range tb.Shapes {
			v, _ := ParseShape(s.Shape, 10)
			m[bits.OnesCount16(v)] = append(m[bits.OnesCount16(v)], s.B)
		}
		for _, vs := range m {
			slices.Sort(vs)
		}
		return m
	}
	a, b := class(tab), class(p)
	for k := range a {
		if !slices.Equal(a[k], b[k]) {
			t.Fatalf("class %d values changed", k)
		}
	}
	for i := range tab.Shapes {
		if tab.Shapes[i].B != p.Shapes[i].B {
			moved++
		}
	}
	if moved == 0 || p.Provenance == tab.Provenance {
		t.Fatal("the placebo changed nothing")
	}
	q := tab.Placebo(1)
	for i := range q.States {
		if q.States[i].B != p.States[i].B {
			t.Fatal("the placebo is not reproducible")
		}
	}
}

// TestCompactStateRoundTrip: every state a Counts can hold (all heights
// below hatetris.MaxDepth, all shapes of MaxWidth cells, the sinks and
// Empty) survives compactState and expandState, in compactBits bits.
func TestCompactStateRoundTrip(t *testing.T) {
	check := func(s State) {
		k := compactState(s)
		if k >= 1<<compactBits || expandState(k) != s {
			t.Fatalf("%#x -> %#x -> %#x", uint32(s), k, uint32(expandState(k)))
		}
	}
	check(Empty)
	check(Cleared)
	check(Immortal)
	for h := 0; h < hatetris.MaxDepth; h++ {
		for sh := 1; sh < 1<<MaxWidth; sh++ {
			check(MakeState(uint16(sh), h))
		}
	}
	if k := edgeKey(Immortal, Cleared); k >= 1<<keyBits {
		t.Fatalf("edge key %#x has more than %d bits", k, keyBits)
	}
}
