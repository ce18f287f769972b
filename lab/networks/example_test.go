package networks_test

import (
	"fmt"

	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/networks"
)

// Summarise scores a network's predictions against the targets.
func ExampleSummarise() {
	f := networks.Summarise([]networks.Point{{Target: -1, Predicted: -0.5}, {Target: 0, Predicted: 0}, {Target: 1, Predicted: 0.5}})
	fmt.Printf("%d points, MSE %.4f, correlation %.3f\n", f.N, f.MSE, f.Corr)
	// Output: 3 points, MSE 0.1667, correlation 1.000
}

// Generations reads a cycle's folder: each generation's report and its
// gate matches, each naming its gate, suite and beam width.
func ExampleGenerations() {
	gs, err := networks.Generations("datasets/weights/scale-run")
	if err != nil {
		fmt.Println(err)
		return
	}
	g := gs[0]
	for _, m := range g.Gates {
		fmt.Printf("generation %d, gate %d (%s) at width %s: %+.2f lines against %s, %+.2f against %s\n",
			g.Report.Generation, m.Gate, m.Suite, lab.Int(int64(m.BeamWidth)), m.VsPrev.Diff.Estimate, m.VsPrev.Baseline, m.VsBase.Diff.Estimate, m.VsBase.Baseline)
	}
	// Output: generation 1, gate 1 (openings:20:8:101) at width 1,000: +1.05 lines against gen-00, -2.10 against hand
}

// RanksTable orders a cycle generation's held-out targets by evaluations'
// values of the wells: here the distilled network and tuned-03.
func ExampleRanksTable() {
	t, err := networks.RanksTable("datasets/weights/distill", 2, "nnue:datasets/weights/distill/gen-02.hlnn", "tuned")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.Text())
	// Output:
	// evaluation                                 held-out wells  Spearman  live wells  Spearman (live)  live, within equal cells  its wells
	// -----------------------------------------  --------------  --------  ----------  ---------------  ------------------------  ---------
	// nnue:datasets/weights/distill/gen-02.hlnn           6,002     0.905       3,429            0.862                     0.827      3,414
	// tuned                                               6,002     0.628       3,429            0.572                     0.589      3,414
}

// AgreementTable runs tuned-03's beam over two openings and asks how much
// of it D&F's hand-made weights keep.
func ExampleAgreementTable() {
	t, err := networks.AgreementTable("tuned", "openings:2:8:1", 50, 3, "tuned", "hand")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.Text())
	// Output:
	// evaluation  levels  children   kept   best    far  Spearman
	// ----------  ------  --------  -----  -----  -----  --------
	// tuned            6     3,418  1.000  1.000  0.000     1.000
	// hand             6     3,418  0.317  0.500  0.460     0.173
}
