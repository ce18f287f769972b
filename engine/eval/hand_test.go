package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// well draws the bottom rows of a 10x20 well ('#' filled), top first.
func well(t testing.TB, rows ...string) hatetris.Well {
	t.Helper()
	r := hatetris.Standard()
	var w hatetris.Well
	y0 := r.Depth - len(rows)
	for i, s := range rows {
		if len(s) != r.Width {
			t.Fatalf("row %q", s)
		}
		for x, c := range s {
			if c == '#' {
				w[y0+i] |= r.Bit(x)
			}
		}
	}
	return w
}

func TestFeatures(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want Features
	}{
		{"empty", nil, Features{}},
		{"flat row, one gap", []string{"#########."},
			Features{StackHeight: 1, SurfaceColumns: 9, Erasability: 5, Clears: [7]int{1, 0, 0, 1, 1, 1, 1}}},
		{"covered hole, open at the side", []string{
			"##........",
			"#.........",
		}, Features{Holes: 1, StackHeight: 2, SurfaceColumns: 2}},
		{"covered hole, sealed", []string{
			"###.......",
			"#.#.......",
		}, Features{Holes: 1, EnclosedHoles: 1, EnclosedHoleLines: 1, StackHeight: 2, SurfaceColumns: 6}},
		{"overhang reachable from the side", []string{
			"###.......",
			"..........",
		}, Features{Holes: 3, StackHeight: 2}},
		{"sealed floor", []string{
			"##########",
			".#.#######",
		}, Features{SurfaceHeight: 2, StackHeight: 2, SurfaceColumns: 20}},
		{"two enclosed holes on one line", []string{
			"##########",
			".####.####",
			"#.##.#####",
		}, Features{SurfaceHeight: 3, StackHeight: 3, SurfaceColumns: 30}},
		{"enclosed holes on two lines above the surface floor", []string{
			"###.......",
			"#.#.......",
			"###.......",
			".#........",
		}, Features{Holes: 3, EnclosedHoles: 2, EnclosedHoleLines: 2, StackHeight: 4, SurfaceColumns: 8}},
	}
	g := NewHand(DefaultWeights()).NewHandWorker(hatetris.Standard())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := well(t, c.rows...)
			got := g.Features(&w)
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestValue(t *testing.T) {
	wt := DefaultWeights()
	f := Features{Holes: 1, EnclosedHoles: 2, EnclosedHoleLines: 1, SurfaceHeight: 3, Erasability: 4}
	got := wt.Value(&f, 5, 2)
	want := -(11.2106*1 + 83.7646*2 + 83.7646*1 - 83.7646*3 - 83.7646*4 - 332.2211*(5+0.5*2))
	if math.Abs(got-want) > 1e-9 {
		t.Fatalf("value %v, want %v", got, want)
	}
	// More score is better, an enclosed hole is worse.
	g := NewHand(wt).NewWorker(hatetris.Standard())
	a := well(t, "#########.")
	b := well(t, "##........", "#.........")
	if g.Evaluate(&a, 1, 0) <= g.Evaluate(&a, 0, 0) || g.Evaluate(&b, 0, 0) >= g.Evaluate(&a, 0, 0) {
		t.Fatal("ordering")
	}
}

func TestWeightsFile(t *testing.T) {
	// The defaults are D&F's published values (the dataset file is their
	// one source; this checks it was decoded as written).
	def := DefaultWeights()
	want := Weights{Name: "dnf86", Provenance: def.Provenance, Holes: 11.2106, EnclosedHoles: 83.7646,
		EnclosedHoleLines: 83.7646, SurfaceHeight: -83.7646, Erasability: -83.7646, Score: -332.2211, FutureFactor: 0.5}
	if def != want || !strings.Contains(def.Provenance, "hallofdreams") {
		t.Fatalf("default weights %+v, want %+v", def, want)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "w.json")
	if err := os.WriteFile(p, []byte(`{"holes": 1, "score": -2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := ByName("hand", p)
	if err != nil || !strings.Contains(ev.Name(), "custom") {
		t.Fatalf("%v %v", ev, err)
	}
	for _, bad := range []string{`{"holes": "x"}`, `{"hole": 1}`, `[`} {
		if _, err := ParseWeights([]byte(bad)); err == nil {
			t.Fatalf("accepted %s", bad)
		}
	}
	if _, err := ByName("nnue", ""); err == nil {
		t.Fatal("accepted nnue")
	}
}

func FuzzParseWeights(f *testing.F) {
	f.Add([]byte(`{"name":"a","holes":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := ParseWeights(b)
		if err == nil && w.Name == "" {
			t.Fatal("empty name")
		}
	})
}

func BenchmarkHandEvaluate(b *testing.B) {
	w := well(b, "####.#####", "###..#####", "##.#######", "#########.")
	g := NewHand(DefaultWeights()).NewWorker(hatetris.Standard())
	b.ReportAllocs()
	for b.Loop() {
		g.Evaluate(&w, 3, 0)
	}
}
