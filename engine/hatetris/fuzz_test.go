package hatetris

import (
	"strings"
	"testing"
)

// FuzzParseWellString: the well parser never panics, and what it accepts
// round-trips through Rows.
func FuzzParseWellString(f *testing.F) {
	f.Add(10, "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,775")
	f.Add(4, "0,0,0,0,0,0,8,15")
	f.Add(5, "1,2,x")
	f.Add(16, "-1")
	f.Fuzz(func(t *testing.T, width int, s string) {
		depth := strings.Count(s, ",") + 1
		r, err := NewRules(width, depth, 4)
		if err != nil {
			return
		}
		w, err := r.ParseWellString(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		back, err := r.ParseWell(r.Rows(&w))
		if err != nil || back != w {
			t.Fatalf("round trip failed: %v", err)
		}
		// Any accepted well can be played on without panicking.
		if !r.IsOver(&w) {
			g := NewGenerator(r)
			for p := Piece(0); p < NumPieces; p++ {
				fast := g.Outcomes(&w, p, nil)
				SortOutcomes(r, fast)
				naive := r.NaiveOutcomes(&w, p)
				SortOutcomes(r, naive)
				if len(fast) != len(naive) {
					t.Fatalf("piece %v: %d results, naive %d", p, len(fast), len(naive))
				}
				for i := range fast {
					if !sameOutcome(&fast[i], &naive[i]) {
						t.Fatalf("piece %v result %d differs from the naive search", p, i)
					}
				}
			}
		}
	})
}
