package bfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummaryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	var want []Row
	for _, o := range []Options{{Width: 5, Height: 6}, {Width: 4, Height: 4}, {Width: 10, Height: 3, Rule: RuleClearAboveBar}} {
		res, err := Search(o)
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
