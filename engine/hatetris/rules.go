package hatetris

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"
)

// Size limits of a well.
const (
	MinWidth = 4
	MaxWidth = 16
	// MaxDepth is the number of rows a Well can hold (bar rows included).
	MaxDepth = 32
)

// Well is the grid: Rows[y] for y = 0 (top) .. Depth-1, each row MSB-left
// (bit Width-1 is column 0). Rows at or past the Rules' Depth are zero.
// Wells are comparable and usable as map keys.
type Well [MaxDepth]uint16

// Rules fixes a well geometry and the line-clear rule. Build one with
// NewRules; it holds the precomputed move-generation tables and is safe for
// concurrent use.
type Rules struct {
	Width, Depth, Bar int
	// ClearAboveBar selects the variant rule of the blog's old tables: full
	// lines clear even when the locking piece sticks out above the bar, and
	// the game is over only if something is still above the bar after the
	// clear. The real game (false) clears nothing in that case.
	ClearAboveBar bool

	full   uint16 // a full row
	spawnX int
	pieces [NumPieces]pieceTables
}

// Standard returns the real game's geometry: 10 wide, 20 deep, bar 4.
func Standard() *Rules {
	r, err := NewRules(10, 20, 4)
	if err != nil {
		panic(err)
	}
	return r
}

type rulesKey struct {
	w, d, bar int
	above     bool
}

var rulesCache sync.Map // rulesKey -> *Rules

// NewRules validates a geometry (width MinWidth..MaxWidth, bar 1..4, depth
// bar+1..MaxDepth-3: the spawn box needs 3 spare rows) and builds its tables.
// Rules are cached, so calling it again is cheap.
func NewRules(width, depth, bar int) (*Rules, error) {
	return newRules(rulesKey{width, depth, bar, false})
}

// NewRulesClearAboveBar is NewRules with the ClearAboveBar variant rule.
func NewRulesClearAboveBar(width, depth, bar int) (*Rules, error) {
	return newRules(rulesKey{width, depth, bar, true})
}

func newRules(k rulesKey) (*Rules, error) {
	if k.w < MinWidth || k.w > MaxWidth {
		return nil, fmt.Errorf("width %d out of range %d..%d", k.w, MinWidth, MaxWidth)
	}
	if k.bar < 1 || k.bar > 4 {
		return nil, fmt.Errorf("bar %d out of range 1..4", k.bar)
	}
	if k.d <= k.bar || k.d > MaxDepth-3 {
		return nil, fmt.Errorf("depth %d out of range %d..%d", k.d, k.bar+1, MaxDepth-3)
	}
	if v, ok := rulesCache.Load(k); ok {
		return v.(*Rules), nil
	}
	r := &Rules{Width: k.w, Depth: k.d, Bar: k.bar, ClearAboveBar: k.above}
	r.full = uint16(1<<k.w - 1)
	r.spawnX = (k.w - 4) / 2
	for p := Piece(0); p < NumPieces; p++ {
		r.pieces[p].build(r, p)
	}
	v, _ := rulesCache.LoadOrStore(k, r)
	return v.(*Rules), nil
}

// String describes the geometry, e.g. "10x20 bar 4".
func (r *Rules) String() string {
	s := fmt.Sprintf("%dx%d bar %d", r.Width, r.Depth, r.Bar)
	if r.ClearAboveBar {
		s += " clear-above-bar"
	}
	return s
}

// FullRow is the value of a completely filled row.
func (r *Rules) FullRow() uint16 { return r.full }

// SpawnX is the box column where pieces spawn (box row 0, orientation 0).
func (r *Rules) SpawnX() int { return r.spawnX }

// Bit returns the row bit of column x.
func (r *Rules) Bit(x int) uint16 { return 1 << (r.Width - 1 - x) }

// Filled reports whether cell (x, y) of w is filled.
func (r *Rules) Filled(w *Well, x, y int) bool { return w[y]&r.Bit(x) != 0 }

// Peak is the index of the topmost non-empty row of w, or Depth if w is
// empty: the real AI's height measure (larger is a lower stack).
func (r *Rules) Peak(w *Well) int {
	for y := 0; y < r.Depth; y++ {
		if w[y] != 0 {
			return y
		}
	}
	return r.Depth
}

// Height is the number of rows from the floor up to the topmost filled row.
func (r *Rules) Height(w *Well) int { return r.Depth - r.Peak(w) }

// IsOver reports whether w has a block above the bar (the game is over).
func (r *Rules) IsOver(w *Well) bool {
	for y := 0; y < r.Bar; y++ {
		if w[y] != 0 {
			return true
		}
	}
	return false
}

// Cells counts the filled cells of w.
func (r *Rules) Cells(w *Well) int {
	n := 0
	for y := 0; y < r.Depth; y++ {
		n += bits.OnesCount16(w[y])
	}
	return n
}

// ParseWell builds a well from Depth rows (top first, MSB-left), checking
// the row count and that no row is wider than the well.
func (r *Rules) ParseWell(rows []int) (Well, error) {
	var w Well
	if len(rows) != r.Depth {
		return w, fmt.Errorf("well has %d rows, want %d (the depth)", len(rows), r.Depth)
	}
	for y, v := range rows {
		if v < 0 || v > int(r.full) {
			return w, fmt.Errorf("row %d value %d does not fit a %d-wide well (0..%d)", y, v, r.Width, r.full)
		}
		w[y] = uint16(v)
	}
	return w, nil
}

// ParseWellString reads a well written as comma-separated row numbers,
// e.g. "0,0,...,775".
func (r *Rules) ParseWellString(s string) (Well, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Well{}, fmt.Errorf("empty well: want %d comma-separated rows", r.Depth)
	}
	parts := strings.Split(s, ",")
	rows := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return Well{}, fmt.Errorf("row %d: %q is not a number", i, strings.TrimSpace(p))
		}
		rows[i] = v
	}
	return r.ParseWell(rows)
}

// Rows returns the Depth rows of w as ints (top first, MSB-left).
func (r *Rules) Rows(w *Well) []int {
	out := make([]int, r.Depth)
	for y := range out {
		out[y] = int(w[y])
	}
	return out
}

// Format draws w as text: '#' filled, '.' empty, one line per row, with the
// bar drawn as a line of '-' between row Bar-1 and row Bar.
func (r *Rules) Format(w *Well) string {
	var b strings.Builder
	for y := 0; y < r.Depth; y++ {
		if y == r.Bar {
			b.WriteString(strings.Repeat("-", r.Width))
			b.WriteByte('\n')
		}
		for x := 0; x < r.Width; x++ {
			if r.Filled(w, x, y) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
