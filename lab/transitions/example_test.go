package transitions_test

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/lab/transitions"
)

// The exact transition graph of the 5x6 well, drawn as a layered SVG:
// one node per shape with an edge, one path per edge.
func ExampleGraphSVG() {
	c, err := transitions.Exact(5, 6, flats.AllGames)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := c.ShapeGraph()
	svg := transitions.GraphSVG(g, "5x6, every game")
	nodes, edges := transitions.DrawnCounts(g)
	fmt.Println(nodes, edges, strings.Count(string(svg), `class="edge"`) == min(edges, transitions.MaxDrawnEdges))
	// Output: 33 151 true
}

// The three clearability readings of the world records' most visited
// shapes.
func ExampleShapes() {
	src, err := transitions.Records()
	if err != nil {
		fmt.Println(err)
		return
	}
	t := src.Table()
	for _, s := range transitions.Shapes(t)[:2] {
		fmt.Printf("%s %d cells: lives %.0f\n", s.Shape, s.Cells, s.Lives)
	}
	// Output:
	// 0000000001 1 cells: lives 1954
	// 1000000001 2 cells: lives 1585
}

// The exact floor-row facts, as tabulated (FloorFacts(true) computes
// them in about two seconds).
func ExampleFloorFacts() {
	facts, _ := transitions.FloorFacts(false)
	for _, f := range facts[6:8] {
		fmt.Println(f.Well, f.Start, f.Clearable, f.Pieces)
	}
	// Output:
	// 10x5 lone floor row 0111111110 false –
	// 10x6 lone floor row 0111111110 true 8
}

// The G-term experiment's paired differences against the hand-made
// evaluation, from the committed results.
func ExampleDiffRows() {
	e, err := transitions.Experiment()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Config.Starts, e.Config.TuneStarts, len(e.Config.Grid))
	// Output: 20 10 9
}

// The edges of the 5x6 well's graph that lose the most clearability, and
// its dominant pathway to cleared.
func ExampleBottlenecks() {
	c, err := transitions.Exact(5, 6, flats.AllGames)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := c.ShapeGraph()
	b := transitions.Bottlenecks(g, 1)[0]
	fmt.Println(b.From, "->", b.To, b.Loss > 0)
	fmt.Println(strings.HasSuffix(transitions.DominantPathways(g, 1)[0].Path, "cleared"))
	// Output:
	// 11100@0 -> immortal true
	// true
}

// The DOT source of a graph; Graphviz renders it where it is installed.
func ExampleDOT() {
	c, err := transitions.Exact(5, 6, flats.AllGames)
	if err != nil {
		fmt.Println(err)
		return
	}
	dot := transitions.DOT(c.ShapeGraph())
	fmt.Println(strings.Count(dot, " -> "))
	if svg, ok, err := transitions.RenderDOT(dot); ok && err == nil {
		_ = svg // lab.Show(svg) in a notebook
	}
	// Output: 151
}
