package hatetris

import (
	"math/rand/v2"
	"testing"
)

// lowestRef is LowestRow by the game's own search, read from each lock's
// cells (Rules.Lock's Placed, before clears): the reference.
func lowestRef(r *Rules, w *Well, p Piece) int {
	low := -1
	r.walk(w, p, nil, func(pos Position, _ int) bool {
		res := r.Lock(w, p, pos)
		for i, c := range res.Placed.Cells {
			if c != 0 {
				low = max(low, res.Placed.Y+i)
			}
		}
		return true
	})
	return low
}

// TestLowestRow: the generator's LowestRow equals the game's search's on
// the wells of the load tests (every width and bar, depths from the least
// to the most; empty, contiguous, with full rows, full from the peak down,
// with an empty row inside, floating), for every piece, and on hand-drawn
// wells; it allocates nothing on a real well.
func TestLowestRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	n := 0
	for _, r := range loadGeometries(t) {
		g := NewGenerator(r)
		for kind := 0; kind < 6; kind++ {
			w := loadWell(rng, r, kind, 1+rng.IntN(r.Depth))
			for _, p := range []Piece{S, Piece(rng.IntN(NumPieces))} {
				want := lowestRef(r, &w, p)
				if got := g.LowestRow(&w, p); got != want || want < 0 {
					t.Fatalf("%v %v piece %v: LowestRow %d, the game's search %d\n%s", r, r.Rows(&w), p, got, want, r.Format(&w))
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d wells checked", n)
	}

	r := Standard()
	g := NewGenerator(r)
	parse := func(rows ...string) Well {
		t.Helper()
		var w Well
		for i, s := range rows {
			for x, c := range s {
				if c == '#' {
					w[r.Depth-len(rows)+i] |= r.Bit(x)
				}
			}
		}
		return w
	}
	for _, c := range []struct {
		name string
		w    Well
		p    Piece
		want int
	}{
		{"empty well: the floor", parse(), S, 19},
		// A gap at the left wall: no S cell reaches it (an S standing
		// there has its other column one row higher), a 1x1 block does.
		{"gap at the left wall", parse(".#########"), S, 18},
		// At the right wall the standing S's lower column is the gap's.
		{"gap at the right wall", parse("#########."), S, 19},
		// The S stands in the gaps of columns 8 and 9, its lowest cell in
		// the floor row, which it completes with row 18: both clear, but
		// the lock reached row 19.
		{"gaps it fills and clears", parse("########..", "#########."), S, 19},
		// A cave under the overhang of columns 0..2 whose mouth (column 2
		// of row 17) is one row high: a 1x1 block slides in and down to
		// the floor, an S only puts a cell in the mouth (row 17), as on
		// the stack beside it.
		{"cave behind a one-row mouth", parse("###.......", ".........#", "...#######", "...#######"), S, 17},
		{"the same cave, I", parse("###.......", ".........#", "...#######", "...#######"), I, 17},
	} {
		if got := g.LowestRow(&c.w, c.p); got != c.want || lowestRef(r, &c.w, c.p) != c.want {
			t.Errorf("%s: LowestRow %d (the search %d), want %d", c.name, got, lowestRef(r, &c.w, c.p), c.want)
		}
	}
	// The spawn locks onto blocks (TestSpawnOverlapsBelowLowBar): the S
	// adds a cell to row 1, its cell in row 2 lying on a block.
	low, _ := NewRules(8, 3, 1)
	w, err := low.ParseWellString("0,187,95")
	if err != nil {
		t.Fatal(err)
	}
	if got := NewGenerator(low).LowestRow(&w, S); got != 2 {
		t.Errorf("S locked at an overlapping spawn: LowestRow %d, want 2", got)
	}
	real := parse("####.#####", "###..#####", "##.#######", "#########.")
	if a := testing.AllocsPerRun(100, func() { g.LowestRow(&real, S) }); a != 0 {
		t.Errorf("LowestRow allocates %v times a call", a)
	}
}
