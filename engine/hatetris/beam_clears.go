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
	// ny: nf from row y down, shifted by one a level (a shift by y per
	// level costs more).
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
			k1, k2, k3, k4 := g.clearSets(t, y, rest)
			g.clr[y&63] = k1
			switch {
			case k4 != 0:
				return 4
			case k3 != 0:
				best = max(best, 3)
			case k2 != 0:
				best = max(best, 2)
			case k1 != 0:
				best = max(best, 1)
			}
		}
		if reach &= fn; reach != fn {
			reach = t.flood(reach, fn)
		}
		y++
	}
	g.y1 = y
	return best
}
