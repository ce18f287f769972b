package classic

import (
	"math"
	"math/bits"
	"slices"
)

// WKBParams are the constants of the agent after Whitman, Kane and
// Burnette ("On the Playing of Tetris"). Defaults are the paper's learned
// values.
type WKBParams struct {
	// Epsilon is subtracted from every gap cost.
	Epsilon float64
	// Hole (B) is charged per hole spot of a row; DepRow (A) per dependent
	// row, on top of that row's own cost.
	Hole, DepRow float64
	// Tower is charged, in each row of a deep well, per empty well cell
	// below it; MultiWell per deep well beyond the first.
	Tower, MultiWell float64
	// ClearReward (a) is the instantaneous cost per cleared row (the
	// learned value is positive).
	ClearReward float64
	// K is the dampening exponent: a row of cost c adds c^(1/K).
	K float64
	// Gap1 and Gap2 are the costs of gaps one and two cells wide by the
	// pair of side categories, in the order (0,0) (0,1) (0,2) (0,3) (1,1)
	// (1,2) (1,3) (2,2) (2,3) (3,3); wider gaps cost 1.
	Gap1, Gap2 [10]float64
	// Lookahead is the number of best first-ply placements expanded with
	// the one-piece expected cost (0: greedy).
	Lookahead int
}

// DefaultWKB returns the paper's learned parameters with a lookahead pruned
// to the best n placements.
func DefaultWKB(n int) WKBParams {
	return WKBParams{
		Epsilon: 0.344, Hole: 17.72, DepRow: 1.16, Tower: 0.44, MultiWell: 7.9,
		ClearReward: 0.3, K: 4.384,
		Gap1:      [10]float64{1.55, 2.01, 1.34, 2.57, 2.69, 2.01, 4.38, 1.55, 2.55, 15.00},
		Gap2:      [10]float64{1.63, 2.15, 1.31, 1.79, 2.72, 2.74, 2.18, 1.77, 2.09, 5.48},
		Lookahead: n,
	}
}

// wkbPair[a][b] indexes Gap1/Gap2 by side categories.
var wkbPair = [4][4]int{{0, 1, 2, 3}, {1, 4, 5, 6}, {2, 5, 7, 8}, {3, 6, 8, 9}}

// wkbScale turns costs into integers so that ties are exact.
const wkbScale = 1e6

// wkbLoss is the cost of a next piece that cannot be placed.
const wkbLoss = 1e6 * wkbScale

// WKB is the agent after Whitman, Kane and Burnette: a cost that is the sum
// over rows of a dampened row cost (gap costs by width and side shape,
// dependent rows, hole spots, deep-well penalties), and a one-piece
// lookahead minimising the immediate cost plus the expected best cost of
// the next piece (uniform over the 7), expanded for the best Lookahead
// placements only. Our reading of the paper, under hard-drop-only rules:
//   - a gap is a run of empty cells in a row; its open part (nothing above)
//     is classified on each side by how many of the three cells above the
//     gap's row in the side column are unavailable (0..3, a wall is 3);
//   - its covered part (hole spots) is classified the same way after the
//     row's dependent rows are dropped;
//   - a row depends on the rows with a filled cell above one of its holes,
//     and on their dependencies;
//   - a deep well is a one-wide column with both neighbours at least 3
//     higher.
//
// Costs are float64 rounded to integers (×1e6) per board, so ties are exact
// and games do not depend on the number of cores; the power function and
// fused multiply-adds on some architectures (arm64, not amd64) could in
// principle round differently, so games are guaranteed identical only on
// the same architecture. It keeps scratch space: use one WKB per goroutine.
type WKB struct {
	P     WKBParams
	order []wkbCand
	after [2]Board
}

type wkbCand struct {
	c    *Candidate
	y    int
	cost int64
	idx  int
}

// NewWKB returns the agent with the paper's parameters and a lookahead
// pruned to the best n placements.
func NewWKB(n int) *WKB { return &WKB{P: DefaultWKB(n)} }

// Name returns "wkb".
func (w *WKB) Name() string { return "wkb" }

// Choose returns the placement with the lowest immediate plus expected
// next-piece cost.
func (w *WKB) Choose(b *Board, p Piece) (*Candidate, int) {
	cs := b.R.cands[p]
	w.order = w.order[:0]
	for i := range cs {
		c := &cs[i]
		y := b.Land(c)
		if y < 0 {
			continue
		}
		w.order = append(w.order, wkbCand{c, y, w.moveCost(b, c, y, &w.after[0]), i})
	}
	if len(w.order) == 0 {
		return nil, -1
	}
	// Rank by immediate cost, then tetr-ai's tie-break.
	slices.SortFunc(w.order, func(a, b wkbCand) int {
		switch {
		case a.cost != b.cost:
			return cmpInt64(a.cost, b.cost)
		case a.c.Bias != b.c.Bias:
			return a.c.Bias - b.c.Bias
		case a.c.X != b.c.X:
			return a.c.X - b.c.X
		}
		return a.idx - b.idx
	})
	if w.P.Lookahead <= 0 {
		return w.order[0].c, w.order[0].y
	}
	n := min(w.P.Lookahead, len(w.order))
	best, bestTotal := 0, int64(math.MaxInt64)
	for k := range n {
		o := w.order[k]
		first := &w.after[0]
		*first = *b
		cleared := first.Apply(o.c, o.y)
		var sum int64
		for q := range Piece(NumPieces) {
			m := int64(wkbLoss)
			for i := range first.R.cands[q] {
				c2 := &first.R.cands[q][i]
				y2 := first.Land(c2)
				if y2 < 0 {
					continue
				}
				m = min(m, w.moveCost(first, c2, y2, &w.after[1]))
			}
			sum += m
		}
		total := int64(math.Round(w.P.ClearReward*float64(cleared)*wkbScale)) + sum/NumPieces
		if total < bestTotal {
			best, bestTotal = k, total
		}
	}
	return w.order[best].c, w.order[best].y
}

func cmpInt64(a, b int64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// moveCost is the instantaneous cost of placing c at y plus the value of
// the resulting board, as an integer.
func (w *WKB) moveCost(b *Board, c *Candidate, y int, after *Board) int64 {
	*after = *b
	n := after.Apply(c, y)
	return int64(math.Round((w.P.ClearReward*float64(n) + w.Value(after)) * wkbScale))
}

// Value is the heuristic cost V of a board: the sum over non-empty rows of
// cost^(1/K), plus MultiWell per deep well beyond the first.
func (w *WKB) Value(b *Board) float64 {
	r := b.R
	R, C, full := r.Rows, r.Cols, r.Full
	var cost [MaxRows]float64
	var deps [MaxRows]uint32
	var colDeps [MaxCols]uint32
	var covered uint16

	// Deep wells: tower costs per row, and their count.
	wells := 0
	for c := range C {
		l, rr := R+3, R+3
		if c > 0 {
			l = b.H[c-1]
		}
		if c < C-1 {
			rr = b.H[c+1]
		}
		top := min(l, rr, R)
		if top-b.H[c] >= 3 {
			wells++
			for lvl := b.H[c] + 1; lvl <= top; lvl++ {
				cost[R-lvl] += w.P.Tower * float64(lvl-b.H[c]-1)
			}
		}
	}

	var v float64
	for t := b.Top; t < R; t++ {
		row := b.Cells[t]
		level := R - t // 1-based height of this row
		empty := full &^ row
		holes := empty & covered
		open := empty &^ covered
		var d uint32
		for m := holes; m != 0; m &= m - 1 {
			d |= colDeps[bits.TrailingZeros16(m)]
		}
		deps[t] = d
		ci := cost[t] + w.P.Hole*float64(bits.OnesCount16(holes))
		for m := d; m != 0; m &= m - 1 {
			ci += cost[bits.TrailingZeros32(m)] + w.P.DepRow
		}
		// Open gaps.
		for m := open; m != 0; {
			lo := bits.TrailingZeros16(m)
			run := (m >> lo) & ^((m >> lo) + 1)
			width := bits.OnesCount16(run)
			hi := lo + width - 1
			m &^= run << lo
			ci += w.gapCost(width, w.sideOpen(b, lo-1, level), w.sideOpen(b, hi+1, level))
		}
		// Hole runs, classified with the dependent rows dropped.
		for m := holes; m != 0; {
			lo := bits.TrailingZeros16(m)
			run := (m >> lo) & ^((m >> lo) + 1)
			width := bits.OnesCount16(run)
			hi := lo + width - 1
			m &^= run << lo
			ci += w.gapCost(width, sideDropped(b, lo-1, t, d), sideDropped(b, hi+1, t, d))
		}
		cost[t] = ci
		for m := row; m != 0; m &= m - 1 {
			colDeps[bits.TrailingZeros16(m)] |= 1<<uint(t) | d
		}
		covered |= row
		v += w.root(ci)
	}
	if wells > 1 {
		v += w.P.MultiWell * float64(wells-1)
	}
	return v
}

func (w *WKB) root(c float64) float64 {
	if c <= 0 {
		return 0
	}
	return math.Pow(c, 1/w.P.K)
}

func (w *WKB) gapCost(width, a, b int) float64 {
	switch width {
	case 1:
		return w.P.Gap1[wkbPair[a][b]] - w.P.Epsilon
	case 2:
		return w.P.Gap2[wkbPair[a][b]] - w.P.Epsilon
	}
	return 1 - w.P.Epsilon
}

// sideOpen classifies the side column s of an open gap in the row at the
// given level: how many of the three cells above are unavailable.
func (w *WKB) sideOpen(b *Board, s, level int) int {
	if s < 0 || s >= b.R.Cols {
		return 3
	}
	return min(max(b.H[s]-level, 0), 3)
}

// sideDropped is sideOpen for a hole run in row t once the rows in deps are
// removed.
func sideDropped(b *Board, s, t int, deps uint32) int {
	if s < 0 || s >= b.R.Cols {
		return 3
	}
	pos, unav := 0, 0
	for u := t - 1; u >= b.Top; u-- {
		if deps>>uint(u)&1 != 0 {
			continue
		}
		pos++
		if b.Cells[u]>>s&1 != 0 {
			unav = pos
		}
	}
	return min(unav, 3)
}
