package draw_test

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/lab/draw"
)

// openTag returns an SVG picture's opening tag: its size in pixels.
func openTag(svg string) string { return svg[:strings.Index(svg, ">")+1] }

// A well of the real game with its live piece and the ghost where it lands.
func ExampleWell() {
	r := hatetris.Standard()
	g := hatetris.NewGame(r, hatetris.HATETRIS)
	svg := string(draw.Well(r, &g.Well, draw.WithPiece(g.Piece(), g.Live), draw.WithGhost(), draw.WithTitle("spawn")))
	fmt.Println(openTag(svg))
	fmt.Println(strings.Contains(svg, draw.PieceColor[g.Piece()]), strings.Contains(svg, "spawn"))
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="148" height="302" viewBox="0 0 148 302" style="max-width:100%;height:auto">
	// true true
}

// Landing is where a piece ends if dropped straight down: the S at the
// spawn of the empty 10x20 well rests on the floor with its box at row 17
// (the piece fills box rows 1 and 2, the well's rows 18 and 19).
func ExampleLanding() {
	r := hatetris.Standard()
	var w hatetris.Well
	fmt.Println(r.Spawn(), draw.Landing(r, &w, hatetris.S, r.Spawn()))
	// Output:
	// {3 0 0} {3 17 0}
}

// A filmstrip of qntm's all-Down game: one frame per piece, the well it
// spawned into with the piece where it locked.
func ExampleFilmstrip() {
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, strings.Repeat("D", 90))
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := string(draw.Filmstrip(g, 0, 3, draw.WithCellSize(8)))
	fmt.Println(openTag(svg))
	fmt.Println(draw.StepCaption(2, g.Steps[2]))
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="276" height="182" viewBox="0 0 276 182" style="max-width:100%;height:auto">
	// #2 S  0
}
