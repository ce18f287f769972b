package smallwells

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/lab/fits"
)

// TestAnchorsAgainstTables checks every anchor against the committed
// tables (all of them are there) and CheckAnchor both ways.
func TestAnchorsAgainstTables(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range Anchors {
		found := false
		for _, r := range rows {
			if r.Width == a.Width && r.Height == a.Height && r.Rule == a.Rule {
				found = true
				res := &bfs.Result{Width: r.Width, Height: r.Height, Rule: r.Rule, Score: r.Score, Length: r.Length, PeakStates: r.PeakStates}
				if s, err := CheckAnchor(res); s != "matches" || err != nil {
					t.Errorf("%dx%d %v: %s %v", a.Width, a.Height, a.Rule, s, err)
				}
				res.PeakStates++
				if s, err := CheckAnchor(res); s != "DIFFERS" || err == nil {
					t.Errorf("%dx%d %v with a wrong peak: %s %v", a.Width, a.Height, a.Rule, s, err)
				}
			}
		}
		switch {
		case found:
		case a.Rule == bfs.RuleClearAboveBar && a.Width == 10 && a.Height == 7:
			// 2 minutes and 6 GB: checked live by notebook 02 in full mode.
		case a.Rule == bfs.RuleClearAboveBar && a.Width == 6:
			// The old rule's width-6 table is not in datasets/bfs: search it.
			r, err := Search(a.Width, a.Height, a.Rule)
			if err != nil {
				t.Fatal(err)
			}
			if s, err := CheckAnchor(r); s != "matches" || err != nil {
				t.Errorf("%dx%d %v, live: %s %v", a.Width, a.Height, a.Rule, s, err)
			}
		default:
			t.Errorf("anchor %dx%d %v has no row in the tables", a.Width, a.Height, a.Rule)
		}
	}
	if s, err := CheckAnchor(&bfs.Result{Width: 9, Height: 3}); s != "(no anchor)" || err != nil {
		t.Errorf("9x3: %s %v", s, err)
	}
	h, y := Column(rows, 5, bfs.RuleQntm, "score")
	if len(h) < 10 || len(h) != len(y) {
		t.Fatalf("width 5 column: %d heights, %d values", len(h), len(y))
	}
}

func TestFitsByWidth(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	fs := FitsByWidth(rows, 5, 10, 3, 4)
	if len(fs) < 12 {
		t.Fatalf("%d fits", len(fs))
	}
	seen := map[string]bool{}
	for _, f := range fs {
		seen[f.Label+" "+f.Model] = true
	}
	for _, want := range []string{"length, width 5 quadratic", "peak, width 10 log-linear", "score, width 6 quadratic"} {
		if !seen[want] {
			t.Errorf("no fit %q among %v", want, seen)
		}
	}
	// Every width has a score of 0 at height 3: no log-quadratic of score.
	for w := 5; w <= 10; w++ {
		if k := fmt.Sprintf("score, width %d log-quadratic", w); seen[k] {
			t.Errorf("%s fitted on a column with a 0", k)
		}
	}
	if len(FitsByWidth(rows, 5, 5, 3, 1000)) != 0 {
		t.Error("fits with fewer points than asked for")
	}
}

func TestWidthFits(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	fs, skipped := WidthFits(rows, 10)
	if len(fs) != 6 || fs[2] == nil || fs[2].Model != "quadratic" || fs[2].Label != "length" || fs[4].Label != "peak states" {
		t.Fatalf("fits %v", fs)
	}
	// Width 10's first scores are 0: no log fit of the score without dropping them.
	for _, f := range fs {
		if f == nil && len(skipped) == 0 {
			t.Fatal("a nil fit without a reason")
		}
	}
	if n := len(fits.NonNil(fs...)); n != 6-countNil(fs) {
		t.Fatalf("NonNil kept %d", n)
	}
}

func countNil(fs []*fits.Model) int {
	n := 0
	for _, f := range fs {
		if f == nil {
			n++
		}
	}
	return n
}

// TestExtrapolationShift: at width 10 the table compares the fits without
// and with the tallest height, one row per model that both can fit, and
// the observed column is the tallest row's; a width without searches is
// an error.
func TestExtrapolationShift(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	H := Tallest(rows, 10)
	if H < 7 {
		t.Fatalf("tallest width-10 height %d", H)
	}
	tab, err := ExtrapolationShift(rows, 10, 16)
	if err != nil {
		t.Fatal(err)
	}
	text := tab.String()
	fb, _ := WidthFits(rows, 10)
	want := 0
	for _, f := range fb {
		if f != nil {
			want++
		}
	}
	if got := strings.Count(text, "\n") - 2; got != want { // header and rule lines
		t.Errorf("%d rows, want %d:\n%s", got, want, text)
	}
	var score int
	for _, r := range rows {
		if r.Width == 10 && r.Height == H && r.Rule == bfs.RuleQntm {
			score = r.Score
		}
	}
	if !strings.Contains(text, fmt.Sprintf("fitted on heights ≤ %d", H-1)) || !strings.Contains(text, fmt.Sprint(score)) {
		t.Errorf("table lacks the heights or the observed score %d:\n%s", score, text)
	}
	if _, err := ExtrapolationShift(rows, 3, 16); err == nil {
		t.Error("width 3: no error")
	}
}
