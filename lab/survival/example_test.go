package survival_test

import (
	"fmt"
	"strings"

	classicdata "github.com/hatelab/hatelab/datasets/classic"
	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/lab/survival"
)

// tetr-ai's README game (10 rows, seed 6), its first 4 pieces recorded and
// the rest played to the end, and the recorded pieces as a filmstrip.
func ExamplePlay() {
	g, err := survival.Play(10, 10, classic.TetrAI{}, 6, 4, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pieces", g.Result.Pieces, "lines", g.Result.Lines, "recorded", len(g.Steps))
	for _, s := range g.Steps {
		fmt.Println(s.Piece, "landing row", s.Y, "lines", s.Lines)
	}
	svg := string(survival.Filmstrip(g.Steps, 0, 4, 4, "seed 6"))
	fmt.Println(svg[:strings.Index(svg, ">")+1])
	// Output:
	// pieces 30204 lines 12073 recorded 4
	// I landing row 9 lines 0
	// I landing row 9 lines 0
	// J landing row 7 lines 0
	// S landing row 5 lines 0
	// <svg xmlns="http://www.w3.org/2000/svg" width="410" height="132" viewBox="0 0 410 132" style="max-width:100%;height:auto">
}

// Per-height statistics of the committed tetr-ai games, beside tetr-ai's
// published means: the first 100 documented seeds at 5 and 6 rows.
func ExampleTable() {
	recs, err := classicdata.TetrAI()
	if err != nil {
		fmt.Println(err)
		return
	}
	sel := survival.Select(recs, "tetr-ai", []int{5, 6}, 100)
	fmt.Println(len(sel), "games")
	fmt.Print(survival.Table(classic.Summarize(sel)).Text())
	// Output:
	// 200 games
	// Agent    Rows    N   mean  median  median/ln2  95% CI         CV      KS  tetr-ai README mean  mean pieces
	// -------  ----  ---  -----  ------  ----------  ----------  -----  ------  -------------------  -----------
	// tetr-ai     5  100  27.46    15.5       22.36  21.7..33.2  1.064  0.0883  26.85                      78.42
	// tetr-ai     6  100  77.89    52.5       75.74  63.4..92.4  0.949  0.0419  90.07                     206.72
}
