package hatetris

import (
	"math/rand/v2"
	"testing"
)

// TestSpawnOverlapsBelowLowBar: with a bar of 1..3 the spawn box reaches
// below the bar, so a piece can spawn onto blocks. The real game spawns it
// anyway; from there moves go only onto empty cells and a D that cannot
// move locks it where it is, its cells ORed into the well. On 8x3 bar 1
// with rows 187 (10111011) and 95 the S spawns onto column 4 of row 1, can
// neither move nor rotate, and locks at the spawn: one outcome, row 1
// becoming 191, the game going on (row 0 stays empty).
func TestSpawnOverlapsBelowLowBar(t *testing.T) {
	r, err := NewRules(8, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.ParseWellString("0,187,95")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.ParseWellString("0,191,95")
	g := NewGenerator(r)
	for name, got := range map[string][]Outcome{"Outcomes": g.Outcomes(&w, S, nil), "NaiveOutcomes": r.NaiveOutcomes(&w, S)} {
		if len(got) != 1 || got[0].Well != want || got[0].GameOver || got[0].Lines != 0 {
			t.Fatalf("%s: %+v, want the one outcome %v", name, got, r.Rows(&want))
		}
	}
	if keys, ok := r.KeysTo(&w, S, &want); !ok || keys != "D" {
		t.Fatalf("KeysTo = %q, %v; want D", keys, ok)
	}
	// Every piece has at least one outcome: the spawn locks at worst.
	for p := Piece(0); p < NumPieces; p++ {
		if len(g.Outcomes(&w, p, nil)) == 0 {
			t.Fatalf("piece %v: no outcome", p)
		}
	}
	gm := NewGameFrom(r, Mild, w, 0)
	if gm.Over {
		t.Fatal("the game is over at the start")
	}
	p := gm.Piece()
	if err := gm.PressAll("D"); err != nil {
		t.Fatal(err)
	}
	if gm.Placed() != 1 {
		t.Fatalf("piece %v did not lock on D", p)
	}
}

// TestLowBarFastMatchesNaive checks the generator against the real game's
// search on random wells of bar 1..3 whose stacks reach into the spawn box.
func TestLowBarFastMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	overlaps := 0
	for bar := 1; bar <= 3; bar++ {
		for _, width := range []int{4, 6, 8, 10} {
			for _, depth := range []int{bar + 2, 6, 9} {
				r, err := NewRules(width, depth, bar)
				if err != nil {
					t.Fatal(err)
				}
				g := NewGenerator(r)
				for trial := 0; trial < 60; trial++ {
					w := randomWell(rng, r, 1+rng.IntN(depth-bar))
					for p := Piece(0); p < NumPieces; p++ {
						if !r.Fits(&w, p, r.Spawn()) {
							overlaps++
						}
						got := g.Outcomes(&w, p, nil)
						want := r.NaiveOutcomes(&w, p)
						SortOutcomes(r, got)
						SortOutcomes(r, want)
						if len(got) != len(want) || len(want) == 0 {
							t.Fatalf("%v %v %v: %d outcomes, naive %d", r, r.Rows(&w), p, len(got), len(want))
						}
						for i := range got {
							if got[i].Well != want[i].Well || got[i].Lines != want[i].Lines || got[i].GameOver != want[i].GameOver {
								t.Fatalf("%v %v %v: outcome %d differs", r, r.Rows(&w), p, i)
							}
						}
						if v, nv := g.Value(&w, p), g.slowValue(&w, p); v != nv {
							t.Fatalf("%v %v %v: Value %d, naive %d", r, r.Rows(&w), p, v, nv)
						}
					}
				}
			}
		}
	}
	if overlaps == 0 {
		t.Fatal("no spawn overlapped the stack")
	}
}
