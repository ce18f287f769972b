package hatetris

import (
	"math/rand/v2"
	"testing"
)

// randomWell builds a well whose stack is contiguous from the floor, with
// rows random but never full, up to height h below the bar.
func randomWell(rng *rand.Rand, r *Rules, h int) Well {
	var w Well
	for y := r.Depth - 1; y >= r.Depth-h; y-- {
		v := uint16(rng.IntN(int(r.full)) + 1)
		if v == r.full {
			v ^= r.Bit(rng.IntN(r.Width))
		}
		// Nearly full rows make line clears likely.
		if rng.IntN(3) == 0 {
			v = r.full ^ r.Bit(rng.IntN(r.Width))
		}
		w[y] = v
	}
	return w
}

// TestFastMatchesNaive compares the waveform generator with the game's own
// breadth-first search on random wells of every width, for every piece:
// outcomes, lines, game over, the AI value and the AI's choice.
func TestFastMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for width := MinWidth; width <= MaxWidth; width++ {
		for _, depth := range []int{6, 9, 14, 20} {
			r, err := NewRules(width, depth, 4)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGenerator(r)
			for trial := 0; trial < 60; trial++ {
				w := randomWell(rng, r, rng.IntN(depth-4)+1)
				var naiveValue [NumPieces]int
				for p := Piece(0); p < NumPieces; p++ {
					fast := g.Results(&w, p, nil)
					naive := r.NaiveResults(&w, p)
					SortResults(r, fast)
					SortResults(r, naive)
					if len(fast) != len(naive) {
						t.Fatalf("%v piece %v: %d results, naive %d\n%s", r, p, len(fast), len(naive), r.Format(&w))
					}
					naiveValue[p] = -1
					for i := range fast {
						if fast[i] != naive[i] {
							t.Fatalf("%v piece %v: result %d differs\n%s", r, p, i, r.Format(&w))
						}
						naiveValue[p] = max(naiveValue[p], r.Peak(&naive[i].Well))
					}
					if v := g.Value(&w, p); v != naiveValue[p] {
						t.Fatalf("%v piece %v: value %d, naive %d\n%s", r, p, v, naiveValue[p], r.Format(&w))
					}
				}
				rk := Ranking{Peak: naiveValue}
				if got := g.Choose(&w, Mild, nil); got != rk.Best() {
					t.Fatalf("%v: Mild chooses %v, naive %v", r, got, rk.Best())
				}
				p, res := g.Move(&w, Mild, nil, nil)
				if p != rk.Best() || len(res) != len(g.Results(&w, p, nil)) {
					t.Fatalf("%v: Move disagrees with Choose+Results", r)
				}
			}
		}
	}
}

// TestClearAboveBar checks the variant rule against the naive search too.
func TestClearAboveBar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r, err := NewRulesClearAboveBar(10, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(r)
	overs := 0
	for trial := 0; trial < 300; trial++ {
		w := randomWell(rng, r, 6)
		for p := Piece(0); p < NumPieces; p++ {
			fast := g.Results(&w, p, nil)
			naive := r.NaiveResults(&w, p)
			SortResults(r, fast)
			SortResults(r, naive)
			if len(fast) != len(naive) {
				t.Fatalf("piece %v: %d results, naive %d", p, len(fast), len(naive))
			}
			for i := range fast {
				if fast[i] != naive[i] {
					t.Fatalf("piece %v result %d differs", p, i)
				}
				if fast[i].Lines > 0 && r.Peak(&w)-4 < 4 {
					overs++
				}
			}
		}
	}
	if overs == 0 {
		t.Fatal("no line clear near the bar was exercised")
	}
}
