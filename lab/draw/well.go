package draw

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/lab"
)

// PieceColor is the colour of each piece in pictures (the usual Tetris
// colours; HATETRIS itself draws every piece alike).
var PieceColor = [hatetris.NumPieces]string{
	hatetris.S: "#4caf50", hatetris.Z: "#e53935", hatetris.O: "#fdd835", hatetris.I: "#29b6f6",
	hatetris.L: "#fb8c00", hatetris.J: "#3949ab", hatetris.T: "#8e24aa",
}

// StackColor is the colour of locked cells.
const StackColor = "#78909c"

// WellOpt is an option of Well, Filmstrip and HeatWell.
type WellOpt func(*wellOpts)

type wellOpts struct {
	piece    *hatetris.Piece
	pos      hatetris.Position
	ghost    bool
	title    string
	caption  string
	size     int
	frame    string
	perRow   int
	hideBar  bool
	captions func(i int, s hatetris.Step) string
}

// WithPiece draws the live piece p at box position pos (as Game.Live).
func WithPiece(p hatetris.Piece, pos hatetris.Position) WellOpt {
	return func(o *wellOpts) { o.piece, o.pos = &p, pos }
}

// WithGhost also outlines, dashed, where the live piece lands if dropped
// straight down.
func WithGhost() WellOpt { return func(o *wellOpts) { o.ghost = true } }

// WithTitle sets the text above the well.
func WithTitle(s string) WellOpt { return func(o *wellOpts) { o.title = s } }

// WithCaption sets the text under the well ("\n" separates lines).
func WithCaption(s string) WellOpt { return func(o *wellOpts) { o.caption = s } }

// WithCellSize sets the side of a cell in pixels.
func WithCellSize(px int) WellOpt { return func(o *wellOpts) { o.size = px } }

// WithFrame sets the colour of the well's outline.
func WithFrame(color string) WellOpt { return func(o *wellOpts) { o.frame = color } }

// WithPerRow sets how many frames a Filmstrip puts on one row.
func WithPerRow(n int) WellOpt { return func(o *wellOpts) { o.perRow = n } }

// WithStepCaption replaces Filmstrip's caption of frame i (step s).
func WithStepCaption(f func(i int, s hatetris.Step) string) WellOpt {
	return func(o *wellOpts) { o.captions = f }
}

func options(opts []WellOpt) wellOpts {
	var o wellOpts
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Landing returns where piece p at pos ends if dropped straight down.
func Landing(r *hatetris.Rules, w *hatetris.Well, p hatetris.Piece, pos hatetris.Position) hatetris.Position {
	for {
		next := pos
		next.Y++
		if !r.Fits(w, p, next) {
			return pos
		}
		pos = next
	}
}

// pieceAt returns the well cells covered by p at pos.
func pieceAt(p hatetris.Piece, pos hatetris.Position) [4][2]int {
	cells := hatetris.PieceCells(p, pos.O)
	for i := range cells {
		cells[i][0] += pos.X
		cells[i][1] += pos.Y
	}
	return cells
}

// Well draws one well: locked cells grey, the bar as a red dashed rule and,
// with WithPiece, the live piece in its colour (WithGhost adds its landing
// place, dashed).
func Well(r *hatetris.Rules, w *hatetris.Well, opts ...WellOpt) lab.SVG {
	o := options(opts)
	return wellGrid(r, w, o).SVG()
}

func wellGrid(r *hatetris.Rules, w *hatetris.Well, o wellOpts) lab.Grid {
	type mark struct {
		color string
		ghost bool
	}
	marks := map[[2]int]mark{}
	if o.piece != nil {
		p := *o.piece
		if o.ghost {
			for _, c := range pieceAt(p, Landing(r, w, p, o.pos)) {
				marks[c] = mark{PieceColor[p], true}
			}
		}
		for _, c := range pieceAt(p, o.pos) {
			marks[c] = mark{PieceColor[p], false}
		}
	}
	g := lab.Grid{
		Cols: r.Width, Rows: r.Depth, Size: o.size, Title: o.title, Caption: o.caption, Frame: o.frame,
		Cell: func(x, y int) lab.Cell {
			var c lab.Cell
			if r.Filled(w, x, y) {
				c.Fill = StackColor
			}
			if m, ok := marks[[2]int{x, y}]; ok {
				if m.ghost {
					c.Stroke, c.Dashed = m.color, true
				} else {
					c.Fill = m.color
				}
			}
			return c
		},
	}
	if !o.hideBar {
		g.Rules = []int{r.Bar}
	}
	return g
}

// Filmstrip draws steps from..to-1 of a game (clamped to the game), one
// well per piece: the well the piece spawned into, with the piece drawn in
// its colour where it locked. A frame where the loop rule changed the piece
// (the piece differs from what HATETRIS Mild would have sent) gets a red
// outline and says so in its caption.
func Filmstrip(g *hatetris.Game, from, to int, opts ...WellOpt) lab.SVG {
	o := options(opts)
	from = max(from, 0)
	to = min(to, len(g.Steps))
	if o.size == 0 {
		o.size = 9
	}
	if o.perRow == 0 {
		o.perRow = 10
	}
	var pics []lab.SVG
	for i := from; i < to; i++ {
		s := g.Steps[i]
		fo := o
		fo.title = ""
		fo.piece, fo.pos, fo.ghost = &s.Piece, s.Lock, false
		if o.captions != nil {
			fo.caption = o.captions(i, s)
		} else {
			fo.caption = StepCaption(i, s)
		}
		if s.Piece != s.MildPiece {
			fo.frame = "#d62728"
		}
		pics = append(pics, wellGrid(g.Rules, &s.Before, fo).SVG())
	}
	strip := lab.Strip(o.perRow, pics...)
	if o.title == "" {
		return strip
	}
	return lab.Column(lab.Title(o.title), strip)
}

// StepCaption is Filmstrip's default caption: piece number and letter, the
// score before it, lines it cleared, and the loop rule's change if any.
func StepCaption(i int, s hatetris.Step) string {
	c := fmt.Sprintf("#%d %v  %d", i, s.Piece, s.Score)
	if s.Lines > 0 {
		c += fmt.Sprintf("+%d", s.Lines)
	}
	if s.Piece != s.MildPiece {
		c += fmt.Sprintf("\nloop: %v, not %v", s.Piece, s.MildPiece)
	}
	return c
}

// HeatWell draws a well whose cells are coloured by value(x, y) (NaN:
// uncoloured), with the filled cells of w outlined in black (w may be nil)
// and a legend of the value range.
func HeatWell(r *hatetris.Rules, w *hatetris.Well, value func(x, y int) float64, opts ...WellOpt) lab.SVG {
	o := options(opts)
	var mark func(x, y int) bool
	if w != nil {
		mark = func(x, y int) bool { return r.Filled(w, x, y) }
	}
	return lab.HeatGrid(r.Width, r.Depth, value, mark, o.title)
}

// HeatValues adapts a [row][column] table to HeatWell's value function;
// cells outside the table are NaN.
func HeatValues(v [][]float64) func(x, y int) float64 {
	return func(x, y int) float64 {
		if y < 0 || y >= len(v) || x < 0 || x >= len(v[y]) {
			return math.NaN()
		}
		return v[y][x]
	}
}
