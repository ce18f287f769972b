package hatetris

import "math/bits"

// Placement is an outcome that clears no line and does not end the game,
// given as the cells the piece adds: the outcome's well is the spawn well
// with Cells[i] ORed into row Y+i (the piece rests inside the well, so a
// row index past the depth always has zero cells).
type Placement struct {
	Y     int
	Cells [4]uint16
}

// LiveMoves is Move for searches that follow only live games, such as the
// exhaustive search: it returns the AI's piece and that piece's distinct
// outcomes that do not end the game, leaving the game-ending ones out. It
// appends to plain the outcomes that clear no line, as placements (no well
// is built for them), and to full the others as results; on a well whose
// non-empty rows are not contiguous from the floor every live outcome goes
// to full. Together they are exactly Move's outcomes with GameOver false.
func (g *Generator) LiveMoves(w *Well, ai AI, hist History, plain []Placement, full []Outcome) (Piece, []Placement, []Outcome) {
	g.saved = NumPieces
	p := g.Choose(w, ai, hist)
	if g.saved == p && g.well == w && g.scomplete {
		g.restoreLevels()
	} else if g.load(w) {
		g.scan(p, -1)
	} else {
		start := len(full)
		full = g.slowResults(w, p, full)
		n := start
		for i := start; i < len(full); i++ {
			if !full[i].GameOver {
				full[n] = full[i]
				n++
			}
		}
		return p, plain, full[:n]
	}
	plain, full = g.buildLive(p, plain, full)
	return p, plain, full
}

// buildLive is buildResults without the game-ending outcomes, the
// line-free ones given as placements.
func (g *Generator) buildLive(p Piece, plain []Placement, full []Outcome) ([]Placement, []Outcome) {
	r := g.r
	t := &r.pieces[p]
	g.nf = g.nfBy[t.rowCells]
	start := len(full)
	for y := g.y0; y < g.y1; y++ {
		rest := g.lev[y&63]
		if rest == 0 {
			continue
		}
		var clears, above uint64
		if (g.nf>>uint(y))&0xf != 0 {
			clears = g.clr[y&63] // the scan's
		}
		if y < r.Bar {
			above = t.valid
			if r.Bar-y <= 3 {
				above = t.overTop[r.Bar-y]
			}
			if rest&(^above|clears) == 0 {
				continue // every outcome here ends the game
			}
		}
		// Drop slots with the cells of a lower orientation's slot (as
		// dedupLevels does; the lower orientation's bits are never
		// removed, so reading them in any order is safe).
		for i := 0; i < t.nDups; i++ {
			d := &t.dups[i]
			if ya := y + d.dy; ya >= g.y0 && ya < g.y1 {
				rest &^= shift(g.lev[ya&63]&t.block[d.a], d.sh) & t.block[d.b]
			}
		}
		clears &= rest
		// A slot with a cell above the bar that clears nothing ends the
		// game under either rule; under the real rule nothing above the
		// bar clears (clearSets leaves such slots out).
		for s := rest &^ (clears | above); s != 0; s &= s - 1 {
			plain = append(plain, Placement{Y: y, Cells: t.rows[bits.TrailingZeros64(s)]})
		}
		y0, y1, y2, y3 := y&(MaxDepth-1), (y+1)&(MaxDepth-1), (y+2)&(MaxDepth-1), (y+3)&(MaxDepth-1)
		for s := rest & clears; s != 0; s &= s - 1 {
			bit := s & -s
			pr := &t.rows[bits.TrailingZeros64(s)]
			n := len(full)
			if n == cap(full) {
				full = append(full, Outcome{})
			} else {
				full = full[:n+1]
			}
			res := &full[n]
			res.Well = *g.well
			res.Lines, res.GameOver = 0, false
			res.Placed.Y, res.Placed.Cells = y, *pr
			res.Well[y0] |= pr[0]
			res.Well[y1] |= pr[1]
			res.Well[y2] |= pr[2]
			res.Well[y3] |= pr[3]
			for br := 0; br < 4; br++ {
				yy := y + br
				if yy < r.Depth && pr[br] != 0 && res.Well[yy] == r.full {
					copy(res.Well[1:yy+1], res.Well[0:yy])
					res.Well[0] = 0
					res.Lines++
				}
			}
			if above&bit != 0 && r.IsOver(&res.Well) || dupOf(full[start:n], res) {
				full = full[:n]
			}
		}
	}
	return plain, full
}
