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
	// A header, a rule, then one row a game, longest first: HS's 172 at
	// width 200,000 (CPU measured from level 272 on), the third
	// generation's residual hybrid's 167 at width 200,000 and 148 at
	// 100,000, the second's 136, tuned's 134 at 200,000, HS's 131 at
	// 100,000 (the third generation's network at 1/1.41421 of its
	// weight: datasets/weights/teacher-scale), the residual
	// hybrid's 123 at 200,000 (CPU measured from level 113 on), the 0.008
	// hybrid's 116 (from level 196 on), tuned-03's 113 at 100,000.
	want := [][]string{
		{"teacher/gen-03.hlnn+h:0.0024575:tuned", "200,000", "172", "1,953 (levels 272 on)"},
		{"teacher/gen-03.hlnn+h:0.0017377:tuned", "200,000", "167", "10,391"},
		{"teacher/gen-03.hlnn+h:0.0017377:tuned", "100,000", "148"},
		{"teacher/gen-02.hlnn+h:0.00176563:tuned", "100,000", "136"},
		{"tuned ", "200,000", "134"},
		{"teacher/gen-03.hlnn+h:0.0024575:tuned", "100,000", "131", "3,019"},
		{"teacher/gen-02.hlnn+h:0.00176563:tuned", "200,000", "123", "(levels 113 on)"},
		{"nnue+h:0.008:tuned", "116", "1,171 (levels 196 on)"},
		{"tuned-03", "100,000", "113"},
	}
	if len(lines) < 2+len(want) {
		t.Fatalf("table:\n%s", txt)
	}
	for i, parts := range want {
		for _, p := range parts {
			if !strings.Contains(lines[2+i], p) {
				t.Fatalf("row %d lacks %q; table:\n%s", i+1, p, txt)
			}
		}
	}
}
