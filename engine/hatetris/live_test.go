package hatetris

import (
	"math/rand/v2"
	"testing"
)

// TestLiveMovesMatchesMove checks that LiveMoves gives exactly Move's
// outcomes without the game-ending ones, for both rules, on real wells
// (placements) and on wells with gaps in the stack (the slow path).
func TestLiveMovesMatchesMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, above := range []bool{false, true} {
		plainSeen, fullSeen := 0, 0
		for width := MinWidth; width <= 12; width++ {
			for _, depth := range []int{6, 8, 11} {
				r, err := newRules(rulesKey{width, depth, 4, above})
				if err != nil {
					t.Fatal(err)
				}
				g := NewGenerator(r)
				for trial := 0; trial < 80; trial++ {
					w := randomWell(rng, r, rng.IntN(depth-3)+1)
					if trial%5 == 4 {
						w[r.Depth-1-rng.IntN(2)] = 0 // not contiguous
					}
					want := []Outcome{}
					p, all := g.Move(&w, Mild, nil, nil)
					for _, res := range all {
						if !res.GameOver {
							want = append(want, res)
						}
					}
					lp, plain, full := g.LiveMoves(&w, Mild, nil, nil, nil)
					if lp != p {
						t.Fatalf("%v: LiveMoves sends %v, Move %v", r, lp, p)
					}
					got := append([]Outcome(nil), full...)
					for _, pl := range plain {
						res := Outcome{Well: w}
						for i, c := range pl.Cells {
							if c != 0 {
								res.Well[pl.Y+i] |= c
							}
						}
						got = append(got, res)
					}
					plainSeen += len(plain)
					fullSeen += len(full)
					SortOutcomes(r, got)
					SortOutcomes(r, want)
					if len(got) != len(want) {
						t.Fatalf("%v piece %v: %d live outcomes, Move %d\n%s", r, p, len(got), len(want), r.Format(&w))
					}
					for i := range got {
						if !sameOutcome(&got[i], &want[i]) {
							t.Fatalf("%v piece %v: outcome %d differs\n%s", r, p, i, r.Format(&w))
						}
					}
				}
			}
		}
		if plainSeen == 0 || fullSeen == 0 {
			t.Fatalf("clear above bar %v: %d placements and %d full outcomes: both paths should be exercised", above, plainSeen, fullSeen)
		}
	}
}
