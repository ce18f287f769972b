package classic

import "math/bits"

// TetrAI is tetr-ai v2.0's greedy evaluation ("SimpleAi"), with its integer
// weights (scaled by 60) and tie-breaks, so that games are identical to
// tetr-ai's binary.
type TetrAI struct{}

// Name returns "tetr-ai".
func (TetrAI) Name() string { return "tetr-ai" }

// Choose returns the best placement of p.
func (TetrAI) Choose(b *Board, p Piece) (*Candidate, int) {
	cs := b.R.cands[p]
	var bc *Candidate
	var best int64
	by := -1
	var x tetrCtx
	x.init(b)
	for i := range cs {
		c := &cs[i]
		y := b.Land(c)
		if y < 0 {
			continue
		}
		s := x.score(b, c, y)
		if better(s, c, best, bc) {
			bc, best, by = c, s, y
		}
	}
	return bc, by
}

// tetr-ai v2.0 weights.
const (
	wRowTrans  = 100
	wColTrans  = 95
	wHole      = 401
	wX1Hole    = 88
	wX2Hole    = 88
	wLanding   = 67
	wRows      = 86
	wHoleDepth = 75
	wWell2     = 176
	wWell3     = 99
	wShape     = 117
)

// Shape-adaptability piece bits (J, L, O, S, T, Z).
const (
	saJ = 1 << iota
	saL
	saO
	saS
	saT
	saZ
)

// saPair[d+2] is the set of pieces matching a height difference d.
var saPair = [5]uint8{saJ | saL, saS | saT | saZ, saJ | saL | saO, saS | saT | saZ, saJ | saL}

// saTriple[(d1+1)*3+d2+1] is the set matching two successive differences.
var saTriple = [9]uint8{
	(-1+1)*3 + 0 + 1: saL | saZ,
	(-1+1)*3 + 1 + 1: saT,
	(0+1)*3 - 1 + 1:  saJ | saS,
	(0+1)*3 + 0 + 1:  saJ | saL | saT,
	(0+1)*3 + 1 + 1:  saJ | saS,
	(1+1)*3 + 0 + 1:  saL | saZ,
	(1+1)*3 - 1 + 1:  saT,
}

// TetrAIScore is tetr-ai's integer score (higher is better) of placing c at
// landing row y on b: the post-clear board's features with the pre-clear
// landing term.
func TetrAIScore(b *Board, c *Candidate, y int) int64 {
	r := b.R
	R, C, full := r.Rows, r.Cols, r.Full
	cells := b.Cells
	n := 0
	for i := 0; i < c.NRows; i++ {
		cells[y+i] |= c.Rows[i]
		if cells[y+i] == full {
			n++
		}
	}
	top := min(b.Top, y)
	var h [MaxCols]int
	if n == 0 {
		h = b.H
		for k := 0; k < c.NCols; k++ {
			h[c.Col[k]] = R - y - c.Top[k]
		}
	} else {
		last := y + c.NRows - 1
		w := last
		for i := last; i >= top; i-- {
			if cells[i] != full {
				cells[w] = cells[i]
				w--
			}
		}
		for i := w; i >= top; i-- {
			cells[i] = 0
		}
		top = w + 1
		var seen uint16
		for i := top; i < R && seen != full; i++ {
			nb := cells[i] &^ seen
			for nb != 0 {
				h[bits.TrailingZeros16(nb)] = R - i
				nb &= nb - 1
			}
			seen |= cells[i]
		}
	}

	walls := uint32(1) | uint32(1)<<(C+1)
	maskC1 := uint32(1)<<(C+1) - 1
	rt := 2 * top
	ct := 0
	var prev, covered, firstHoles uint16
	holes, x0, x12 := 0, 0, 0
	m0, m12 := r.m0, r.m1|r.m2
	for i := top; i < R; i++ {
		row := cells[i]
		w := uint32(row)<<1 | walls
		rt += bits.OnesCount32((w ^ w>>1) & maskC1)
		ct += bits.OnesCount16(prev ^ row)
		if hm := covered &^ row; hm != 0 {
			holes += bits.OnesCount16(hm)
			x0 += bits.OnesCount16(hm & m0)
			x12 += bits.OnesCount16(hm & m12)
			if firstHoles == 0 {
				firstHoles = hm
			}
		}
		covered |= row
		prev = row
	}
	ct += bits.OnesCount16(full &^ prev)
	hd := 0
	for m := firstHoles; m != 0; m &= m - 1 {
		if v := h[bits.TrailingZeros16(m)]; v > hd {
			hd = v
		}
	}

	w2, sa := heightTerms(r, &h)

	lh4 := 4*y + c.SumRows
	return int64(15*wLanding*lh4 + 60*wRows*n - 60*wRowTrans*rt - 60*wColTrans*ct -
		60*wHole*holes - 90*wX1Hole*x0 - 60*wX1Hole*x12 - 60*wHoleDepth*hd -
		6*w2 + 10*wShape*sa)
}

// heightTerms returns tetr-ai's well feature W = 2*sum - max (×10 units)
// and the shape-adaptability sum (0..36) of the column heights h.
func heightTerms(r *Rules, h *[MaxCols]int) (w2, sa int) {
	R, C := r.Rows, r.Cols
	// Wells and shape adaptability from the column heights.
	wsum, wmax := 0, 0
	var once, twice uint8
	left := R
	for i := 0; i < C; i++ {
		hc := h[i]
		right := R
		if i+1 < C {
			right = h[i+1]
			d := right - hc
			if d >= -2 && d <= 2 {
				m := saPair[d+2]
				twice |= once & m
				once |= m
				if i+2 < C {
					d2 := h[i+2] - right
					if d >= -1 && d <= 1 && d2 >= -1 && d2 <= 1 {
						m := saTriple[(d+1)*3+d2+1]
						twice |= once & m
						once |= m
					}
				}
			}
		}
		if left >= hc && right >= hc {
			d := min(left, right) - hc
			if d > 0 {
				var v int
				switch d {
				case 1:
					v = 2 * wWell2
				case 2:
					v = 10 * wWell2
				default:
					v = 10*wWell3 + (d-2)*r.wellD[i]
				}
				wsum += v
				wmax = max(wmax, v)
			}
		}
		left = hc
	}
	sa = 4*bits.OnesCount8(once&^twice) + 6*bits.OnesCount8(twice)

	return 2*wsum - wmax, sa
}
