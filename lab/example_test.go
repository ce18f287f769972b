package lab_test

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hatelab/hatelab/lab"
)

// A table from a slice of structs: one column per exported field; the lab
// tag renames and formats a column or leaves it out. Text is what Show prints
// outside a notebook.
func ExampleTableOf() {
	type row struct {
		Width  int
		Height int
		Score  int           `lab:"score,%d lines"`
		Ratio  float64       `lab:"ratio,%.2f"`
		Note   string        `lab:"-"`
		Took   time.Duration `lab:"time"`
	}
	t := lab.TableOf([]row{
		{4, 6, 1, 0.25, "skipped", 1500 * time.Microsecond},
		{10, 5, 12, 2.4, "", 2 * time.Second},
	})
	t.Title = "small wells"
	fmt.Print(t.Text())
	// Output:
	// small wells
	// Width  Height     score  ratio  time
	// -----  ------  --------  -----  ----
	//     4       6   1 lines   0.25   2ms
	//    10       5  12 lines   2.40    2s
}

// A table filled row by row; numbers right-align their column.
func ExampleNewTable() {
	t := lab.NewTable("piece", "outcomes").Add("O", 3).Add("I", 5).Add("T", 10)
	fmt.Print(t.Text())
	// Output:
	// piece  outcomes
	// -----  --------
	// O             3
	// I             5
	// T            10
}

// Show prints plain text outside a notebook, to lab.Stdout.
func ExampleShow() {
	defer func(w io.Writer) { lab.Stdout = w }(lab.Stdout)
	lab.Stdout = os.Stdout // the example's own standard output, captured
	lab.Show(lab.NewTable("k", "v").Add("lines", 12), lab.Markdown("**done**"), 42)
	// Output:
	// k       v
	// -----  --
	// lines  12
	// **done**
	// 42
}

// Pick chooses a parameter by mode: quick mode (HATELAB_QUICK=1, as
// `make test` runs the notebooks) shrinks the work.
func ExamplePick() {
	old, had := os.LookupEnv("HATELAB_QUICK")
	defer func() {
		if had {
			os.Setenv("HATELAB_QUICK", old)
		} else {
			os.Unsetenv("HATELAB_QUICK")
		}
	}()
	os.Setenv("HATELAB_QUICK", "1")
	fmt.Println(lab.Quick(), lab.Pick(200, 100_000))
	os.Setenv("HATELAB_QUICK", "0")
	fmt.Println(lab.Quick(), lab.Pick(200, 100_000))
	// Output:
	// true 200
	// false 100000
}

func ExampleCount() {
	for _, n := range []float64{999, 1234, 3.4e6, 5.6e9} {
		fmt.Println(lab.Count(n))
	}
	// Output:
	// 999
	// 1.2k
	// 3.4M
	// 5.6G
}

func ExampleClock() {
	fmt.Println(lab.Clock(7*time.Second), lab.Clock(205*time.Second), lab.Clock(3723*time.Second))
	// Output:
	// 0:07 3:25 1:02:03
}

// A Grid drawn as SVG: here a board of 3 columns and 2 rows with two
// filled cells, each cell 14 pixels (the default Size) inside a frame.
func ExampleGrid_SVG() {
	g := lab.Grid{Cols: 3, Rows: 2, Cell: func(x, y int) lab.Cell {
		if y == 1 && x < 2 {
			return lab.Cell{Fill: "#78909c"}
		}
		return lab.Cell{}
	}}
	svg := string(g.SVG())
	fmt.Println(svg[:strings.Index(svg, ">")+1])
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="50" height="36" viewBox="0 0 50 36" style="max-width:100%;height:auto">
}

// A chart: one line per series.
func ExampleLinePlot() {
	p, err := lab.LinePlot("length", "height", "pieces",
		lab.Series{Name: "width 10", X: []float64{2, 3, 4}, Y: []float64{4, 6, 11}})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg, err := lab.PlotSVG(p, 0, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Title.Text, strings.Contains(string(svg), "<svg"))
	// Output:
	// length true
}
