package smallwells_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/lab/smallwells"
)

// The committed results of the exhaustive searches (datasets/bfs), as the
// notebook's table: here the wells of Width 10, Heights 2 to 5, under the
// real game's rule.
func ExampleTable() {
	rows, err := smallwells.Summary()
	if err != nil {
		fmt.Println(err)
		return
	}
	var some []bfs.Row
	for _, r := range rows {
		if r.Width == 10 && r.Height <= 5 && r.Rule == bfs.RuleQntm {
			some = append(some, r)
		}
	}
	fmt.Print(smallwells.Table(some).Text())
	// Output:
	// W  H  rule  score  length  peak states  at level   states  time    peak RSS
	// --  -  ----  -----  ------  -----------  --------  -------  ------  --------
	// 10  2  qntm  0      4                21         2       52  0.01 s  20 MiB
	// 10  3  qntm  0      6               310         4      821  0.01 s  19 MiB
	// 10  4  qntm  1      11            9,094         6   26,809  0.06 s  25 MiB
	// 10  5  qntm  4      19          174,585         7  600,823  0.43 s  51 MiB
}

// An exhaustive search of a small well, Width 10 and Height 3 (with a
// progress bar on standard error), and its levels.
func ExampleSearch() {
	res, err := smallwells.Search(10, 3, bfs.RuleQntm)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The peak: PeakStates states at level PeakLevel.
	fmt.Println("score", res.Score, "length", res.Length, "peak", res.PeakStates, "at level", res.PeakLevel)
	fmt.Print(smallwells.LevelTable(res).Text())
	// Output:
	// score 0 length 6 peak 310 at level 4
	// 10x3 qntm: levels
	// level (pieces)  states  children  best score
	// --------------  ------  --------  ----------
	//              0       1         0           0
	//              1      17        17           0
	//              2      98       188           0
	//              3     274       589           0
	//              4     310       605           0
	//              5     111       118           0
	//              6      10        10           0
}

// A game rebuilt from a search, from datasets/bfs/games.jsonl, verified by
// the engine.
func ExampleFindGame() {
	gs, err := smallwells.Games()
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := smallwells.FindGame(gs, 10, 3, "longest")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score", g.Score, "length", g.Length, "keys", g.Keys)
	hg, err := smallwells.Replay(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replayed: pieces", hg.Placed(), "score", hg.Score, "over", hg.Over)
	// Output:
	// score 0 length 6 keys RRRDDDDDRDDDDDLDDDDDLLLDDDDDRRDDDDLLDDDD
	// replayed: pieces 6 score 0 over false
}
