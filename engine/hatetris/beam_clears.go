package hatetris

// This file holds the line-clear queries of the beam search and its
// evaluations (erasability, quiescence); it only reads the generator's
// tables.

// MaxClears returns, for each piece, the most lines one of its placements
// in w can clear (0 if none can; game-ending placements never count, as no
// line clears when a piece locks above the bar). It allocates nothing.
func (g *Generator) MaxClears(w *Well, out *[NumPieces]int) {
	*out = [NumPieces]int{}
	if !g.load(w) {
		for p := Piece(0); p < NumPieces; p++ {
			g.buf = g.slowResults(w, p, g.buf[:0])
			for i := range g.buf {
				if !g.buf[i].GameOver {
					out[p] = max(out[p], g.buf[i].Lines)
				}
			}
		}
		return
	}
	for p := Piece(0); p < NumPieces; p++ {
		out[p] = g.maxClear(p)
	}
}

// MaxClear is MaxClears for one piece.
func (g *Generator) MaxClear(w *Well, p Piece) int {
	if !g.load(w) {
		n := 0
		g.buf = g.slowResults(w, p, g.buf[:0])
		for i := range g.buf {
			if !g.buf[i].GameOver {
				n = max(n, g.buf[i].Lines)
			}
		}
		return n
	}
	return g.maxClear(p)
}

// maxClear floods piece p down the loaded well, only as deep as a nearly
// full row remains below, and returns the most lines a resting slot
// completes. Unless it returns 4 (it stops at the first slot clearing
// four) or the piece cannot clear a line at all (nf empty), it leaves the
// levels as scanClears(p) would (the same flood, row by row), so that
// SingleClears can build the outcomes without a second scan.
func (g *Generator) maxClear(p Piece) int {
	t := &g.r.pieces[p]
	nf := g.nfBy[t.rowCells]
	if nf == 0 {
		return 0
	}
	g.nf = nf
	y, reach := g.start(t)
	g.y0 = y
	g.complete = false
	best := 0
	r := g.r
	full := r.full
	// Rows above the bar cannot clear: the box rows of a level above it
	// lose the slots with a cell there (clearSets' rule).
	barCheck := !r.ClearAboveBar
	// ny: nf from row y down, shifted by one a level (a shift by y per
	// level costs more). clearSets and flood are written out in the loop:
	// calls there spill the loop's registers.
	for ny := nf >> uint(y); reach != 0 && ny != 0; ny >>= 1 {
		var fn uint64
		if t.wide {
			fn = t.freeWide(&g.ext, y+1)
		} else {
			fn = t.freeNarrow(&g.ext, y+1)
		}
		rest := reach &^ fn
		g.lev[y&63] = rest
		if rest != 0 && ny&0xf != 0 {
			var c0, c1, c2, c3 uint64
			if ny&1 != 0 {
				c0 = t.fills(0, full^g.ext[y&63]) & rest
			}
			if ny&2 != 0 {
				c1 = t.fills(1, full^g.ext[(y+1)&63]) & rest
			}
			if ny&4 != 0 {
				c2 = t.fills(2, full^g.ext[(y+2)&63]) & rest
			}
			if ny&8 != 0 {
				c3 = t.fills(3, full^g.ext[(y+3)&63]) & rest
			}
			if barCheck && y < r.Bar {
				over := t.valid
				if r.Bar-y <= 3 {
					over = t.overTop[r.Bar-y]
				}
				c0, c1, c2, c3 = c0&^over, c1&^over, c2&^over, c3&^over
			}
			k1 := c0 | c1 | c2 | c3
			g.clr[y&63] = k1
			if k1 != 0 {
				switch {
				case c0&c1&c2&c3 != 0:
					return 4
				case c0&c1&c2|c0&c1&c3|c0&c2&c3|c1&c2&c3 != 0:
					best = max(best, 3)
				case c0&c1|c0&c2|c0&c3|c1&c2|c1&c3|c2&c3 != 0:
					best = max(best, 2)
				default:
					best = max(best, 1)
				}
			}
		}
		if reach &= fn; reach != fn {
			// t.flood(reach, fn)
			for {
				u := t.spread(reach) & fn
				if u == reach {
					break
				}
				reach = u
			}
		}
		y++
	}
	g.y1 = y
	return best
}
