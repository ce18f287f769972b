package eval

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/weights"
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
	if _, err := ByName("nnue", ""); err == nil {
		t.Fatal("accepted nnue")
	}
}

// TestParseWeightsErrors checks that malformed, empty and absurd weights
// are refused with one short line naming the problem.
func TestParseWeightsErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `[`, "want a JSON object"},
		{"empty", ``, "want a JSON object {...}, got \"\""},
		{"null", `null`, "want a JSON object {...}, got \"null\""},
		{"array", `[1, 2]`, "want a JSON object"},
		{"number", `  42 `, "want a JSON object"},
		{"empty object", `{}`, "no weight is set"},
		{"name only", `{"name": "x"}`, "no weight is set"},
		{"future factor only", `{"future_factor": 0.5}`, "no weight is set"},
		{"all zero", `{"holes": 0, "score": 0}`, "no weight is set"},
		{"wrong type", `{"holes": "x"}`, "cannot unmarshal string"},
		{"unknown field", `{"hole": 1}`, `unknown field "hole"`},
		{"trailing garbage", `{"holes": 1} x`, "trailing data after the JSON object"},
		{"two objects", `{"holes": 1}{"holes": 2}`, "trailing data after the JSON object"},
		{"trailing brace", `{"holes": 1}}`, "trailing data after the JSON object"},
		{"unterminated", `{"holes": 1`, "unexpected EOF"},
		{"1e308", `{"holes": 1e308}`, "holes is 1e+308, beyond ±1e+06"},
		{"-1e308", `{"score": -1e308}`, "score is -1e+308, beyond ±1e+06"},
		{"just too big", `{"holes": 1, "erasability": 1000000.5}`, "erasability is 1.0000005e+06"},
		{"absurd future factor", `{"holes": 1, "future_factor": 1e300}`, "future_factor is 1e+300"},
		{"overflowing number", `{"holes": 1e400}`, "cannot unmarshal number 1e400"},
		{"long name", `{"name": "` + strings.Repeat("n", 65) + `", "holes": 1}`, "longer than 64 bytes"},
		{"control character in name", `{"name": "a\nb", "holes": 1}`, "control characters"},
		{"long provenance", `{"provenance": "` + strings.Repeat("p", 5000) + `", "holes": 1}`, "provenance is longer than 4096 bytes"},
		{"huge unknown field", `{"` + strings.Repeat("k", 100000) + `": 1}`, "unknown field"},
		{"huge number", `{"holes": 1` + strings.Repeat("0", 100000) + `}`, "cannot unmarshal number"},
		{"huge garbage", strings.Repeat("x", 100000), "want a JSON object"},
		{"too large", `{"holes": 1}` + strings.Repeat(" ", MaxWeightsFile), "larger than 1024 KiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := ParseWeights([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseWeights = %+v, %v; want an error containing %q", w, err, tc.want)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 300 || !strings.HasPrefix(msg, "weights: ") {
				t.Fatalf("error is not one short line: %q", msg)
			}
		})
	}
}

// TestLoadWeightsErrors checks the file reader: its cap (/dev/zero never
// ends) and that errors name the file.
func TestLoadWeightsErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"holes": 1}`+strings.Repeat(" ", MaxWeightsFile)), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"holes": 1e308}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{big, "weights " + big + " is 1048588 bytes, more than the 1048576 bytes a weights file may be"},
		{bad, "weights " + bad + ": holes is 1e+308"},
		{filepath.Join(dir, "nope.json"), "no such file"},
		{"/dev/zero", "is not a regular file"},
	}
	for _, tc := range tests {
		if _, err := os.Stat(tc.path); tc.path == "/dev/zero" && err != nil {
			continue
		}
		if _, err := LoadWeights(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadWeights(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	// The dataset file itself loads.
	w, err := LoadWeights("../../datasets/weights/dnf86.json")
	if err != nil || w != DefaultWeights() {
		t.Fatalf("dnf86.json: %+v %v", w, err)
	}
}

// fuzzWells are wells with many holes, a high stack and clears, for
// FuzzParseWeights.
var fuzzWells = [][]string{
	nil,
	{"#########."},
	{"###.......", "#.#.......", "###.......", ".#........"},
	{"#.#.#.#.#.", ".#.#.#.#.#", "#.#.#.#.#.", ".#.#.#.#.#", "#.#.#.#.#.", ".#.#.#.#.#",
		"#.#.#.#.#.", ".#.#.#.#.#", "#.#.#.#.#.", ".#.#.#.#.#", "#.#.#.#.#.", ".#.#.#.#.#",
		"#.#.#.#.#.", ".#.#.#.#.#", "#.#.#.#.#.", ".#.#.#.#.#"},
}

func FuzzParseWeights(f *testing.F) {
	f.Add([]byte(`{"name":"a","holes":1}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"holes": 1} x`))
	f.Add([]byte(`{"holes": 1e6, "score": -1e6, "future_factor": -1e6, "surface_columns": 999999}`))
	f.Add([]byte(`{"holes": 1e308}`))
	f.Add([]byte(`{"row_transitions": 1e6, "column_transitions": -1e6, "cumulative_wells": 1e6, "hole_depth": -1e6, "rows_with_holes": 1e6, "bumpiness": 1e6}`))
	f.Add([]byte(`{"edge_heights": 1e6, "s_surface_height": -1e6, "score": 1e6}`))
	f.Add(weights.DNF86)
	r := hatetris.Standard()
	wells := make([]hatetris.Well, len(fuzzWells))
	for i, rows := range fuzzWells {
		wells[i] = well(f, rows...)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := ParseWeights(b)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 400 {
				t.Fatalf("error is not one short line: %q", msg)
			}
			return
		}
		if w.Name == "" {
			t.Fatal("empty name")
		}
		hw := NewHand(w).NewHandWorker(r)
		for i := range wells {
			for _, score := range []int{0, 1, 1000, 1 << 40} {
				for _, future := range []int{0, 3} {
					if v := hw.Evaluate(&wells[i], score, future); math.IsInf(v, 0) || math.IsNaN(v) {
						t.Fatalf("weights %+v: value %v for well %d, score %d, future %d", w, v, i, score, future)
					}
				}
			}
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

// BenchmarkHandEvaluateTuned: BenchmarkHandEvaluate's well valued by
// tuned-03 (which reads neither the clears nor the 1x1 block's flood:
// TestClearsSkipped), and its Features (everything computed): about the
// cost the worker had before it skipped them (less the weighted sum).
func BenchmarkHandEvaluateTuned(b *testing.B) {
	w := well(b, "####.#####", "###..#####", "##.#######", "#########.")
	g := NewHand(TunedWeights()).NewHandWorker(hatetris.Standard())
	b.Run("evaluate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g.Evaluate(&w, 3, 0)
		}
	})
	b.Run("features", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g.Features(&w)
		}
	})
}

// TestSZRules checks knewjade's S/Z refinements on hand-made 6-wide
// wells (rows top first; the top four are above the bar).
func TestSZRules(t *testing.T) {
	r, err := hatetris.NewRules(6, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	well := func(rows ...uint16) hatetris.Well {
		var w hatetris.Well
		copy(w[r.Depth-len(rows):], rows)
		return w
	}
	// The hole at column 2 of the floor row lies under row 8's cell; an S
	// standing in columns 4-5 clears row 8 and the 1x1 block then reaches
	// the hole: it is freed.
	freed := well(0b111100, 0b110110)
	// Here the S or Z clear of row 8 leaves the floor's holes covered (and
	// makes the floor row unreachable, which is not freeing them).
	buried := well(0b101000, 0b111100, 0b010100)
	for _, tc := range []struct {
		name string
		w    hatetris.Well
		wt   Weights
		want float64
	}{
		{"freed hole, plain", freed, Weights{Holes: 1}, -1},
		{"freed hole, sz-holes", freed, Weights{Holes: 1, SZHoles: true}, 0},
		{"buried holes, plain", buried, Weights{Holes: 1}, -2},
		{"buried holes, sz-holes", buried, Weights{Holes: 1, SZHoles: true}, -2},
		// Lines reward 1 each, a chain's at half weight: the S clear of
		// row 8 is worth half a line under the two-well rule.
		{"two wells, plain", freed, Weights{Score: -1, FutureFactor: 0.5}, 0},
		{"two wells", freed, Weights{Score: -1, FutureFactor: 0.5, SZTwoWell: true}, 0.5},
		{"two wells at score 3", freed, Weights{Score: -1, FutureFactor: 0.5, SZTwoWell: true}, 3.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			score := 0
			if strings.Contains(tc.name, "score 3") {
				score = 3
			}
			hw := NewHand(tc.wt).NewHandWorker(r)
			if got := hw.Evaluate(&tc.w, score, 0); got != tc.want {
				t.Fatalf("value %g, want %g", got, tc.want)
			}
			// The S/Z rules read the clears; without them the worker
			// does not compute them and reports -1.
			wantS := -1
			if tc.wt.SZHoles || tc.wt.SZTwoWell {
				wantS = 1 // an S clears row 8 in both wells
			}
			var clears [hatetris.NumPieces]int
			if got := hw.EvaluateClears(&tc.w, score, 0, &clears); got != tc.want || clears[hatetris.S] != wantS {
				t.Fatalf("EvaluateClears %g (S clears %d), want %g (S clears %d)", got, clears[hatetris.S], tc.want, wantS)
			}
		})
	}
	if n := NewHand(Weights{Holes: 1, SZHoles: true, SZTwoWell: true}).Name(); !strings.Contains(n, "sz-holes sz-two-well") {
		t.Fatalf("name %q does not say its rules", n)
	}
	if n := NewHand(DefaultWeights()).Name(); strings.Contains(n, "sz") {
		t.Fatalf("the default's name changed: %q", n)
	}
}

// TestValueMatchesTerms: Weights.Value, which writes the weighted sum out
// for speed, equals the sum over the table WeightTerms (every term with a
// Feature, then the lines), for every term alone and for all of them, on
// the wells of TestFeatures' kind; a term added to the table but not to
// Value fails here.
func TestValueMatchesTerms(t *testing.T) {
	wells := []hatetris.Well{
		well(t),
		well(t, "#########."),
		well(t, "###.......", "#.#......."),
		well(t, "##########", ".####.####", "#.##.#####"),
		well(t, "###.......", "#.#.......", "###.......", ".#........"),
	}
	bySum := func(w *Weights, f *Features, score, future int) float64 {
		cost := w.Score * (float64(score) + w.FutureFactor*float64(future))
		for _, t := range WeightTerms {
			if t.Feature != nil {
				cost += *t.Of(w) * float64(t.Feature(f))
			}
		}
		return -cost
	}
	var all Weights
	for i, term := range WeightTerms {
		*term.Of(&all) = float64(i+1) * 1.5
		var one Weights
		*term.Of(&one) = 2.25
		g := NewHand(one).NewHandWorker(hatetris.Standard())
		for _, w := range wells {
			f := g.Features(&w)
			if got, want := one.Value(&f, 3, 2), bySum(&one, &f, 3, 2); got != want {
				t.Fatalf("%s alone: Value %v, the table's sum %v", term.Name, got, want)
			}
			// The worker computes only what its weights read
			// (clearsWeighed, surfaceWeighed): each term alone must
			// still be computed.
			var clears [hatetris.NumPieces]int
			if got, want := g.Evaluate(&w, 3, 2), one.Value(&f, 3, 2); got != want {
				t.Fatalf("%s alone: Evaluate %v, Value of the full features %v", term.Name, got, want)
			}
			if got, want := g.EvaluateClears(&w, 3, 2, &clears), one.Value(&f, 3, 2); got != want {
				t.Fatalf("%s alone: EvaluateClears %v, Value of the full features %v", term.Name, got, want)
			}
		}
	}
	g := NewHand(all).NewHandWorker(hatetris.Standard())
	for _, w := range wells {
		f := g.Features(&w)
		if got, want := all.Value(&f, 4, 1), bySum(&all, &f, 4, 1); math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Fatalf("all terms: Value %v, the table's sum %v", got, want)
		}
	}
}

// TestHandName: Name is written from the tables (WeightTerms, then the
// labelled terms that are set, then WeightRules), and keeps the names of
// the committed evaluations (datasets/arena's files carry them).
func TestHandName(t *testing.T) {
	w := DefaultWeights()
	cols := w
	cols.SurfaceColumns = 2
	rules := w
	rules.SZHoles, rules.SZTwoWell = true, true
	tim := w
	tim.EdgeHeights, tim.SSurfaceHeight = 1, -2
	for _, c := range []struct {
		w    Weights
		want string
	}{
		{w, "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5]"},
		{ScoreOnly(w), "hand:dnf86-score-only[0 0 0 0 0 0 -332.2211 0.5]"},
		{cols, "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5 columns 2]"},
		{rules, "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5 sz-holes sz-two-well]"},
		{tim, "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5 edge-heights 1 s-surface -2]"},
	} {
		if got := NewHand(c.w).Name(); got != c.want {
			t.Errorf("Name %q, want %q", got, c.want)
		}
	}
}

// TestClearsSkipped: weights that read no clears (tuned-03's, no
// Erasability, no S/Z rule) give the values of the full features and
// report -1 clears; weights that read them (D&F's) report the clears of
// Features. Seeded random wells of several densities.
func TestClearsSkipped(t *testing.T) {
	r := hatetris.Standard()
	rng := rand.New(rand.NewPCG(44, 1))
	for _, c := range []struct {
		name  string
		w     Weights
		reads bool
	}{
		{"tuned", TunedWeights(), false},
		{"hand", DefaultWeights(), true},
		{"tuned+erasability", func() Weights { w := TunedWeights(); w.Erasability = 1; return w }(), true},
		{"tuned+sz-two-well", func() Weights { w := TunedWeights(); w.SZTwoWell = true; return w }(), true},
		// The flood's terms weighed, the clears not.
		{"hand-erasability", func() Weights { w := DefaultWeights(); w.Erasability = 0; return w }(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			hw := NewHand(c.w).NewHandWorker(r)
			for i := range 300 {
				w := randomWell(rng, r, false)
				f := hw.Features(&w)
				want := hw.value(&w, &f, 3, 1)
				var clears [hatetris.NumPieces]int
				got := hw.EvaluateClears(&w, 3, 1, &clears)
				wantClears := [hatetris.NumPieces]int{-1, -1, -1, -1, -1, -1, -1}
				if c.reads {
					wantClears = f.Clears
				}
				if got != want || hw.Evaluate(&w, 3, 1) != want || clears != wantClears {
					t.Fatalf("well %d (%x): EvaluateClears %v %v, Evaluate %v, want %v %v",
						i, w[:r.Depth], got, clears, hw.Evaluate(&w, 3, 1), want, wantClears)
				}
			}
		})
	}
}

// randomWell is a seeded random well of r: rows from a random top down to
// the floor, each cell filled with one random density; a full row loses a
// random cell and, with contiguous, an empty row gains one (a stack
// contiguous from the floor: the generator's fast path).
func randomWell(rng *rand.Rand, r *hatetris.Rules, contiguous bool) hatetris.Well {
	var w hatetris.Well
	density := rng.Float64()
	for y := rng.IntN(r.Depth + 1); y < r.Depth; y++ {
		for x := 0; x < r.Width; x++ {
			if rng.Float64() < density {
				w[y] |= r.Bit(x)
			}
		}
		if w[y] == r.FullRow() || contiguous && w[y] == 0 {
			w[y] ^= r.Bit(rng.IntN(r.Width))
		}
	}
	return w
}
