package classic_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/classic"
)

// tetr-ai's README game: a board of 10 rows and 10 columns, seed 6, played
// by the tetr-ai v2.0 agent to the end (maxPieces 0), as notebook
// 05-classic and `hatelab classic play --rows 10 --seed 6` play it.
func ExamplePlay() {
	r, err := classic.NewRules(10, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := classic.Play(r, classic.TetrAI{}, 6, 0)
	fmt.Println("pieces", res.Pieces, "lines", res.Lines)
	fmt.Print(classic.CSVLine(res))
	// Output:
	// pieces 30204 lines 12073
	// tetr-ai,10,10,6,30204,12073
}

// A game piece by piece, with any built-in agent, on a board of 8 rows and
// 6 columns: Last is the piece drawn, LastMove where it went (orientation
// and shift), Lines the lines cleared so far.
func ExampleGame_Step() {
	r, _ := classic.NewRules(8, 6)
	a, err := classic.NewAgent("dellacherie")
	if err != nil {
		fmt.Println(err)
		return
	}
	g := classic.NewGame(r, a, 1)
	for i := 0; i < 5 && g.Step(); i++ {
		fmt.Printf("%v %+v lines %d\n", g.Last, g.LastMove, g.Lines)
	}
	fmt.Print(g.Board.String())
	// Output:
	// O {Orient:10 X:0} lines 0
	// T {Orient:13 X:2} lines 0
	// J {Orient:4 X:0} lines 0
	// T {Orient:16 X:4} lines 2
	// S {Orient:11 X:3} lines 3
	// ......
	// ......
	// ......
	// ......
	// ......
	// ......
	// ......
	// ....##
}

// tetr-ai's piece stream of a seed: pieces drawn uniformly and
// independently by its pcg32_k2_fast generator.
func ExampleNewPieces() {
	ps := classic.NewPieces(6)
	for range 12 {
		fmt.Print(ps.Next())
	}
	fmt.Println()
	// Output:
	// IIJSIJZJZLZO
}

// Per-height statistics of a few short games.
func ExampleSummarize() {
	r, _ := classic.NewRules(5, 10)
	var recs []classic.Result
	for _, seed := range classic.SeedsFor(5, 10) {
		recs = append(recs, classic.Play(r, classic.TetrAI{}, seed, 0))
	}
	st := classic.Summarize(recs)
	fmt.Println(len(st), st[0].Agent, st[0].Rows, st[0].Cols, st[0].N)
	fmt.Printf("mean %.1f median %.1f\n", st[0].Mean, st[0].Median)
	// Output:
	// 1 tetr-ai 5 10 10
	// mean 32.3 median 13.0
}

// tetr-ai's model of mean lines against board height:
// ln(lines) = a + b*h + c*h^2, fitted to its published means.
func ExampleFitLogQuadratic() {
	var hs []int
	var ys []float64
	for _, p := range classic.TetrAIPublished {
		hs = append(hs, p.Rows)
		ys = append(ys, p.Mean)
	}
	f, err := classic.FitLogQuadratic(hs, ys)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("a %.3f b %.4f c %.5f\n", f.Coef[0], f.Coef[1], f.Coef[2])
	p := classic.PredictHeight(f, 18)
	fmt.Printf("height 18: %.3g lines (tetr-ai's README: %.3g)\n", p.Lines, classic.TetrAIPredicted[18])
	// Output:
	// a -2.565 b 1.2027 c -0.00515
	// height 18: 3.65e+07 lines (tetr-ai's README: 3.65e+07)
}
