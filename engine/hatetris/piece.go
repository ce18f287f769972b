package hatetris

import "fmt"

// Piece is a tetromino, numbered in the AI's tie-break order S Z O I L J T.
type Piece uint8

// The seven pieces, in the order HATETRIS breaks ties.
const (
	S Piece = iota
	Z
	O
	I
	L
	J
	T
	// NumPieces is the number of distinct pieces.
	NumPieces = 7
)

const pieceLetters = "SZOILJT"

// String returns the piece's letter.
func (p Piece) String() string {
	if p < NumPieces {
		return pieceLetters[p : p+1]
	}
	return fmt.Sprintf("Piece(%d)", uint8(p))
}

// ParsePiece reads a piece letter (S Z O I L J T, case-insensitive).
func ParsePiece(s string) (Piece, error) {
	if len(s) == 1 {
		c := s[0]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		for i := 0; i < NumPieces; i++ {
			if pieceLetters[i] == c {
				return Piece(i), nil
			}
		}
	}
	return 0, fmt.Errorf("unknown piece %q (want one of S Z O I L J T)", s)
}

// PiecesString returns the letters of a piece sequence.
func PiecesString(ps []Piece) string {
	b := make([]byte, len(ps))
	for i, p := range ps {
		b[i] = pieceLetters[p]
	}
	return string(b)
}

// boxCells lists, for each piece and orientation, the four cells (column,
// row) inside the piece's 4x4 box, as the real game's rotation system has
// them. Orientation o+1 is orientation o turned clockwise about the box
// centre.
var boxCells = [NumPieces][4][4][2]int8{
	S: {{{2, 1}, {3, 1}, {1, 2}, {2, 2}}, {{1, 1}, {1, 2}, {2, 2}, {2, 3}}, {{1, 1}, {2, 1}, {0, 2}, {1, 2}}, {{1, 0}, {1, 1}, {2, 1}, {2, 2}}},
	Z: {{{1, 1}, {2, 1}, {2, 2}, {3, 2}}, {{2, 1}, {1, 2}, {2, 2}, {1, 3}}, {{0, 1}, {1, 1}, {1, 2}, {2, 2}}, {{2, 0}, {1, 1}, {2, 1}, {1, 2}}},
	O: {{{1, 1}, {2, 1}, {1, 2}, {2, 2}}, {{1, 1}, {2, 1}, {1, 2}, {2, 2}}, {{1, 1}, {2, 1}, {1, 2}, {2, 2}}, {{1, 1}, {2, 1}, {1, 2}, {2, 2}}},
	I: {{{0, 1}, {1, 1}, {2, 1}, {3, 1}}, {{2, 0}, {2, 1}, {2, 2}, {2, 3}}, {{0, 2}, {1, 2}, {2, 2}, {3, 2}}, {{1, 0}, {1, 1}, {1, 2}, {1, 3}}},
	L: {{{1, 1}, {2, 1}, {3, 1}, {1, 2}}, {{1, 1}, {2, 1}, {2, 2}, {2, 3}}, {{2, 1}, {0, 2}, {1, 2}, {2, 2}}, {{1, 0}, {1, 1}, {1, 2}, {2, 2}}},
	J: {{{1, 1}, {2, 1}, {1, 2}, {1, 3}}, {{0, 1}, {1, 1}, {2, 1}, {2, 2}}, {{2, 0}, {2, 1}, {1, 2}, {2, 2}}, {{1, 1}, {1, 2}, {2, 2}, {3, 2}}},
	T: {{{1, 1}, {2, 1}, {3, 1}, {2, 2}}, {{2, 1}, {1, 2}, {2, 2}, {2, 3}}, {{1, 1}, {0, 2}, {1, 2}, {2, 2}}, {{1, 0}, {1, 1}, {2, 1}, {1, 2}}},
}

// PieceCells returns the four (column, row) cells of piece p in orientation
// o (0..3) inside its 4x4 box; add the box's top-left (x, y) for well
// coordinates.
func PieceCells(p Piece, o int) [4][2]int {
	var c [4][2]int
	for i, cell := range boxCells[p][o&3] {
		c[i] = [2]int{int(cell[0]), int(cell[1])}
	}
	return c
}

// boxExtent returns the min/max column and row that orientation o of p uses.
func boxExtent(p Piece, o int) (minC, maxC, minR, maxR int) {
	minC, minR, maxC, maxR = 4, 4, -1, -1
	for _, cell := range boxCells[p][o] {
		c, r := int(cell[0]), int(cell[1])
		minC, maxC = min(minC, c), max(maxC, c)
		minR, maxR = min(minR, r), max(maxR, r)
	}
	return
}
