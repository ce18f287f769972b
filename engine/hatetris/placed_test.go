package hatetris

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// sameOutcome compares two results without their Placed cells (two
// placements can give one outcome; each generator keeps its first).
func sameOutcome(a, b *Outcome) bool {
	return a.Well == b.Well && a.Lines == b.Lines && a.GameOver == b.GameOver
}

// checkPlaced verifies that res.Placed is a piece of four cells on empty
// cells of w that, locked and cleared as the rules do, gives res.
func checkPlaced(t *testing.T, r *Rules, w *Well, res *Outcome) {
	t.Helper()
	m := *w
	n := 0
	for i, c := range res.Placed.Cells {
		if c == 0 {
			continue
		}
		y := res.Placed.Y + i
		if y < 0 || y >= r.Depth || m[y]&c != 0 {
			t.Fatalf("placed cells %v at row %d overlap the well or leave it\n%s", res.Placed.Cells, res.Placed.Y, r.Format(w))
		}
		m[y] |= c
		n += bits.OnesCount16(c)
	}
	if n != 4 {
		t.Fatalf("placed %d cells, want 4", n)
	}
	lines := 0
	if !res.GameOver || r.ClearAboveBar {
		for i := range res.Placed.Cells {
			y := res.Placed.Y + i
			if res.Placed.Cells[i] != 0 && m[y] == r.full && (y >= r.Bar || r.ClearAboveBar || res.Placed.Y >= r.Bar) {
				copy(m[1:y+1], m[0:y])
				m[0] = 0
				lines++
			}
		}
	}
	if res.GameOver {
		return // the clear rule above the bar is Lock's business
	}
	if m != res.Well || lines != res.Lines {
		t.Fatalf("placed cells give %d lines and\n%s\nwant %d lines and\n%s", lines, r.Format(&m), res.Lines, r.Format(&res.Well))
	}
}

// TestOutcomePlaced: every live outcome of Outcomes, Move, LiveMoves and
// NaiveOutcomes carries the cells that produce it.
func TestOutcomePlaced(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	for _, dims := range [][2]int{{4, 8}, {6, 10}, {10, 20}, {10, 9}} {
		r, err := NewRules(dims[0], dims[1], 4)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGenerator(r)
		clears := 0
		for trial := 0; trial < 60; trial++ {
			w := randomWell(rng, r, rng.IntN(r.Depth-5)+1)
			if trial%7 == 6 {
				w[r.Depth-1] = 0 // not contiguous: the slow path
			}
			for p := Piece(0); p < NumPieces; p++ {
				for _, res := range g.Outcomes(&w, p, nil) {
					checkPlaced(t, r, &w, &res)
					clears += res.Lines
				}
				for _, res := range r.NaiveOutcomes(&w, p) {
					checkPlaced(t, r, &w, &res)
				}
			}
			_, _, full := g.LiveMoves(&w, Mild, nil, nil, nil)
			for _, res := range full {
				checkPlaced(t, r, &w, &res)
			}
		}
		if clears == 0 {
			t.Fatalf("%v: no line cleared, the test checks nothing", r)
		}
	}
}

// TestRotationsStayInWord: spread and dedupLevels rotate slot sets
// (bits.RotateLeft64) where they mean to shift them, which is the same
// only if no source slot moves past either end of the word: checked for
// every piece, orientation, duplicate rule and width (a rotation landing
// on a slot of the next orientation).
func TestRotationsStayInWord(t *testing.T) {
	for width := MinWidth; width <= MaxWidth; width++ {
		r, err := NewRules(width, 20, 4)
		if err != nil {
			t.Fatal(err)
		}
		for p := Piece(0); p < NumPieces; p++ {
			pt := &r.pieces[p]
			for o := 0; o < 4; o++ {
				for src := pt.rotSrc[o]; src != 0; src &= src - 1 {
					s := bits.TrailingZeros64(src)
					d := s + pt.rotSh[o]
					if d < 0 || d >= 64 || pt.block[(o+1)&3]&(1<<uint(d)) == 0 {
						t.Fatalf("width %d piece %v orientation %d: slot %d rotates to %d", width, p, o, s, d)
					}
				}
			}
			for i := 0; i < pt.nDups; i++ {
				d := pt.dups[i]
				for src := pt.block[d.a]; src != 0; src &= src - 1 {
					if s := bits.TrailingZeros64(src); s+d.sh < 0 || s+d.sh >= 64 {
						t.Fatalf("width %d piece %v duplicate rule %d: slot %d shifts to %d", width, p, i, s, s+d.sh)
					}
				}
			}
		}
	}
}
