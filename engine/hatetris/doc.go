// Package hatetris emulates qntm's HATETRIS exactly, at any well size chosen
// at run time: pieces and their box rotation states, the keys L R D U,
// locking, line clears (only when the locked piece is at or below the bar),
// game over, the enemy AIs (HATETRIS with its loop rule, and HATETRIS Mild),
// bit-parallel move generation, and the shortest keys for a placement.
//
// Conventions (the same as every data file of the project):
//   - A Well holds MaxDepth rows, row 0 at the top; only the first
//     Rules.Depth rows are used, the rest are zero.
//   - A row is a Width-bit number whose most significant bit (1<<(Width-1))
//     is column 0, the leftmost column ("MSB-left").
//   - Rows 0..Bar-1 are above the bar. A live well has them empty.
//
// The move generator works on "waveforms": every (column, orientation) of a
// piece at one box height is a bit of a uint64, and moving left, right or
// rotating is a shift of the whole set, so all reachable positions of a row
// are found with a handful of word operations (the technique of the
// HATETRIS beam-search authors), with no heap allocation. The Mild choice
// scans the first piece in full and then, for each other piece, first
// tries a straight-drop test on the column profile (a few word operations)
// that proves the piece cannot beat the best so far; only when the test
// fails is the piece scanned, and then only until it is beaten. LiveMoves
// serves searches that drop game-ending outcomes, giving the line-free ones
// as placements instead of wells.
package hatetris
