package survival

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	classicdata "github.com/hatelab/hatelab/datasets/classic"
	"github.com/hatelab/hatelab/engine/classic"
)

const referencePath = "../../engine/classic/testdata/tetr_ai_reference.jsonl"

func TestCheckReference(t *testing.T) {
	rows, err := CheckReference(referencePath, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || rows[0].Rows != 5 || rows[5].Rows != 10 {
		t.Fatalf("rows %+v, want heights 5..10", rows)
	}
	for _, r := range rows {
		if r.Games != 4 || r.Same != 4 || r.Pieces <= 0 {
			t.Fatalf("%+v: want 4 identical games", r)
		}
	}
	// A game whose recorded lines are off by one must not count as identical.
	b, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0] // rows 5, seed 5000, lines 116
	bad := filepath.Join(t.TempDir(), "ref.jsonl")
	if err := os.WriteFile(bad, []byte(strings.Replace(first, `"lines": 116`, `"lines": 117`, 1)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err = CheckReference(bad, 4)
	if err != nil || len(rows) != 1 || rows[0].Games != 1 || rows[0].Same != 0 {
		t.Fatalf("tampered file: %+v %v", rows, err)
	}
	if _, err := CheckReference(filepath.Join(t.TempDir(), "missing"), 4); err == nil {
		t.Fatal("a missing file gave no error")
	}
}

func TestReplayDataset(t *testing.T) {
	recs, err := classicdata.TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	n, err := ReplayDataset(recs, 6, 5)
	if err != nil || n != 10 {
		t.Fatalf("%d games, %v; want 10", n, err)
	}
	recs = append([]classic.Result(nil), recs...)
	for i := range recs {
		if recs[i].Rows == 6 && recs[i].Seed == 6002 {
			recs[i].Lines++
		}
	}
	if _, err := ReplayDataset(recs, 6, 5); err == nil || !strings.Contains(err.Error(), "seed 6002") {
		t.Fatalf("a changed record gave %v, want an error naming seed 6002", err)
	}
}

func TestExtrapolationAndTails(t *testing.T) {
	readme, err := classic.FitLogQuadratic(PublishedMeans())
	if err != nil {
		t.Fatal(err)
	}
	recs, err := classicdata.TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	own, err := classic.FitLogQuadratic(Means(classic.Summarize(recs)))
	if err != nil {
		t.Fatal(err)
	}
	txt := ExtrapolationTable(readme, own, 16, 20).Text()
	for _, want := range []string{"269.6M measured (200 seeds; 95% CI 228.5M .. 310.6M)", "273.5M"} {
		if !strings.Contains(txt, want) {
			t.Fatalf("table lacks %q:\n%s", want, txt)
		}
	}
	s := TailSeries(recs, []int{6, 8})
	if len(s) != 3 || s[0].Name != "height 6" || len(s[0].X) != 1000 || s[2].Name != "exponential e^(-x)" {
		t.Fatalf("series %d, first %q with %d points", len(s), s[0].Name, len(s[0].X))
	}
	// The first point is every game (fraction 1, log 0); x grows.
	if s[0].Y[0] != 0 || s[0].X[999] <= s[0].X[0] || math.Abs(s[2].Y[60]+6/math.Ln10) > 1e-12 {
		t.Fatalf("tail series: %v %v %v", s[0].Y[0], s[0].X[999], s[2].Y[60])
	}
}

func TestHeight20MatchesREADME(t *testing.T) {
	s := Height20()
	if s.N != 200 || math.Abs(s.Mean-269583731.13) > 0.01 || s.Median != 188408315 {
		t.Fatalf("height 20: n %d mean %.2f median %.1f, want 200, 269583731.13, 188408315 (tetr-ai README)", s.N, s.Mean, s.Median)
	}
	if s.CILo < 228e6 || s.CILo > 229e6 || s.CIHi < 310e6 || s.CIHi > 311e6 {
		t.Errorf("95%% CI %.0f..%.0f, want about 228.5M..310.6M", s.CILo, s.CIHi)
	}
}

func TestSanityCheck(t *testing.T) {
	recs, err := classicdata.Agents()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := SanityCheck(classic.Summarize(recs), References)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(References) {
		t.Fatalf("%d rows, want %d", len(rows), len(References))
	}
	// BCTS's extrapolations land on the published figures (0.92M against
	// 1M at height 16, 36.4M against 35M at height 20).
	for _, i := range []int{0, 1} {
		if !strings.HasPrefix(rows[i].Fit, "920") && !strings.HasPrefix(rows[i].Fit, "36.") {
			t.Errorf("bcts at %d: fit %s, want 920.6k or 36.4M", rows[i].Rows, rows[i].Fit)
		}
	}
	if _, err := SanityCheck(nil, References); err == nil {
		t.Error("no stats: no error")
	}
}

func TestLines(t *testing.T) {
	xs, err := Lines(classic.TetrAI{}, 6, 6000, 3)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := classicdata.TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range xs {
		for _, r := range recs {
			if r.Rows == 6 && r.Seed == int64(6000+i) && float64(r.Lines) != want {
				t.Fatalf("seed %d: %v lines, dataset %d", 6000+i, want, r.Lines)
			}
		}
	}
	if _, err := Lines(classic.TetrAI{}, 2, 0, 1); err == nil {
		t.Fatal("a 2-row board gave no error")
	}
}
