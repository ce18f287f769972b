package flats

import (
	"fmt"
	"math/bits"
)

// State is a flat's state: its shape (the row's cells, MSB-left as in
// hatetris.Well) and its height from the floor (0 = the floor row),
// packed as Height<<16 | Shape. Empty, Cleared and Immortal are the
// source and the two sinks of the graph.
type State uint32

const (
	// Empty is the empty row every flat is born from.
	Empty State = 0
	// Cleared is the sink of flats that die (their row is cleared).
	Cleared State = 0xFFFFFFFE
	// Immortal is the sink of flats still alive when the game ends.
	Immortal State = 0xFFFFFFFF
)

// MakeState packs a shape and a height.
func MakeState(shape uint16, height int) State { return State(uint32(height)<<16 | uint32(shape)) }

// Shape returns the row's cells.
func (s State) Shape() uint16 { return uint16(s) }

// Height returns the row's height from the floor.
func (s State) Height() int { return int(s >> 16) }

// IsSink reports whether s is Cleared or Immortal.
func (s State) IsSink() bool { return s >= Cleared }

// Format writes s for a well of the given width: "0111111110@2",
// "empty", "cleared" or "immortal".
func (s State) Format(width int) string {
	switch s {
	case Empty:
		return "empty"
	case Cleared:
		return "cleared"
	case Immortal:
		return "immortal"
	}
	return fmt.Sprintf("%0*b@%d", width, s.Shape(), s.Height())
}

// ShapeString writes a shape as Width binary digits (column 0 first).
func ShapeString(shape uint16, width int) string { return fmt.Sprintf("%0*b", width, shape) }

// ParseShape reads a shape written as binary digits ("0111111110") for a
// well of the given width.
func ParseShape(s string, width int) (uint16, error) {
	if len(s) != width {
		return 0, fmt.Errorf("shape %q: want %d binary digits", s, width)
	}
	var v uint16
	for _, c := range s {
		if c != '0' && c != '1' {
			return 0, fmt.Errorf("shape %q: want only 0 and 1", s)
		}
		v = v<<1 | uint16(c-'0')
	}
	return v, nil
}

// oneRun reports whether the empty cells of shape (in a width-wide row)
// form one contiguous run of 1..4 cells: the shapes one piece can clear.
func oneRun(shape uint16, width int) bool {
	e := ^shape & uint16(1<<width-1)
	if e == 0 {
		return false
	}
	e >>= bits.TrailingZeros16(e)
	return e&(e+1) == 0 && bits.OnesCount16(e) <= 4
}
