package beam

import "github.com/hatelab/hatelab/engine/hatetris"

// pathHist is the loop-rule memory of one kept well: the wells on its path
// (root and itself included) that a child could repeat. A child of a well
// with c cells has c+4-Width*k cells (k lines cleared, 0..4), and equal
// wells have equal cell counts, so only the path wells with one of those
// counts are kept, by hash, and by k too, so that a child is only
// compared with the path wells of its own cell count (and not hashed when
// there are none). Count answers the AI exactly as the real game's memory
// would, up to 64-bit hash collisions (every emitted replay is checked
// against the real game).
type pathHist struct {
	want   [5]int
	hashes []uint64 // every kept hash, in path order
	byK    [5][]uint64
	// mixed: hashes were added without their cell counts (the block
	// API's parents): Count then scans every hash.
	mixed bool
}

// reset prepares the candidate cell counts for children of a well with c
// cells.
func (h *pathHist) reset(r *hatetris.Rules, c int) {
	for k := range h.want {
		h.want[k] = c + 4 - r.Width*k
		h.byK[k] = h.byK[k][:0]
	}
	h.hashes = h.hashes[:0]
	h.mixed = false
}

func (h *pathHist) wants(c int) bool {
	return c == h.want[0] || c == h.want[1] || c == h.want[2] || c == h.want[3] || c == h.want[4]
}

// add keeps the hash x of a path well with c cells if a child could
// repeat it.
func (h *pathHist) add(c int, x uint64) {
	for k, v := range h.want {
		if c == v {
			h.hashes = append(h.hashes, x)
			h.byK[k] = append(h.byK[k], x)
			return
		}
	}
}

// addMixed keeps hashes whose cell counts are not known (wells a child
// could repeat).
func (h *pathHist) addMixed(xs []uint64) {
	h.hashes = append(h.hashes, xs...)
	h.mixed = h.mixed || len(xs) > 0
}

// Count implements hatetris.History.
func (h *pathHist) Count(w *hatetris.Well) int {
	c := cellsOf(w)
	hs := h.hashes
	if !h.mixed {
		hs = nil
		for k, v := range h.want {
			if c == v {
				hs = h.byK[k]
				break
			}
		}
	} else if !h.wants(c) {
		return 0
	}
	if len(hs) == 0 {
		return 0
	}
	x := hashWell(w)
	n := 0
	for _, y := range hs {
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
