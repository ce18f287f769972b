package classic

import "math/bits"

// tetrCtx holds one board's tetr-ai feature terms, so that a placement that
// clears no line is scored from the rows it changes only. Placements that
// clear lines are scored in full by TetrAIScore.
type tetrCtx struct {
	rt     [MaxRows]int     // row transitions of each row
	ct     [MaxRows + 1]int // column-transition term of each row (with the row above), and the floor term
	hm     [MaxRows]uint16  // hole cells of each row
	rtSum  int
	ctSum  int
	holes  int
	x0     int
	x12    int
	hole1  int // topmost row with a hole (Rows when none)
	walls  uint32
	maskC1 uint32
	// Height terms: well value per column, its sum and prefix/suffix
	// maxima; shape-adaptability pair and triple masks and their packed
	// per-piece match counts (one byte per piece).
	wv       [MaxCols]int
	wSum     int
	pre, suf [MaxCols + 1]int
	pm, tm   [MaxCols]uint8
	cnt      uint64
}

// saExpand[m] has byte k set to bit k of m.
var saExpand = func() (t [64]uint64) {
	for m := range t {
		for k := range 6 {
			t[m] |= uint64(m>>k&1) << (8 * k)
		}
	}
	return
}()

// wellValue is tetr-ai's value (×10 units) of column j as a well.
func wellValue(r *Rules, h *[MaxCols]int, j int) int {
	left, right := r.Rows, r.Rows
	if j > 0 {
		left = h[j-1]
	}
	if j < r.Cols-1 {
		right = h[j+1]
	}
	hc := h[j]
	if left < hc || right < hc {
		return 0
	}
	switch d := min(left, right) - hc; d {
	case 0:
		return 0
	case 1:
		return 2 * wWell2
	case 2:
		return 10 * wWell2
	default:
		return 10*wWell3 + (d-2)*r.wellD[j]
	}
}

func pairMask(h *[MaxCols]int, i int) uint8 {
	if d := h[i+1] - h[i]; d >= -2 && d <= 2 {
		return saPair[d+2]
	}
	return 0
}

func tripleMask(h *[MaxCols]int, i int) uint8 {
	d, d2 := h[i+1]-h[i], h[i+2]-h[i+1]
	if d >= -1 && d <= 1 && d2 >= -1 && d2 <= 1 {
		return saTriple[(d+1)*3+d2+1]
	}
	return 0
}

// saSum is the shape-adaptability sum of packed per-piece counts.
func saSum(cnt uint64) int {
	sa := 0
	for k := range 6 {
		switch v := cnt >> (8 * k) & 0xff; {
		case v == 1:
			sa += 4
		case v >= 2:
			sa += 6
		}
	}
	return sa
}

func (x *tetrCtx) initHeights(b *Board) {
	r, C := b.R, b.R.Cols
	x.wSum, x.cnt = 0, 0
	for j := range C {
		x.wv[j] = wellValue(r, &b.H, j)
		x.wSum += x.wv[j]
		x.pre[j+1] = max(x.pre[j], x.wv[j])
	}
	x.suf[C] = 0
	for j := C - 1; j >= 0; j-- {
		x.suf[j] = max(x.suf[j+1], x.wv[j])
	}
	for i := 0; i+1 < C; i++ {
		x.pm[i] = pairMask(&b.H, i)
		x.cnt += saExpand[x.pm[i]]
		if i+2 < C {
			x.tm[i] = tripleMask(&b.H, i)
			x.cnt += saExpand[x.tm[i]]
		}
	}
}

// heightTerms is the incremental heightTerms for a board whose heights
// differ from the context's board in columns lo..hi only.
func (x *tetrCtx) heightTerms(r *Rules, h *[MaxCols]int, lo, hi int) (w2, sa int) {
	C := r.Cols
	a, z := max(lo-1, 0), min(hi+1, C-1)
	wsum, wmax := x.wSum, max(x.pre[a], x.suf[z+1])
	for j := a; j <= z; j++ {
		v := wellValue(r, h, j)
		wsum += v - x.wv[j]
		wmax = max(wmax, v)
	}
	cnt := x.cnt
	for i := max(lo-1, 0); i <= min(hi, C-2); i++ {
		cnt += saExpand[pairMask(h, i)] - saExpand[x.pm[i]]
	}
	for i := max(lo-2, 0); i <= min(hi, C-3); i++ {
		cnt += saExpand[tripleMask(h, i)] - saExpand[x.tm[i]]
	}
	return 2*wsum - wmax, saSum(cnt)
}

func (x *tetrCtx) init(b *Board) {
	r := b.R
	R, C := r.Rows, r.Cols
	x.walls = uint32(1) | uint32(1)<<(C+1)
	x.maskC1 = uint32(1)<<(C+1) - 1
	x.rtSum, x.ctSum, x.holes, x.x0, x.x12, x.hole1 = 0, 0, 0, 0, 0, R
	var prev, covered uint16
	m12 := r.m1 | r.m2
	for i := 0; i < R; i++ {
		row := b.Cells[i]
		w := uint32(row)<<1 | x.walls
		x.rt[i] = bits.OnesCount32((w ^ w>>1) & x.maskC1)
		x.rtSum += x.rt[i]
		x.ct[i] = bits.OnesCount16(prev ^ row)
		x.ctSum += x.ct[i]
		hm := covered &^ row
		x.hm[i] = hm
		if hm != 0 {
			x.holes += bits.OnesCount16(hm)
			x.x0 += bits.OnesCount16(hm & r.m0)
			x.x12 += bits.OnesCount16(hm & m12)
			if x.hole1 == R {
				x.hole1 = i
			}
		}
		covered |= row
		prev = row
	}
	x.ct[R] = bits.OnesCount16(r.Full &^ prev)
	x.ctSum += x.ct[R]
	x.initHeights(b)
}

// score equals TetrAIScore(b, c, y); x must have been set up for b.
func (x *tetrCtx) score(b *Board, c *Candidate, y int) int64 {
	r := b.R
	R, full := r.Rows, r.Full
	var nrow [4]uint16
	for i := 0; i < c.NRows; i++ {
		nrow[i] = b.Cells[y+i] | c.Rows[i]
		if nrow[i] == full {
			return TetrAIScore(b, c, y)
		}
	}
	rt, ct := x.rtSum, x.ctSum
	prev := uint16(0)
	if y > 0 {
		prev = b.Cells[y-1]
	}
	for i := 0; i < c.NRows; i++ {
		w := uint32(nrow[i])<<1 | x.walls
		rt += bits.OnesCount32((w^w>>1)&x.maskC1) - x.rt[y+i]
		ct += bits.OnesCount16(prev^nrow[i]) - x.ct[y+i]
		prev = nrow[i]
	}
	if e := y + c.NRows; e < R {
		ct += bits.OnesCount16(prev^b.Cells[e]) - x.ct[e]
	} else {
		ct += bits.OnesCount16(full&^prev) - x.ct[R]
	}

	// New holes: in each piece column, the empty cells between the piece's
	// lowest cell and the old column top.
	h := b.H
	holes, x0, x12, hole1 := x.holes, x.x0, x.x12, x.hole1
	var gapTop [4]int
	m12 := r.m1 | r.m2
	for k := 0; k < c.NCols; k++ {
		col := c.Col[k]
		g := R - h[col] - c.Bot[k] - 1 - y
		gapTop[k] = R
		if g > 0 {
			holes += g
			if r.m0>>col&1 != 0 {
				x0 += g
			} else if m12>>col&1 != 0 {
				x12 += g
			}
			gapTop[k] = y + c.Bot[k] + 1
			hole1 = min(hole1, gapTop[k])
		}
		h[col] = R - y - c.Top[k]
	}
	hd := 0
	if hole1 < R {
		hm := x.hm[hole1]
		for k := 0; k < c.NCols; k++ {
			if gapTop[k] <= hole1 {
				hm |= 1 << c.Col[k]
			}
		}
		for m := hm; m != 0; m &= m - 1 {
			hd = max(hd, h[bits.TrailingZeros16(m)])
		}
	}
	w2, sa := x.heightTerms(r, &h, c.Col[0], c.Col[c.NCols-1])
	lh4 := 4*y + c.SumRows
	return int64(15*wLanding*lh4 - 60*wRowTrans*rt - 60*wColTrans*ct -
		60*wHole*holes - 90*wX1Hole*x0 - 60*wX1Hole*x12 - 60*wHoleDepth*hd +
		-6*w2 + 10*wShape*sa)
}
