package beam

import "github.com/hatelab/hatelab/engine/hatetris"

// pathHist is the loop-rule memory of one kept well: the wells on its path
// (root and itself included) that a child could repeat. A child of a well
// with c cells has c+4-Width*k cells (k lines cleared, 0..4), and equal
// wells have equal cell counts, so only the path wells with one of those
// counts are kept, by hash. Count answers the AI exactly as the real
// game's memory would, up to 64-bit hash collisions (every emitted replay
// is checked against the real game).
type pathHist struct {
	want   [5]int
	hashes []uint64
}

// reset prepares the candidate cell counts for children of a well with c
// cells.
func (h *pathHist) reset(r *hatetris.Rules, c int) {
	for k := range h.want {
		h.want[k] = c + 4 - r.Width*k
	}
	h.hashes = h.hashes[:0]
}

func (h *pathHist) wants(c int) bool {
	return c == h.want[0] || c == h.want[1] || c == h.want[2] || c == h.want[3] || c == h.want[4]
}

// Count implements hatetris.History.
func (h *pathHist) Count(w *hatetris.Well) int {
	if !h.wants(cellsOf(w)) {
		return 0
	}
	x := hashWell(w)
	n := 0
	for _, y := range h.hashes {
		if y == x {
			n++
		}
	}
	return n
}

// expander makes one step of the real game for a well with a path
// history: the AI's piece under the loop rule and that piece's outcomes.
type expander struct {
	g    *hatetris.Generator
	hist pathHist
	buf  []hatetris.Outcome
	// allRepeat tells that every piece of the last expansion led back to a
	// path well (the AI then sends the one seen least often).
	allRepeat bool
}

// expand returns the piece HATETRIS sends, the piece Mild would send and
// the outcomes of the sent piece (valid until the next call). h.hashes
// must hold the candidate path wells.
func (e *expander) expand(w *hatetris.Well) (sent, mild hatetris.Piece, res []hatetris.Outcome) {
	e.allRepeat = false
	if len(e.hist.hashes) == 0 {
		// No outcome can repeat a path well: the choice is Mild's.
		sent, e.buf = e.g.Move(w, hatetris.Mild, nil, e.buf[:0])
		return sent, sent, e.buf
	}
	sent, mild, loops, out := e.g.RankedMove(w, &e.hist, e.buf[:0])
	e.buf = out
	e.allRepeat = loops > 0
	return sent, mild, e.buf
}
