package bfs

import (
	"bytes"
	"strings"
	"testing"

	search "github.com/hatelab/hatelab/engine/bfs"
)

// TestEmbeddedTables checks that every summary row has its level file,
// whose last level is the row's length, and that the games load and
// replay to their recorded scores.
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
	if b, _ := Files().(interface{ ReadFile(string) ([]byte, error) }).ReadFile("summary.csv"); !bytes.HasPrefix(b, []byte("width,height,rule,")) {
		t.Fatal("summary.csv does not start with its header")
	}
}
