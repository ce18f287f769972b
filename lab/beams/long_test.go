package beams

import (
	"strings"
	"testing"
)

func TestLongGames(t *testing.T) {
	tb, err := LongGames()
	if err != nil {
		t.Fatal(err)
	}
	txt := tb.Text()
	lines := strings.Split(strings.TrimSpace(txt), "\n")
	// A header, a rule, then one row a game, the longest (tuned-03's 113) first.
	if len(lines) < 4 || !strings.Contains(lines[2], "tuned-03") || !strings.Contains(lines[2], "113") {
		t.Fatalf("table:\n%s", txt)
	}
}
