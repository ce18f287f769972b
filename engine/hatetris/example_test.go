package hatetris_test

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// The real game's geometry: a well 10 wide and 20 deep, 4 rows of it above
// the bar, so its height (the rows below the bar) is 16.
func ExampleStandard() {
	r := hatetris.Standard()
	fmt.Println(r)
	fmt.Println("width", r.Width, "depth", r.Depth, "bar", r.Bar, "height", r.Depth-r.Bar)
	// Output:
	// 10x20 bar 4
	// width 10 depth 20 bar 4 height 16
}

// Rules of any geometry, here a small well 4 wide with a height of 6.
func ExampleNewRules() {
	r, err := hatetris.NewRules(4, 8, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r)
	_, err = hatetris.NewRules(3, 8, 2)
	fmt.Println(err != nil) // narrower than MinWidth
	// Output:
	// 4x8 bar 2
	// true
}

// qntm's all-Down game: every key a D. HATETRIS sends an S each time, the
// stack grows in the middle of the well, and the ninth piece locks above the
// bar and ends the game: Pieces 9 (the game-ending piece included), score 0.
func ExamplePlay() {
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, strings.Repeat("D", 92))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score", g.Score, "pieces", g.Placed(), "over", g.Over)
	fmt.Println("keys used", g.KeysUsed, "sequence", hatetris.PiecesString(g.Pieces))
	fmt.Println(r.Rows(&g.Well))
	// Output:
	// score 0 pieces 9 over true
	// keys used 90 sequence SSSSSSSSS
	// [0 0 24 48 24 48 24 48 24 48 24 48 24 48 24 48 24 48 24 48]
}

// A game driven key by key, like the real one: the first S moved three
// columns left, rotated (U) and dropped to the floor, where the D that
// cannot move it locks it. PressAll stops at a key that is not L, R, D or U.
func ExampleGame_PressAll() {
	r := hatetris.Standard()
	g := hatetris.NewGame(r, hatetris.HATETRIS)
	fmt.Println("first piece", g.Piece(), "at", g.Live)
	if err := g.PressAll("LLLUDDDDDDDDDDDDDDDDDD"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pieces", g.Placed(), "score", g.Score, "next", g.Piece())
	fmt.Println(r.Cells(&g.Well), "cells, stack height", r.Height(&g.Well))
	fmt.Println(g.PressAll("DX"))
	// Output:
	// first piece S at {3 0 0}
	// pieces 1 score 0 next S
	// 4 cells, stack height 3
	// key 1: key 'X' is not one of L R D U
}

// One step of a game, the unit of every search: the piece the AI sends for
// a well and every distinct outcome of that piece. On the empty well
// HATETRIS sends an S, which has 17 outcomes (8 flat, 9 upright); sorted
// top row first, the first is the flat S against the right wall.
func ExampleGenerator_Move() {
	r := hatetris.Standard()
	gen := hatetris.NewGenerator(r)
	var w hatetris.Well // the empty well
	p, outcomes := gen.Move(&w, hatetris.HATETRIS, nil, nil)
	fmt.Println("piece", p, "outcomes", len(outcomes))
	hatetris.SortOutcomes(r, outcomes)
	o := outcomes[0]
	fmt.Println("lines", o.Lines, "game over", o.GameOver, "bottom rows", r.Rows(&o.Well)[18:])
	// Output:
	// piece S outcomes 17
	// lines 0 game over false bottom rows [3 6]
}

// Every distinct outcome of one piece, game-ending ones included.
func ExampleGenerator_Outcomes() {
	r, _ := hatetris.NewRules(4, 6, 2)
	gen := hatetris.NewGenerator(r)
	var w hatetris.Well
	for _, p := range []hatetris.Piece{hatetris.O, hatetris.I, hatetris.T} {
		fmt.Println(p, len(gen.Outcomes(&w, p, nil)))
	}
	// Output:
	// O 3
	// I 5
	// T 10
}

// Wells are written as rows, top first, each row a Width-bit number whose
// most significant bit is the leftmost column.
func ExampleRules_Format() {
	r, _ := hatetris.NewRules(4, 6, 2)
	w, err := r.ParseWell([]int{0, 0, 0, 0, 0b0110, 0b1101})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(r.Format(&w))
	fmt.Println("cells", r.Cells(&w), "stack height", r.Height(&w), "peak", r.Peak(&w))
	// Output:
	// ....
	// ....
	// ----
	// ....
	// ....
	// .##.
	// ##.#
	// cells 5 stack height 2 peak 4
}

// The shortest keys from the spawn to a given outcome: an upright I
// against the left wall (bottom row 512, column 0) and one column to its
// right (256).
func ExampleRules_KeysTo() {
	r := hatetris.Standard()
	gen := hatetris.NewGenerator(r)
	var w hatetris.Well
	outs := gen.Outcomes(&w, hatetris.I, nil)
	hatetris.SortOutcomes(r, outs)
	for _, o := range outs[len(outs)-2:] {
		keys, ok := r.KeysTo(&w, hatetris.I, &o.Well)
		fmt.Println(r.Rows(&o.Well)[19], keys, ok)
	}
	// Output:
	// 256 LLLDDDDDDDDDDDDDDDDULD true
	// 512 LLLDDDDDDDDDDDDDDDDULLD true
}

func ExampleParseAI() {
	for _, s := range []string{"hatetris", "HATETRIS Mild", "LOVETRIS", "brzustowski"} {
		ai, err := hatetris.ParseAI(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(ai)
	}
	// Output:
	// hatetris
	// mild
	// lovetris
	// brzustowski
}
