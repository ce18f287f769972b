package hatetris

// Position is a live piece's box: top-left corner (X, Y) in well
// coordinates and orientation O (0..3).
type Position struct{ X, Y, O int }

// Spawn is where every piece appears: box column SpawnX, row 0, orientation 0.
func (r *Rules) Spawn() Position { return Position{X: r.spawnX} }

// Fits reports whether piece p at pos lies inside the well on empty cells.
func (r *Rules) Fits(w *Well, p Piece, pos Position) bool {
	for _, c := range boxCells[p][pos.O&3] {
		x, y := pos.X+int(c[0]), pos.Y+int(c[1])
		if x < 0 || x >= r.Width || y < 0 || y >= r.Depth || r.Filled(w, x, y) {
			return false
		}
	}
	return true
}

// Lock places piece p at pos (cells it overlaps stay filled: see walk) and applies the rules: line
// clears (only when the piece's top is at or below the bar, unless
// ClearAboveBar) and game over (a block left above the bar).
func (r *Rules) Lock(w *Well, p Piece, pos Position) Outcome {
	res := Outcome{Well: *w}
	res.Placed.Y = pos.Y
	for _, c := range boxCells[p][pos.O&3] {
		res.Well[pos.Y+int(c[1])] |= r.Bit(pos.X + int(c[0]))
		res.Placed.Cells[c[1]] |= r.Bit(pos.X + int(c[0]))
	}
	_, _, minR, maxR := boxExtent(p, pos.O&3)
	if pos.Y+minR >= r.Bar || r.ClearAboveBar {
		for y := pos.Y + minR; y <= pos.Y+maxR; y++ {
			if res.Well[y] == r.full {
				copy(res.Well[1:y+1], res.Well[0:y])
				res.Well[0] = 0
				res.Lines++
			}
		}
	}
	res.GameOver = r.IsOver(&res.Well)
	return res
}

// step applies one key to pos; ok is false when the move is illegal.
func (r *Rules) step(w *Well, p Piece, pos Position, key byte) (Position, bool) {
	switch key {
	case 'L':
		pos.X--
	case 'R':
		pos.X++
	case 'D':
		pos.Y++
	case 'U':
		pos.O = (pos.O + 1) & 3
	}
	return pos, r.Fits(w, p, pos)
}

// posIndex numbers positions for the breadth-first searches below.
func (r *Rules) posIndex(pos Position) int {
	return ((pos.Y*(r.Width+3))+(pos.X+3))*4 + pos.O
}

func (r *Rules) numPositions() int { return r.Depth * (r.Width + 3) * 4 }

const keyOrder = "LRDU"

// walk runs the game's breadth-first search over positions from the spawn
// (keys L R D U in that order) and calls visit for every position from
// which D locks the piece. visit returns false to stop. prev, if non-nil,
// receives each visited position's predecessor and key for path rebuilding.
//
// As in the real game (logic.ts: placeNewPiece, then getNextCoreStates),
// the piece spawns even when its cells overlap blocks, which a bar of 1..3
// allows (the spawn box's rows Bar..3 are below the bar). From there a move
// is legal only onto empty cells, and an illegal D locks the piece where it
// is: at the overlapping spawn its cells are ORed into the well (Lock), so
// the outcome has fewer new cells. The real game also first drops the piece
// through empty rows, and throws ("This should be impossible", halting the
// game) if such a drop collides; the outcomes here are those of the plain
// search from the true spawn, which equal the game's wherever it does not
// halt.
func (r *Rules) walk(w *Well, p Piece, prev []int32, visit func(pos Position, idx int) bool) {
	start := r.Spawn()
	seen := make([]bool, r.numPositions())
	queue := []Position{start}
	seen[r.posIndex(start)] = true
	if prev != nil {
		prev[r.posIndex(start)] = -1
	}
	for len(queue) > 0 {
		pos := queue[0]
		queue = queue[1:]
		for k := 0; k < 4; k++ {
			next, ok := r.step(w, p, pos, keyOrder[k])
			if !ok {
				if k == 2 && !visit(pos, r.posIndex(pos)) {
					return
				}
				continue
			}
			i := r.posIndex(next)
			if seen[i] {
				continue
			}
			seen[i] = true
			if prev != nil {
				prev[i] = int32(r.posIndex(pos)<<2 | k)
			}
			queue = append(queue, next)
		}
	}
}

// NaiveOutcomes enumerates the distinct outcomes of p exactly as the real
// game does (a breadth-first search over positions). It is the reference
// the fast generator is tested against, and handles any well.
func (r *Rules) NaiveOutcomes(w *Well, p Piece) []Outcome {
	var out []Outcome
	seen := map[Well]bool{}
	r.walk(w, p, nil, func(pos Position, _ int) bool {
		res := r.Lock(w, p, pos)
		if !seen[res.Well] {
			seen[res.Well] = true
			out = append(out, res)
		}
		return true
	})
	return out
}

// KeysTo returns the shortest key sequence (ending with the locking D) that
// takes piece p from the spawn to a lock whose outcome is the well target.
// Ties between equally short sequences go to the one found first by the
// breadth-first search with keys tried in the order L R D U.
func (r *Rules) KeysTo(w *Well, p Piece, target *Well) (string, bool) {
	prev := make([]int32, r.numPositions())
	var keys string
	found := false
	r.walk(w, p, prev, func(pos Position, idx int) bool {
		if res := r.Lock(w, p, pos); res.Well != *target {
			return true
		}
		var b []byte
		b = append(b, 'D')
		for i := idx; prev[i] >= 0; i = int(prev[i] >> 2) {
			b = append(b, keyOrder[prev[i]&3])
		}
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		keys, found = string(b), true
		return false
	})
	return keys, found
}

func (g *Generator) slowResults(w *Well, p Piece, dst []Outcome) []Outcome {
	return append(dst, g.r.NaiveOutcomes(w, p)...)
}

func (g *Generator) slowValue(w *Well, p Piece) int {
	best := -1
	for _, res := range g.r.NaiveOutcomes(w, p) {
		best = max(best, g.r.Peak(&res.Well))
	}
	return best
}
