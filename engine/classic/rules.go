package classic

import (
	"fmt"
	"math/bits"
)

// Piece is a tetromino in tetr-ai's order: I, J, L, O, S, T, Z.
type Piece uint8

// The seven pieces, in tetr-ai's index order.
const (
	I Piece = iota
	J
	L
	O
	S
	T
	Z
	NumPieces = 7
)

const pieceLetters = "IJLOSTZ"

// String returns the piece letter.
func (p Piece) String() string {
	if p < NumPieces {
		return pieceLetters[p : p+1]
	}
	return "?"
}

// orientation is one fixed shape: cell rows (top row 0) as offset-column masks.
type orientation struct {
	piece Piece
	rows  []uint16
}

// The 19 orientations in tetr-ai's order; mask bit c is offset column c.
var orientations = []orientation{
	{I, []uint16{0b1111}},
	{I, []uint16{0b100, 0b100, 0b100, 0b100}},
	{J, []uint16{0b001, 0b111}},
	{J, []uint16{0b110, 0b010, 0b010}},
	{J, []uint16{0b111, 0b100}},
	{J, []uint16{0b10, 0b10, 0b11}},
	{L, []uint16{0b100, 0b111}},
	{L, []uint16{0b010, 0b010, 0b110}},
	{L, []uint16{0b111, 0b001}},
	{L, []uint16{0b11, 0b10, 0b10}},
	{O, []uint16{0b11, 0b11}},
	{S, []uint16{0b110, 0b011}},
	{S, []uint16{0b010, 0b110, 0b100}},
	{T, []uint16{0b010, 0b111}},
	{T, []uint16{0b010, 0b110, 0b010}},
	{T, []uint16{0b111, 0b010}},
	{T, []uint16{0b10, 0b11, 0b10}},
	{Z, []uint16{0b011, 0b110}},
	{Z, []uint16{0b100, 0b110, 0b010}},
}

// Move is a placement: an orientation index (0..18, tetr-ai's order) and a
// shift X (board column = X + offset column, so X may be negative).
type Move struct {
	Orient int
	X      int
}

// Candidate is one placement of a piece on a board of a given width,
// precomputed once per Rules.
type Candidate struct {
	Move
	// Bias is tetr-ai's centre bias |leftcol + rightcol - (C-1)|.
	Bias int
	// NRows is the orientation's number of shape rows; Rows its masks at
	// board columns.
	NRows int
	Rows  [4]uint16
	// NCols columns Col[k] are occupied; Bot[k]/Top[k] are the lowest and
	// highest shape rows (0 = top) in those columns.
	NCols         int
	Col, Bot, Top [4]int
	// SumRows is the sum of the 4 cells' shape-row indices.
	SumRows int
}

// Rules is a board geometry with its candidate placements.
type Rules struct {
	Rows, Cols int
	Full       uint16
	cands      [NumPieces][]Candidate
	// tetr-ai's hole-column masks (walls, one and two in) and per-column
	// deep-well increments.
	m0, m1, m2 uint16
	wellD      [MaxCols]int
}

// Limits on the board size.
const (
	MinRows, MaxRows = 4, 31
	MinCols, MaxCols = 4, 14
)

// NewRules returns the rules for a board of the given size.
func NewRules(rows, cols int) (*Rules, error) {
	if rows < MinRows || rows > MaxRows {
		return nil, fmt.Errorf("rows %d out of range %d..%d", rows, MinRows, MaxRows)
	}
	if cols < MinCols || cols > MaxCols {
		return nil, fmt.Errorf("cols %d out of range %d..%d", cols, MinCols, MaxCols)
	}
	r := &Rules{Rows: rows, Cols: cols, Full: uint16(1)<<cols - 1}
	r.m0 = 1 | 1<<(cols-1)
	r.m1 = (1<<1 | 1<<(cols-2)) &^ r.m0
	r.m2 = (1<<2 | 1<<(cols-3)) &^ (r.m0 | r.m1)
	for c := range cols {
		switch {
		case r.m0>>c&1 != 0:
			r.wellD[c] = 10*wHole + 15*wX1Hole
		case (r.m1|r.m2)>>c&1 != 0:
			r.wellD[c] = 10 * (wHole + wX1Hole)
		default:
			r.wellD[c] = 10 * wHole
		}
	}
	for oi, o := range orientations {
		var all uint16
		for _, m := range o.rows {
			all |= m
		}
		minx := bits.TrailingZeros16(all)
		maxx := 15 - bits.LeadingZeros16(all)
		for x := -minx; x <= cols-1-maxx; x++ {
			c := Candidate{Move: Move{oi, x}, NRows: len(o.rows)}
			c.Bias = abs(2*x + minx + maxx - (cols - 1))
			for ri, m := range o.rows {
				c.Rows[ri] = shift(m, x)
				c.SumRows += ri * bits.OnesCount16(m)
			}
			for oc := minx; oc <= maxx; oc++ {
				bot, top := -1, -1
				for ri, m := range o.rows {
					if m>>oc&1 != 0 {
						if top < 0 {
							top = ri
						}
						bot = ri
					}
				}
				c.Col[c.NCols], c.Bot[c.NCols], c.Top[c.NCols] = x+oc, bot, top
				c.NCols++
			}
			r.cands[o.piece] = append(r.cands[o.piece], c)
		}
	}
	return r, nil
}

func shift(m uint16, x int) uint16 {
	if x >= 0 {
		return m << x
	}
	return m >> -x
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Candidates returns the placements of p in enumeration order (orientation
// ascending, then X ascending). The slice must not be modified.
func (r *Rules) Candidates(p Piece) []Candidate { return r.cands[p] }

// Candidate returns the candidate of a move, or nil.
func (r *Rules) Candidate(m Move) *Candidate {
	if m.Orient < 0 || m.Orient >= len(orientations) {
		return nil
	}
	cs := r.cands[orientations[m.Orient].piece]
	for i := range cs {
		if cs[i].Move == m {
			return &cs[i]
		}
	}
	return nil
}

// Board is a position: one mask per row, top row first (bit c is column c),
// and the column heights.
type Board struct {
	R     *Rules
	Cells [MaxRows]uint16
	H     [MaxCols]int
	// Top is the index of the topmost non-empty row (Rows when empty).
	Top int
}

// NewBoard returns an empty board.
func NewBoard(r *Rules) Board { return Board{R: r, Top: r.Rows} }

// Land returns the landing row index of shape row 0 of c; it is negative
// when the placement tops out.
func (b *Board) Land(c *Candidate) int {
	R := b.R.Rows
	y := R
	for k := 0; k < c.NCols; k++ {
		v := R - b.H[c.Col[k]] - c.Bot[k] - 1
		if v < y {
			y = v
		}
	}
	return y
}

// Apply places c at landing row y (from Land, y >= 0), clears full rows and
// returns the number cleared.
func (b *Board) Apply(c *Candidate, y int) int {
	full := b.R.Full
	n := 0
	for i := 0; i < c.NRows; i++ {
		b.Cells[y+i] |= c.Rows[i]
		if b.Cells[y+i] == full {
			n++
		}
	}
	if y < b.Top {
		b.Top = y
	}
	if n == 0 {
		R := b.R.Rows
		for k := 0; k < c.NCols; k++ {
			b.H[c.Col[k]] = R - y - c.Top[k]
		}
		return 0
	}
	b.clear(y + c.NRows - 1)
	return n
}

// clear removes full rows at or above index last and rebuilds the heights.
func (b *Board) clear(last int) {
	full := b.R.Full
	w := last
	for r := last; r >= b.Top; r-- {
		if b.Cells[r] != full {
			b.Cells[w] = b.Cells[r]
			w--
		}
	}
	for r := w; r >= b.Top; r-- {
		b.Cells[r] = 0
	}
	b.Top = w + 1
	b.rebuildHeights()
}

func (b *Board) rebuildHeights() {
	R := b.R.Rows
	b.H = [MaxCols]int{}
	var seen uint16
	for r := b.Top; r < R && seen != b.R.Full; r++ {
		nb := b.Cells[r] &^ seen
		for nb != 0 {
			c := bits.TrailingZeros16(nb)
			b.H[c] = R - r
			nb &= nb - 1
		}
		seen |= b.Cells[r]
	}
}

// Place plays a move; ok is false when the move is unknown, of the wrong
// shape for the board, or tops out.
func (b *Board) Place(m Move) (lines int, ok bool) {
	c := b.R.Candidate(m)
	if c == nil {
		return 0, false
	}
	y := b.Land(c)
	if y < 0 {
		return 0, false
	}
	return b.Apply(c, y), true
}

// Grid returns the board as rows of column bools, top row first.
func (b *Board) Grid() [][]bool {
	g := make([][]bool, b.R.Rows)
	for r := range g {
		g[r] = make([]bool, b.R.Cols)
		for c := range g[r] {
			g[r][c] = b.Cells[r]>>c&1 != 0
		}
	}
	return g
}

// String draws the board with '#' and '.', top row first.
func (b *Board) String() string {
	out := make([]byte, 0, b.R.Rows*(b.R.Cols+1))
	for r := 0; r < b.R.Rows; r++ {
		for c := 0; c < b.R.Cols; c++ {
			if b.Cells[r]>>c&1 != 0 {
				out = append(out, '#')
			} else {
				out = append(out, '.')
			}
		}
		out = append(out, '\n')
	}
	return string(out)
}
