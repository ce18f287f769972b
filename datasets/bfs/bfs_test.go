package bfs

import (
	"bytes"
	"strings"
	"testing"

	search "github.com/hatelab/hatelab/engine/bfs"
)

// TestEmbeddedTables checks that every summary row has its level file,
// which sums up to the row, and that the games load and replay to their
// recorded scores.
func TestEmbeddedTables(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 80 {
		t.Fatalf("%d summary rows, want the 83 committed ones", len(rows))
	}
	for _, r := range rows {
		b, err := LevelFile(r.Width, r.Height, r.Rule)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != strings.Join(search.LevelsHeader, ",") {
			t.Fatalf("%dx%d %s: header %q", r.Width, r.Height, r.Rule, lines[0])
		}
		if !r.Unbounded && len(lines)-1 < r.Length {
			t.Fatalf("%dx%d %s: %d levels for length %d", r.Width, r.Height, r.Rule, len(lines)-1, r.Length)
		}
	}
	// Each row is its level file summed up: states, peak and its level;
	// for a finished (bounded) search also the children, best score and
	// length. (An unbounded search stops when its levels repeat: the
	// children of its last level are counted, not written as a level.)
	for _, r := range rows {
		levels, err := Levels(r.Width, r.Height, r.Rule)
		if err != nil {
			t.Fatal(err)
		}
		var states, children int64
		peak, best, last := levels[0], 0, 0
		for _, l := range levels {
			states += l.States
			children += l.Children
			if l.States > peak.States {
				peak = l
			}
			best = max(best, l.BestScore)
			if l.States > 0 {
				last = l.Level
			}
		}
		if states != r.States || peak.States != r.PeakStates || peak.Level != r.PeakLevel {
			t.Errorf("%dx%d %s: levels sum to %d states, peak %d at %d; the row says %d, %d at %d",
				r.Width, r.Height, r.Rule, states, peak.States, peak.Level, r.States, r.PeakStates, r.PeakLevel)
		}
		if !r.Unbounded && (children != r.Children || best != r.Score || last != r.Length) {
			t.Errorf("%dx%d %s: levels give %d children, score %d, length %d; the row says %d, %d, %d",
				r.Width, r.Height, r.Rule, children, best, last, r.Children, r.Score, r.Length)
		}
	}
	if _, err := Levels(3, 3, search.RuleQntm); err == nil {
		t.Fatal("levels for 3x3 were found")
	}
	if _, err := LevelFile(3, 3, search.RuleQntm); err == nil {
		t.Fatal("a level file for 3x3 was found")
	}
	games, err := Games()
	if err != nil || len(games) == 0 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, gr := range games[:min(len(games), 10)] {
		if _, err := gr.Game(); err != nil {
			t.Fatal(err)
		}
	}
	// Every game is its row's witness: the longest game has the row's
	// length, the highest-scoring one its score (engine/bfs's
	// TestGamesDataset replays every game to these numbers).
	for _, gr := range games {
		var row *search.Row
		for i := range rows {
			if rows[i].Width == gr.Width && rows[i].Height == gr.Height && rows[i].Rule.String() == gr.Rule {
				row = &rows[i]
			}
		}
		switch {
		case row == nil:
			t.Errorf("%dx%d %s game: no row in summary.csv", gr.Width, gr.Height, gr.Rule)
		case gr.Target == "longest" && gr.Length != row.Length, gr.Target == "score" && gr.Score != row.Score:
			t.Errorf("%dx%d %s game: length %d, score %d; the row says %d, %d", gr.Width, gr.Height, gr.Target, gr.Length, gr.Score, row.Length, row.Score)
		case gr.Target != "longest" && gr.Target != "score":
			t.Errorf("%dx%d game: target %q", gr.Width, gr.Height, gr.Target)
		}
	}
	if b, _ := Files().(interface{ ReadFile(string) ([]byte, error) }).ReadFile("summary.csv"); !bytes.HasPrefix(b, []byte("width,height,rule,")) {
		t.Fatal("summary.csv does not start with its header")
	}
}
