package hatetris

// This file holds the reach query of the evaluations (the S piece's
// surface height, engine/eval). Like the generator's other queries it loads
// the well into the generator's scratch state (every public entry reloads).

// LowestRow returns the lowest row (the largest row index) that a cell of
// piece p reaches over every placement of p in w the game's moves allow
// from the spawn, game-ending ones included, taken at the lock, before any
// line it completes is cleared; -1 if p has no placement (which the game's
// rules never give: a spawned piece always locks somewhere, if need be at
// the spawn). The lowest row any reachable position of p reaches is that of
// a placement, since a reachable position can always drop to a lock. It
// allocates nothing on a real well (Outcomes' fast path).
//
// Outcomes' Placed does not give it in general: of two placements whose
// clears leave the same well Outcomes keeps one, the first generated (by
// box row), which can hide a lower one; LowestRow reads the resting slots
// themselves, as the flood finds them.
func (g *Generator) LowestRow(w *Well, p Piece) int {
	if !g.load(w) {
		return g.slowLowestRow(w, p)
	}
	t := &g.r.pieces[p]
	y, reach := g.start(t)
	low := -1
	// Level by level, as scan floods: the resting slots at box row y are
	// the reached ones that cannot move down; the lowest of them reaches
	// row y plus its lowest box row with a cell.
	for reach != 0 {
		fn := t.free(&g.ext, y+1)
		if rest := reach &^ fn; rest != 0 {
			for br := 3; br >= 0 && y+br > low; br-- {
				if rest&t.rowUsed[br] != 0 {
					low = y + br
					break
				}
			}
		}
		if reach &= fn; reach != fn {
			reach = t.flood(reach, fn)
		}
		y++
	}
	return low
}

// slowLowestRow is LowestRow by the game's breadth-first search (Rules.walk),
// for any well.
func (g *Generator) slowLowestRow(w *Well, p Piece) int {
	low := -1
	g.r.walk(w, p, nil, func(pos Position, _ int) bool {
		_, _, _, maxR := boxExtent(p, pos.O&3)
		low = max(low, pos.Y+maxR)
		return true
	})
	return low
}
