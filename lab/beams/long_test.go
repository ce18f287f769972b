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
	// A header, a rule, then one row a game, the longest (the residual
	// hybrid's 136 at width 100,000) first, then its 123 at 200,000 (CPU
	// measured from level 113 on), the 0.008 hybrid's 116 (from level 196
	// on) and tuned-03's 113.
	if len(lines) < 7 || !strings.Contains(lines[2], "teacher/gen-02.hlnn+h:0.00176563:tuned") || !strings.Contains(lines[2], "136") ||
		!strings.Contains(lines[3], "teacher/gen-02.hlnn+h:0.00176563:tuned") || !strings.Contains(lines[3], "200,000") ||
		!strings.Contains(lines[3], "123") || !strings.Contains(lines[3], "(levels 113 on)") ||
		!strings.Contains(lines[4], "nnue+h:0.008:tuned") || !strings.Contains(lines[4], "116") ||
		!strings.Contains(lines[4], "1,171 (levels 196 on)") || !strings.Contains(lines[5], "tuned-03") || !strings.Contains(lines[5], "113") {
		t.Fatalf("table:\n%s", txt)
	}
}
