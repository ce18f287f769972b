package classic

import "math/bits"

// Features describes one placement for feature-based agents. Counts are
// taken on the board after line clears; landing terms on the placement
// before clears. Rows are counted from the bottom, starting at 1.
type Features struct {
	// Before is the board the piece was placed on, After the board after
	// the placement and its clears.
	Before, After *Board
	Cand          *Candidate
	Y             int
	// Cleared is the number of lines cleared.
	Cleared int
	// Landing2 is twice the landing height of the piece's middle:
	// lowest cell row + highest cell row.
	Landing2 int
	// Eroded is Cleared times the piece's cells removed by the clears.
	Eroded int
	// RowTransitions counts filled/empty changes along every row, walls
	// filled; ColTransitions down every column, sky empty and floor filled.
	RowTransitions, ColTransitions int
	// Holes are empty cells with a filled cell above them; HoleDepth sums,
	// over holes, the filled cells above them; RowsWithHoles counts rows
	// with at least one hole.
	Holes, HoleDepth, RowsWithHoles int
	// CumWells sums 1+2+..+depth over runs of well cells (empty cells with
	// both horizontal neighbours filled or a wall).
	CumWells int
	// MaxHeight is the tallest column.
	MaxHeight int
}

// Compute fills f for placing c at landing row y on b; after receives the
// resulting board.
func (f *Features) Compute(b *Board, c *Candidate, y int, after *Board) {
	r := b.R
	R, C := r.Rows, r.Cols
	*after = *b
	// Piece cells removed: rows of the placement that become full.
	eroded := 0
	for i := 0; i < c.NRows; i++ {
		if b.Cells[y+i]|c.Rows[i] == r.Full {
			eroded += bits.OnesCount16(c.Rows[i])
		}
	}
	n := after.Apply(c, y)
	*f = Features{Before: b, After: after, Cand: c, Y: y, Cleared: n, Eroded: n * eroded}
	f.Landing2 = (R - y) + (R - y - c.NRows + 1)
	walls := uint32(1) | uint32(1)<<(C+1)
	maskC1 := uint32(1)<<(C+1) - 1
	f.RowTransitions = 2 * after.Top
	var prev, covered uint16
	var above [MaxCols]int
	for i := after.Top; i < R; i++ {
		row := after.Cells[i]
		w := uint32(row)<<1 | walls
		f.RowTransitions += bits.OnesCount32((w ^ w>>1) & maskC1)
		f.ColTransitions += bits.OnesCount16(prev ^ row)
		if hm := covered &^ row; hm != 0 {
			f.Holes += bits.OnesCount16(hm)
			f.RowsWithHoles++
			for m := hm; m != 0; m &= m - 1 {
				f.HoleDepth += above[bits.TrailingZeros16(m)]
			}
		}
		for m := row; m != 0; m &= m - 1 {
			above[bits.TrailingZeros16(m)]++
		}
		covered |= row
		prev = row
	}
	f.ColTransitions += bits.OnesCount16(r.Full &^ prev)
	wide := uint32(0)
	for c := range C {
		run := 0
		for i := after.Top; i < R; i++ {
			wide = uint32(after.Cells[i])<<1 | walls
			if wide>>(c+1)&1 == 0 && wide>>c&1 != 0 && wide>>(c+2)&1 != 0 {
				run++
				f.CumWells += run
			} else {
				run = 0
			}
		}
		f.MaxHeight = max(f.MaxHeight, after.H[c])
	}
}

// greedy is an agent maximising an integer score of Features.
type greedy struct {
	name  string
	score func(*Features) int64
	f     Features
	after Board
}

// Greedy returns a one-ply agent that plays the placement with the highest
// score(f), breaking ties like tetr-ai (smaller centre bias, then smaller
// shift, then enumeration order). Integer scores keep ties exact. The
// agent keeps scratch space: use it from one goroutine at a time (Sweep
// makes one agent per worker).
func Greedy(name string, score func(f *Features) int64) Agent {
	return &greedy{name: name, score: score}
}

func (g *greedy) Name() string { return g.name }

func (g *greedy) Choose(b *Board, p Piece) (*Candidate, int) {
	cs := b.R.cands[p]
	var bc *Candidate
	var best int64
	by := -1
	for i := range cs {
		c := &cs[i]
		y := b.Land(c)
		if y < 0 {
			continue
		}
		g.f.Compute(b, c, y, &g.after)
		if s := g.score(&g.f); better(s, c, best, bc) {
			bc, best, by = c, s, y
		}
	}
	return bc, by
}

// Dellacherie returns Pierre Dellacherie's six-feature agent with its
// hand-set weights: -landing height +eroded cells -row transitions
// -column transitions -4 holes -cumulative wells (scaled by 2 to keep the
// mid-piece landing height integral).
func Dellacherie() Agent {
	return Greedy("dellacherie", func(f *Features) int64 {
		return int64(-f.Landing2 + 2*(f.Eroded-f.RowTransitions-f.ColTransitions-4*f.Holes-f.CumWells))
	})
}

// BCTS returns Thiery and Scherrer's BCTS agent: Dellacherie's features plus
// hole depth and rows with holes, with their cross-entropy weights (scaled by
// 200 to integers).
func BCTS() Agent {
	return Greedy("bcts", func(f *Features) int64 {
		return int64(-1263*f.Landing2 + 2*(660*f.Eroded-922*f.RowTransitions-1977*f.ColTransitions-
			1308*f.Holes-1049*f.CumWells-161*f.HoleDepth-2404*f.RowsWithHoles))
	})
}
