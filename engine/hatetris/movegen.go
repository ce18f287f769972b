package hatetris

import (
	"math/bits"
	"slices"
)

// Outcome is one distinct outcome of placing a piece: the well after line
// clears, the lines cleared, whether the placement ends the game, and
// where the piece locked. When two placements give the same outcome (only
// possible when lines clear), Placed is the first one generated.
type Outcome struct {
	Well     Well
	Lines    int
	GameOver bool
	// Placed holds the locked piece's cells before any line cleared: the
	// spawn well with Placed.Cells[i] ORed into row Placed.Y+i is the well
	// at the lock.
	Placed Placement
}

// Generator enumerates placements. It holds scratch space, so use one per
// goroutine; it never allocates after creation (Outcomes appends to the
// caller's slice, which allocates only if its capacity is short).
type Generator struct {
	r   *Rules
	ext extRows
	// lev[y]: resting slots with the box's top row at y (indexed y&63);
	// clr[y]: those of them that clear a line, where a line can clear.
	lev    [64]uint64
	clr    [64]uint64
	y0, y1 int // levels y0 <= y < y1 were written
	top    int // Peak of the current well
	// nf: rows the current piece could complete (bit y); nfBy[k]: rows
	// with 1..k empty cells (a piece fills at most 2, 3 or 4 per row).
	nf   uint64
	nfBy [5]uint64
	// open[k]: the columns (as row bits) empty in every row above row k.
	open [64]uint16
	well *Well
	buf  []Outcome

	// The levels of the best piece of the last Mild choice.
	slev       [64]uint64
	sclr       [64]uint64
	sy0, sy1   int
	saved      Piece
	savedInLev bool // the saved piece's levels are still in lev
	complete   bool // the last scan wrote every level
	scomplete  bool
}

// NewGenerator returns a generator for the given rules.
func NewGenerator(r *Rules) *Generator {
	g := &Generator{r: r}
	// Below the well: the floor, as full rows, which no column is open
	// through (open[k] stays 0 for k > Depth).
	for y := r.Depth; y < r.Depth+4; y++ {
		g.ext[y] = r.full
	}
	return g
}

// Rules returns the generator's rules.
func (g *Generator) Rules() *Rules { return g.r }

// load prepares the extended rows of w and reports whether w is a real
// well (non-empty rows contiguous from the peak to the floor), which the
// fast path needs.
func (g *Generator) load(w *Well) bool {
	r := g.r
	g.well = w
	// The rows, the empty ones above the peak included, in one fixed
	// copy (rows past the depth are zero); then the floor again.
	*(*Well)(g.ext[:MaxDepth]) = *w
	g.ext[r.Depth], g.ext[r.Depth+1], g.ext[r.Depth+2] = r.full, r.full, r.full
	g.ext[(r.Depth+3)&63] = r.full
	// The peak: the first non-empty row, four rows a test.
	top := r.Depth
	for y := 0; y < r.Depth; y += 4 {
		if x := rows4(w, y); x != 0 {
			top = min(y+bits.TrailingZeros64(x)/16, r.Depth)
			break
		}
	}
	g.top = top
	// nfK: rows with 1..K empty cells (K = 1..4), without branches; the
	// rows are read from the floor up, each shifting the masks by one
	// (a constant shift: cheaper than a shift by y), and the masks are
	// moved to row top at the end.
	var nf1, nf2, nf3, nf4 uint64
	contiguous := true
	if r.Depth-top <= 16 {
		// Up to 16 rows: the four masks in the 16-bit fields of one word
		// (one shift and one OR a row; four masks kept apart spill).
		var nf uint64
		var empty uint16 // 1 if a row from the peak down is empty
		for y := r.Depth - 1; y >= top; y-- {
			v := w[y]
			if v == 0 {
				empty = 1
			}
			nf = nf<<1 | nearlyFields[(r.Width-bits.OnesCount16(v))&31]
		}
		contiguous = empty == 0
		nf1, nf2, nf3, nf4 = nf&0xffff, nf>>16&0xffff, nf>>32&0xffff, nf>>48
	} else {
		for y := r.Depth - 1; y >= top; y-- {
			v := w[y]
			contiguous = contiguous && v != 0
			k := uint64(nearlyFull[(r.Width-bits.OnesCount16(v))&31])
			nf1 = nf1<<1 | k&1
			nf2 = nf2<<1 | k>>1&1
			nf3 = nf3<<1 | k>>2&1
			nf4 = nf4<<1 | k>>3
		}
	}
	nf1, nf2, nf3, nf4 = nf1<<uint(top), nf2<<uint(top), nf3<<uint(top), nf4<<uint(top)
	if r.Width <= 4 {
		// An empty row is nearly full too (an I fills it).
		nf4 |= 1<<uint(top) - 1
	}
	g.nfBy[1], g.nfBy[2], g.nfBy[3], g.nfBy[4] = nf1, nf2, nf3, nf4
	// Real: every row from the peak down to the floor is non-empty. A
	// stack reaching into the spawn box (only with a bar of 1..3, or a
	// well already over) may overlap a spawning piece: the real game
	// spawns it anyway, which the breadth-first search handles (Rules.walk).
	if top < 4 && contiguous {
		return g.spawnsFit()
	}
	return contiguous
}

// loadOpen fills open for the loaded well: only the Mild choice's
// dropReaches reads it, so load leaves it to the Mild choice.
func (g *Generator) loadOpen() {
	r := g.r
	full := r.full
	for y := 0; y < g.top; y++ {
		g.open[y&63] = full
	}
	open := full
	for y := g.top; y < r.Depth; y++ {
		g.open[y&63] = open
		open &^= g.ext[y&63]
	}
	g.open[r.Depth&63] = open
}

// spawnsFit reports whether every piece's spawn position lies on empty
// cells of the loaded well.
func (g *Generator) spawnsFit() bool {
	for p := range g.r.pieces {
		t := &g.r.pieces[p]
		if t.free(&g.ext, 0)&t.spawnBit == 0 {
			return false
		}
	}
	return true
}

// nearlyFull[h]: bit K-1 set when a row with h empty cells has 1..K of
// them (K = 1..4).
var nearlyFull = [32]uint8{1: 0b1111, 2: 0b1110, 3: 0b1100, 4: 0b1000}

// nearlyFields[h] is nearlyFull[h] with bit K-1 moved to bit 16(K-1): the
// row's bit of the four masks, one 16-bit field each.
var nearlyFields = func() (t [32]uint64) {
	for h, k := range nearlyFull {
		for b := 0; b < 4; b++ {
			t[h] |= uint64(k>>b&1) << (16 * b)
		}
	}
	return t
}()

// scan fills lev[] for piece p on the loaded well and returns the piece's
// AI value (the best Peak over its outcomes; -1 if it has none).
//
// With bound >= 0 only the value matters, and the scan may stop early:
// as soon as the value reaches bound (the piece cannot beat the best piece
// so far), or once it reaches the old peak with no nearly full row left
// below (no deeper placement can do better). g.complete tells whether
// lev[] holds every level; clr[] holds the line-clearing slots of the
// levels where a line can clear (for the build that may follow).
func (g *Generator) scan(p Piece, bound int) int {
	t := &g.r.pieces[p]
	y, reach := g.start(t)
	g.y0 = y
	nf := g.nfBy[t.rowCells]
	g.nf = nf
	g.complete = false
	top, deepTop := g.top, t.groupTop[0]
	value := -1
	for reach != 0 {
		var fn uint64
		if t.wide {
			fn = t.freeWide(&g.ext, y+1)
		} else {
			fn = t.freeNarrow(&g.ext, y+1)
		}
		rest := reach &^ fn
		g.lev[y&63] = rest
		if rest != 0 {
			clearable := (nf>>uint(y))&0xf != 0
			// Without a possible clear, no slot here beats the
			// deepest-topped group's value; skip the level when that
			// cannot raise the value.
			if clearable || min(top, y+deepTop) > value {
				var v int
				if clearable {
					v = g.levelValue(t, y, rest)
				} else {
					v = g.plainValue(t, y, rest)
				}
				value = max(value, v)
				if bound >= 0 && (value >= bound || value >= top && nf>>uint(y) == 0) {
					g.y1 = y + 1
					return value
				}
			}
		}
		if reach &= fn; reach != fn {
			reach = t.flood(reach, fn)
		}
		y++
	}
	g.y1 = y
	g.complete = true
	return value
}

// plainValue is levelValue where no line can clear: the deepest-topped
// group with a resting slot decides.
func (g *Generator) plainValue(t *pieceTables, y int, rest uint64) int {
	for i := 0; i < t.groups; i++ {
		if rest&t.groupMsk[i&3] != 0 {
			return min(g.top, y+t.groupTop[i&3])
		}
	}
	return -1
}

// dropReaches reports whether piece t, dropped straight down from above
// the stack, can come to rest with its top row at v or below: then its
// value is at least v (for v up to the peak; lines only add). It needs the
// empty rows above the stack (peak >= 4), where every slot is reachable.
// It is cheap (a few word operations per orientation), so the Mild choice
// tries it before scanning a piece that only has to be shown to lose.
func (g *Generator) dropReaches(t *pieceTables, v int) bool {
	for i := 0; i < t.nDrops; i++ {
		d := &t.drops[i]
		m := ^uint32(0)
		for j := 0; j < d.n; j++ {
			m &= uint32(g.open[(v+d.k[j])&63]) << uint(j)
		}
		if m != 0 {
			return true
		}
	}
	return false
}

// start returns the first box row to scan for piece t and the slots the
// spawned piece reaches there: every slot four rows above the stack (all
// of them are reachable in the empty rows), else the spawn's flood at row 0.
func (g *Generator) start(t *pieceTables) (y int, reach uint64) {
	if g.top >= 4 {
		return g.top - 4, t.valid
	}
	f := t.free(&g.ext, 0)
	return 0, t.flood(t.spawnBit&f, f)
}

// clearSets returns the slots of rest clearing at least 1, 2, 3 and 4 lines.
func (g *Generator) clearSets(t *pieceTables, y int, rest uint64) (k1, k2, k3, k4 uint64) {
	r := g.r
	var c [4]uint64
	nf := g.nf >> uint(y) // one shift by y, not one per box row
	for br := 0; br < 4; br++ {
		if nf&(1<<uint(br)) != 0 {
			c[br] = t.fills(br, r.full^g.ext[(y+br)&63]) & rest
		}
	}
	if !r.ClearAboveBar && y < r.Bar {
		over := t.overTop[min(r.Bar-y, 3)]
		if r.Bar-y > 3 {
			over = t.valid
		}
		for br := range c {
			c[br] &^= over
		}
	}
	k1 = c[0] | c[1] | c[2] | c[3]
	if k1 == 0 {
		return
	}
	k2 = c[0]&c[1] | c[0]&c[2] | c[0]&c[3] | c[1]&c[2] | c[1]&c[3] | c[2]&c[3]
	k3 = c[0]&c[1]&c[2] | c[0]&c[1]&c[3] | c[0]&c[2]&c[3] | c[1]&c[2]&c[3]
	k4 = c[0] & c[1] & c[2] & c[3]
	return
}

// levelValue is the best Peak over the outcomes of the resting slots rest
// at box row y: min(old peak, piece top) plus the lines cleared (the
// non-empty rows of a real well are contiguous from the floor).
func (g *Generator) levelValue(t *pieceTables, y int, rest uint64) int {
	if (g.nf>>uint(y))&0xf == 0 {
		return g.plainValue(t, y, rest)
	}
	k1, k2, k3, k4 := g.clearSets(t, y, rest)
	g.clr[y&63] = k1
	best := -1
	for i := 0; i < t.groups; i++ {
		s := rest & t.groupMsk[i]
		if s == 0 {
			continue
		}
		v := min(g.top, y+t.groupTop[i])
		switch {
		case s&k4 != 0:
			v += 4
		case s&k3 != 0:
			v += 3
		case s&k2 != 0:
			v += 2
		case s&k1 != 0:
			v++
		}
		best = max(best, v)
	}
	return best
}

// dedupLevels removes, in place, slots whose cells duplicate a slot of a
// lower orientation that is also resting (S, Z, I and O have such pairs).
// With clearsOnly it only edits the levels that hold a line-clearing slot
// (g.nf set for the piece): the only ones a clears-only build reads.
func (g *Generator) dedupLevels(t *pieceTables, clearsOnly bool) {
	// Each rule reads the slots of the lowest orientation of its class
	// (never itself a rule's b), so removing b slots in place is safe.
	// The shift of a rule's a slots is a rotation: none leaves the word
	// (TestRotationsStayInWord), and a rotation takes no branch on the
	// shift's sign.
	y0, y1 := g.y0, g.y1
	if clearsOnly {
		// The levels with a line-clearing resting slot, gathered once (a
		// level whose clearing slots an earlier rule removes is edited
		// all the same: it loses b slots, which no rule reads and which
		// the build no longer reads there).
		var want uint64
		ny := g.nf >> uint(y0)
		for y := y0; y < y1; y, ny = y+1, ny>>1 {
			if ny&0xf != 0 && g.clr[y&63]&g.lev[y&63] != 0 {
				want |= 1 << uint(y&63)
			}
		}
		for i := 0; want != 0 && i < t.nDups; i++ {
			d := &t.dups[i]
			lo, hi := max(y0, y0-d.dy), min(y1, y1-d.dy)
			for m := want; m != 0; m &= m - 1 {
				if y := bits.TrailingZeros64(m); y >= lo && y < hi {
					g.lev[y] &^= bits.RotateLeft64(g.lev[(y+d.dy)&63]&t.block[d.a], d.sh) & t.block[d.b]
				}
			}
		}
		return
	}
	for i := 0; i < t.nDups; i++ {
		d := &t.dups[i]
		for y := max(y0, y0-d.dy); y < min(y1, y1-d.dy); y++ {
			g.lev[y&63] &^= bits.RotateLeft64(g.lev[(y+d.dy)&63]&t.block[d.a], d.sh) & t.block[d.b]
		}
	}
}

// Outcomes appends to dst every distinct outcome of piece p in well w
// (game-ending ones included) and returns the extended slice. The order is
// deterministic: by box row, then by slot.
func (g *Generator) Outcomes(w *Well, p Piece, dst []Outcome) []Outcome {
	if !g.load(w) {
		return g.slowResults(w, p, dst)
	}
	g.scan(p, -1)
	return g.buildResults(p, dst, false)
}

// ClearingOutcomes appends the outcomes of p in w that clear at least one
// line: Outcomes without the others, in the same order (what a
// quiescence lookahead follows, without building the wells it skips).
func (g *Generator) ClearingOutcomes(w *Well, p Piece, dst []Outcome) []Outcome {
	if !g.load(w) {
		start := len(dst)
		dst = g.slowResults(w, p, dst)
		kept := dst[:start]
		for _, res := range dst[start:] {
			if res.Lines > 0 {
				kept = append(kept, res)
			}
		}
		return kept
	}
	g.scanClears(p)
	return g.buildResults(p, dst, true)
}

// scanClears is scan for ClearingOutcomes: it records the resting slots
// (lev) and the line-clearing ones (clr) of every level down to the last
// whose box holds a nearly full row, and stops there (no deeper slot can
// clear a line; dedupLevels only ever removes a slot whose twin has the
// same cells, so the clearing slots it keeps are scan's).
func (g *Generator) scanClears(p Piece) {
	t := &g.r.pieces[p]
	y, reach := g.start(t)
	g.y0 = y
	nf := g.nfBy[t.rowCells]
	g.nf = nf
	g.complete = false
	for reach != 0 && nf>>uint(y) != 0 {
		fn := t.free(&g.ext, y+1)
		rest := reach &^ fn
		g.lev[y&63] = rest
		if rest != 0 && (nf>>uint(y))&0xf != 0 {
			g.clr[y&63], _, _, _ = g.clearSets(t, y, rest)
		}
		if reach &= fn; reach != fn {
			reach = t.flood(reach, fn)
		}
		y++
	}
	g.y1 = y
}

// SingleClears appends the outcomes a quiescence chain follows from w: the
// first piece in S Z O I L J T order that cannot clear two or more lines
// at once (the AI never sends one that can) and, if it can clear one line,
// its outcomes that do (ClearingOutcomes: all clear exactly one), in
// ClearingOutcomes' order; nothing if it clears none. It returns the
// piece too (meaningless when nothing was appended). The well is loaded
// once for all the pieces it tries.
func (g *Generator) SingleClears(w *Well, dst []Outcome) ([]Outcome, Piece) {
	if !g.load(w) {
		for p := Piece(0); p < NumPieces; p++ {
			switch n := g.MaxClear(w, p); {
			case n >= 2:
				continue
			case n == 1:
				return g.ClearingOutcomes(w, p, dst), p
			}
			return dst, p
		}
		return dst, 0
	}
	for p := Piece(0); p < NumPieces; p++ {
		switch n := g.maxClear(p); {
		case n >= 2:
			continue
		case n == 1:
			// maxClear left p's levels as scanClears would.
			return g.buildResults(p, dst, true), p
		}
		return dst, p
	}
	return dst, 0
}

// buildResults turns the scanned levels of p into distinct wells (with
// clearsOnly, only those of the slots that clear a line).
func (g *Generator) buildResults(p Piece, dst []Outcome, clearsOnly bool) []Outcome {
	r := g.r
	t := &r.pieces[p]
	g.nf = g.nfBy[t.rowCells]
	g.dedupLevels(t, clearsOnly)
	start := len(dst)
	// ny: the nearly-full rows from y down (shifted by one a level).
	ny := g.nf >> uint(g.y0)
	for y := g.y0; y < g.y1; y, ny = y+1, ny>>1 {
		rest := g.lev[y&63]
		if rest == 0 {
			continue
		}
		// Slots that clear lines, and slots with a cell above the bar.
		var clears, above uint64
		if ny&0xf != 0 {
			clears = g.clr[y&63] & rest // the scan's
		}
		if clearsOnly {
			if rest = clears; rest == 0 {
				continue
			}
		}
		if y < r.Bar {
			above = t.valid
			if r.Bar-y <= 3 {
				above = t.overTop[r.Bar-y]
			}
		}
		y0, y1, y2, y3 := y&(MaxDepth-1), (y+1)&(MaxDepth-1), (y+2)&(MaxDepth-1), (y+3)&(MaxDepth-1)
		for rest != 0 {
			s := bits.TrailingZeros64(rest)
			bit := rest & -rest
			rest &= rest - 1
			n := len(dst)
			if n == cap(dst) {
				dst = append(dst, Outcome{})
			} else {
				dst = dst[:n+1]
			}
			res := &dst[n]
			res.Well = *g.well
			res.Lines, res.GameOver = 0, false
			// Rows past the depth get zeros: a resting piece is inside.
			pr := &t.rows[s]
			res.Placed.Y, res.Placed.Cells = y, *pr
			res.Well[y0] |= pr[0]
			res.Well[y1] |= pr[1]
			res.Well[y2] |= pr[2]
			res.Well[y3] |= pr[3]
			if clears&bit != 0 {
				for br := 0; br < 4; br++ {
					yy := y + br
					if yy < r.Depth && pr[br] != 0 && res.Well[yy] == r.full {
						copy(res.Well[1:yy+1], res.Well[0:yy])
						res.Well[0] = 0
						res.Lines++
					}
				}
				if dupOf(dst[start:n], res) {
					dst = dst[:n]
					continue
				}
			}
			if above&bit != 0 {
				res.GameOver = !r.ClearAboveBar || r.IsOver(&res.Well)
			}
		}
	}
	return dst
}

// dupOf reports whether res's well is already among rs (only line-clearing
// outcomes can coincide after the box duplicates are removed).
func dupOf(rs []Outcome, res *Outcome) bool {
	for i := range rs {
		if rs[i].Lines == res.Lines && rs[i].Well == res.Well {
			return true
		}
	}
	return false
}

// rows4 is rows i..i+3 of w as one word (row i in the low bits; one load).
func rows4(w *Well, i int) uint64 {
	r := (*[4]uint16)(w[i : i+4])
	return uint64(r[0]) | uint64(r[1])<<16 | uint64(r[2])<<32 | uint64(r[3])<<48
}

// Value returns the AI's height measure for piece p in w: the best Peak
// (topmost filled row index after clears, Depth if empty) the player can
// reach with p, or -1 if p has no placement.
func (g *Generator) Value(w *Well, p Piece) int {
	if !g.load(w) {
		return g.slowValue(w, p)
	}
	return g.scan(p, -1)
}

// SortOutcomes orders results by their rows compared top row first (the
// order of the project's vectors and of `hatelab moves`).
func SortOutcomes(r *Rules, rs []Outcome) {
	slices.SortFunc(rs, func(a, b Outcome) int { return slices.Compare(a.Well[:r.Depth], b.Well[:r.Depth]) })
}
