package flats

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Move is one lock seen row by row: B is the well before the piece, M the
// well with the piece's cells added before any clear, and Cleared has bit
// y set for each row y of M that the lock cleared. A game-ending lock is
// not a Move (flats ignore it; Tracker.End makes the live ones immortal).
type Move struct {
	B, M    hatetris.Well
	Cleared uint32
}

// FromPlacement builds the move of a line-free placement (LiveMoves'
// plain outcomes) on well b.
func FromPlacement(b *hatetris.Well, p *hatetris.Placement) Move {
	m := Move{B: *b, M: *b}
	for i, c := range p.Cells {
		if c != 0 {
			m.M[p.Y+i] |= c
		}
	}
	return m
}

// FromOutcome builds the move of a live outcome res of a piece on well b,
// from the cells the engine reports (res.Placed). It returns an error for
// a game-ending outcome or cells that do not give res.
func FromOutcome(r *hatetris.Rules, b *hatetris.Well, res *hatetris.Outcome) (Move, error) {
	if res.GameOver {
		return Move{}, fmt.Errorf("flats: a game-ending outcome is not a move")
	}
	m := FromPlacement(b, &res.Placed)
	if res.Lines > 0 {
		m.Cleared = fullRows(r, &m.M)
	}
	if n := popcount32(m.Cleared); n != res.Lines || m.After(r) != res.Well {
		return Move{}, fmt.Errorf("flats: the placed cells do not give the outcome (%d of %d lines)", n, res.Lines)
	}
	return m, nil
}

// FromStep builds the move of a replayed game's step from the cells the
// step kept (Step.Placed; a step without them is locked again with
// Rules.Lock, which reports them). ok is false for the game-ending lock.
func FromStep(r *hatetris.Rules, s *hatetris.Step) (m Move, ok bool) {
	placed, over, lines := &s.Placed, s.GameOver, s.Lines
	if placed.Cells == ([4]uint16{}) {
		res := r.Lock(&s.Before, s.Piece, s.Lock)
		placed, over, lines = &res.Placed, res.GameOver, res.Lines
	}
	if over {
		return Move{}, false
	}
	m = FromPlacement(&s.Before, placed)
	if lines > 0 {
		m.Cleared = fullRows(r, &m.M)
	}
	return m, true
}

// After returns the well after the move's clears (what the engine gives).
func (m *Move) After(r *hatetris.Rules) hatetris.Well {
	w := m.M
	if m.Cleared == 0 {
		return w
	}
	var out hatetris.Well
	j := r.Depth - 1
	for y := r.Depth - 1; y >= 0; y-- {
		if m.Cleared&(1<<uint(y)) == 0 {
			out[j] = w[y]
			j--
		}
	}
	return out
}

// fullRows returns the full rows of w as bits.
func fullRows(r *hatetris.Rules, w *hatetris.Well) uint32 {
	full := r.FullRow()
	var c uint32
	for y := 0; y < r.Depth; y++ {
		if w[y] == full {
			c |= 1 << uint(y)
		}
	}
	return c
}

func popcount32(v uint32) int {
	n := 0
	for ; v != 0; v &= v - 1 {
		n++
	}
	return n
}
