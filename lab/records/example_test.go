package records_test

import (
	"fmt"

	recordsdata "github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/lab/records"
)

// Replay plays one replay of the dataset against its AI on the standard
// well; here the first world record in the file, as a one-row table.
func ExampleReplay() {
	all, err := recordsdata.All()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range all {
		if d.Kind != "record" || !d.Primary {
			continue
		}
		rec, err := records.Replay(d)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Name, rec.Score, rec.Game.Score, rec.Game.Placed(), len(rec.Keys))
		fmt.Print(records.Table([]records.Record{rec}).Text())
		x, y := records.ScoreByPiece(rec.Game)
		fmt.Println(len(x), "pieces, final score", y[len(y)-1])
		break
	}
	// Output:
	// Atypical 11 11 61 875
	// Name      Holder    Year  Kind    AI        Score (dataset)  Score (replayed)  Pieces  Loop-rule firings  Over
	// --------  --------  ----  ------  --------  ---------------  ----------------  ------  -----------------  ----
	// Atypical  Atypical  2010  record  HATETRIS               11                11      61                  0  true
	// 61 pieces, final score 11
}

// Load replays every game of the dataset; Find picks one by name.
func ExampleLoad() {
	rs, err := records.Load(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, err := records.Find(rs, "SDA (2)")
	if err != nil {
		fmt.Println(err)
		return
	}
	row := rec.Row()
	fmt.Printf("%d games; %s: %s %s, score %d, replayed %d, pieces %d\n",
		len(rs), row.Name, row.Holder, row.Year, row.Score, row.Replayed, row.Pieces)
	// Output:
	// 27 games; SDA (2): SDA Guest 2010, score 20, replayed 20, pieces 80
}

// Summaries of a long, noisy series: per window of n points, its middle x
// and the mean, least and greatest y.
func ExampleWindowStats() {
	xs, mean, lo, hi := records.WindowStats([]float64{0, 1, 2, 3, 4}, []float64{1, 3, 5, 7, 9}, 2)
	fmt.Println(xs, mean, lo, hi)
	// Output:
	// [0.5 2.5 4] [2 6 9] [1 5 9] [3 7 9]
}
