package hatetris

import (
	"math/rand/v2"
	"testing"
)

// TestLoadTallStacks: load builds the nearly-full row masks in one word
// for stacks up to 16 rows and row by row above; on a 28-deep well,
// stacks of 12 to 22 rows take both paths, and the generator's outcomes
// and most lines cleared per piece must match the naive search's.
func TestLoadTallStacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{4, 10, 16} {
		r, err := NewRules(width, 28, 4)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGenerator(r)
		for h := 12; h <= 22; h++ {
			for trial := 0; trial < 4; trial++ {
				w := randomWell(rng, r, h)
				var most [NumPieces]int
				g.MaxClears(&w, &most)
				for p := Piece(0); p < NumPieces; p++ {
					naive := matchNaive(t, g, r, &w, p)
					lines := 0
					for i := range naive {
						if !naive[i].GameOver {
							lines = max(lines, naive[i].Lines)
						}
					}
					if most[p] != lines {
						t.Fatalf("%v height %d piece %v: most lines %d, naive %d\n%s", r, h, p, most[p], lines, r.Format(&w))
					}
				}
			}
		}
	}
}
