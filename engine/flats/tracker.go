package flats

import (
	"fmt"
	"math/bits"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Kind names what a move does to one flat.
type Kind uint8

// The kinds of event. All but KindStay are edges of the (shape, height)
// graph; KindStay is dwell.
const (
	KindStay     Kind = iota // unchanged, not moved
	KindFall                 // unchanged, moved down by the rows cleared below it
	KindGrow                 // gained cells (and maybe fell)
	KindBorn                 // an empty row gained cells
	KindDie                  // its row was cleared (From may be Empty)
	KindImmortal             // alive at the game's end
)

var kindNames = [...]string{"stay", "fall", "grow", "born", "die", "immortal"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event is one flat's transition in one move.
type Event struct {
	From, To State
	Kind     Kind
	// Life is the flat's life slot (0..MaxDepth-1): unique among the
	// flats alive at the same time, reused after a death.
	Life int8
}

// Tracker follows the flats of one game: it keeps, for every row of the
// current well, the life slot of its flat, and compacts them on clears
// exactly as the engine compacts the rows. It never allocates.
type Tracker struct {
	r     *hatetris.Rules
	well  hatetris.Well
	life  [hatetris.MaxDepth]int8 // life slot per row (-1: empty row)
	free  uint32                  // free life slots
	depth int
}

// NewTracker returns a tracker on the empty well.
func NewTracker(r *hatetris.Rules) *Tracker {
	t := &Tracker{r: r, depth: r.Depth}
	t.Reset(nil, nil)
	return t
}

// Reset starts a game at well w (nil: the empty well) and appends to ev
// the births of w's non-empty rows (from Empty to their state).
func (t *Tracker) Reset(w *hatetris.Well, ev []Event) []Event {
	t.well = hatetris.Well{}
	t.free = ^uint32(0)
	for i := range t.life {
		t.life[i] = -1
	}
	if w == nil {
		return ev
	}
	t.well = *w
	for y := t.depth - 1; y >= 0; y-- {
		if w[y] != 0 {
			s := int8(bits.TrailingZeros32(t.free))
			t.free &^= 1 << uint(s)
			t.life[y] = s
			ev = append(ev, Event{From: Empty, To: MakeState(w[y], t.depth-1-y), Kind: KindBorn, Life: s})
		}
	}
	return ev
}

// Well returns the tracker's well (the engine's well after the moves).
func (t *Tracker) Well() *hatetris.Well { return &t.well }

// Life returns the life slot of row y's flat, or -1 for an empty row.
func (t *Tracker) Life(y int) int { return int(t.life[y]) }

// Apply plays move m, whose B must be the tracker's well, and appends one
// event per flat alive before or born by the move (top row first).
func (t *Tracker) Apply(m *Move, ev []Event) ([]Event, error) {
	if m.B != t.well {
		return ev, fmt.Errorf("flats: move from a well that is not the tracker's")
	}
	d := t.depth
	top := 0
	for top < d && m.M[top] == 0 {
		top++
	}
	// Rows below y cleared by the move, counted from the floor up.
	below := 0
	for y := d - 1; y >= top; y-- {
		b, mm := m.B[y], m.M[y]
		h := d - 1 - y
		cleared := m.Cleared&(1<<uint(y)) != 0
		s := t.life[y]
		if b == 0 {
			s = int8(bits.TrailingZeros32(t.free))
			t.free &^= 1 << uint(s)
			t.life[y] = s
			if cleared {
				ev = append(ev, Event{From: Empty, To: Cleared, Kind: KindDie, Life: s})
			} else {
				ev = append(ev, Event{From: Empty, To: MakeState(mm, h-below), Kind: KindBorn, Life: s})
			}
		} else {
			from := MakeState(b, h)
			switch {
			case cleared:
				ev = append(ev, Event{From: from, To: Cleared, Kind: KindDie, Life: s})
			case mm != b:
				ev = append(ev, Event{From: from, To: MakeState(mm, h-below), Kind: KindGrow, Life: s})
			case below > 0:
				ev = append(ev, Event{From: from, To: MakeState(b, h-below), Kind: KindFall, Life: s})
			default:
				ev = append(ev, Event{From: from, To: from, Kind: KindStay, Life: s})
			}
		}
		if cleared {
			below++
		}
	}
	if below == 0 {
		t.well = m.M
		return ev, nil
	}
	// Compact rows and lives as the engine does.
	j := d - 1
	for y := d - 1; y >= top; y-- {
		if m.Cleared&(1<<uint(y)) != 0 {
			t.free |= 1 << uint(t.life[y])
			continue
		}
		t.well[j] = m.M[y]
		t.life[j] = t.life[y]
		j--
	}
	for ; j >= 0; j-- {
		t.well[j] = 0
		t.life[j] = -1
	}
	return ev, nil
}

// End ends the game: it appends an Immortal event for every live flat and
// leaves the tracker on the empty well.
func (t *Tracker) End(ev []Event) []Event {
	d := t.depth
	for y := d - 1; y >= 0; y-- {
		if t.life[y] < 0 {
			continue
		}
		ev = append(ev, Event{From: MakeState(t.well[y], d-1-y), To: Immortal, Kind: KindImmortal, Life: t.life[y]})
	}
	t.Reset(nil, nil)
	return ev
}
