package bfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummaryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	var want []Row
	for _, o := range []Options{{Width: 5, Height: 6}, {Width: 4, Height: 4}, {Width: 10, Height: 3, Rule: RuleClearAboveBar}} {
		res, err := Search(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := AppendSummary(path, res, 2); err != nil {
			t.Fatal(err)
		}
		want = append(want, RowOf(res, 2))
	}
	got, err := ReadSummaryFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		w := want[i]
		w.Seconds = got[i].Seconds // rounded to ms in the file
		if got[i] != w {
			t.Errorf("row %d: %+v, want %+v", i, got[i], w)
		}
	}
	if got[1].Score != -1 || !got[1].Unbounded {
		t.Errorf("width 4 row: %+v", got[1])
	}
	if err := AppendSummary(path, &Result{Truncated: true}, 1); err == nil {
		t.Error("want an error for a truncated search")
	}
}

func FuzzReadSummary(f *testing.F) {
	f.Add(strings.Join(SummaryHeader, ",") + "\n5,6,qntm,4,10,543,4,false,1488,1601,0.033,13447168,2\n")
	f.Add("width\n1\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ReadSummary(strings.NewReader(s))
		if err == nil && rows == nil {
			t.Error("nil rows without an error")
		}
	})
}

// The committed rebuilt games replay to their recorded score and length.
func TestGamesDataset(t *testing.T) {
	f, err := os.Open("../../datasets/bfs/games.jsonl")
	if err != nil {
		t.Skip("no datasets/bfs/games.jsonl")
	}
	defer f.Close()
	gs, err := ReadGames(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, gr := range gs {
		if _, err := gr.Game(); err != nil {
			t.Errorf("%dx%d %s: %v", gr.Width, gr.Height, gr.Target, err)
		}
	}
	bad := gs[len(gs)-1]
	bad.Score++
	if _, err := bad.Game(); err == nil {
		t.Error("a wrong score verifies")
	}
}

// TestCommittedTables checks datasets/bfs: the anchors of the real game
// and of the old rule, and every summary row against its level file
// (totals, peak states and level, best score, length).
func TestCommittedTables(t *testing.T) {
	rows, err := ReadSummaryFile("../../datasets/bfs/summary.csv")
	if err != nil {
		t.Skip("no datasets/bfs/summary.csv")
	}
	type key struct {
		w, h int
		r    Rule
	}
	anchors := map[key][3]int64{
		{10, 2, RuleQntm}: {0, 4, 21}, {10, 3, RuleQntm}: {0, 6, 310}, {10, 4, RuleQntm}: {1, 11, 9094},
		{10, 5, RuleQntm}: {4, 19, 174585}, {10, 6, RuleQntm}: {8, 31, 4844154},
		{10, 4, RuleClearAboveBar}: {1, 11, 9095}, {10, 5, RuleClearAboveBar}: {4, 19, 174634},
		{10, 6, RuleClearAboveBar}: {8, 31, 4848325},
	}
	for _, r := range rows {
		if a, ok := anchors[key{r.Width, r.Height, r.Rule}]; ok {
			if int64(r.Score) != a[0] || int64(r.Length) != a[1] || r.PeakStates != a[2] {
				t.Errorf("%dx%d %s: (%d, %d, %d), want %v", r.Width, r.Height, r.Rule, r.Score, r.Length, r.PeakStates, a)
			}
			delete(anchors, key{r.Width, r.Height, r.Rule})
		}
		b, err := os.ReadFile(filepath.Join("../../datasets/bfs/levels", fmt.Sprintf("w%d-h%d-%s.csv", r.Width, r.Height, r.Rule)))
		if err != nil {
			t.Errorf("%dx%d %s: %v", r.Width, r.Height, r.Rule, err)
			continue
		}
		var states, children, maxW int64
		maxD, best, last := 0, -1, 0
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			var d, bs int
			var s, c int64
			if _, err := fmt.Sscanf(line, "%d,%d,%d,%d", &d, &s, &c, &bs); err != nil || d != i {
				t.Fatalf("%dx%d %s line %q: %v", r.Width, r.Height, r.Rule, line, err)
			}
			states, children, best, last = states+s, children+c, max(best, bs), d
			if s > maxW {
				maxW, maxD = s, d
			}
		}
		// A loop's last level (the first repeat) is expanded but its
		// children make no level of the file.
		if states != r.States || children != r.Children && !r.Unbounded || children > r.Children ||
			maxW != r.PeakStates || maxD != r.PeakLevel {
			t.Errorf("%dx%d %s: the level file gives states %d children %d peak %d states at level %d; the row %+v",
				r.Width, r.Height, r.Rule, states, children, maxW, maxD, r)
		}
		if !r.Unbounded && (best != r.Score || last != r.Length) {
			t.Errorf("%dx%d %s: the level file gives score %d length %d; the row %+v", r.Width, r.Height, r.Rule, best, last, r)
		}
	}
	if len(anchors) > 0 {
		t.Errorf("rows missing for the anchors %v", anchors)
	}
}
