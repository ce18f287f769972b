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
	// A header, a rule, then one row a game, the longest (the hybrid's 116,
	// whose CPU was measured from level 196 on) first, then tuned-03's 113.
	if len(lines) < 5 || !strings.Contains(lines[2], "nnue+h:0.008:tuned") || !strings.Contains(lines[2], "116") ||
		!strings.Contains(lines[2], "1,171 (levels 196 on)") || !strings.Contains(lines[3], "tuned-03") || !strings.Contains(lines[3], "113") {
		t.Fatalf("table:\n%s", txt)
	}
}
