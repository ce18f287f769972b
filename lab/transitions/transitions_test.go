package transitions

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/svgtest"
	"github.com/hatelab/hatelab/lab"
)

var (
	g6Once sync.Once
	g6     *flats.Graph
	g6Err  error
)

// graph6 is the shape-only graph of every game of the 6x6 well.
func graph6(t testing.TB) *flats.Graph {
	g6Once.Do(func() {
		var c *flats.Counts
		c, g6Err = Exact(6, 6, flats.AllGames)
		if g6Err == nil {
			g6 = c.ShapeGraph()
		}
	})
	if g6Err != nil {
		t.Fatal(g6Err)
	}
	return g6
}

func recordTable(t testing.TB) *flats.Table {
	src, err := Records()
	if err != nil {
		t.Fatal(err)
	}
	return src.Table()
}

// TestEdgeTable: the heaviest edges first, shares of all transitions, B
// of both ends, never NaN.
func TestEdgeTable(t *testing.T) {
	g := graph6(t)
	rows := EdgeTable(g, 10)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	for i, r := range rows {
		if i > 0 && r.Count > rows[i-1].Count {
			t.Errorf("row %d: count %g after %g: not heaviest first", i, r.Count, rows[i-1].Count)
		}
		if r.From == "" || r.To == "" || !strings.HasSuffix(r.Share, "%") || strings.Contains(r.BFrom+r.BTo, "NaN") {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if n := len(EdgeTable(g, 1000)); n != g.EdgeCount() {
		t.Errorf("EdgeTable(g, 1000): %d rows, want all %d edges", n, g.EdgeCount())
	}
	if n := len(EdgeTable(g, -1)); n != 0 {
		t.Errorf("EdgeTable(g, -1): %d rows", n)
	}
}

// TestShortFraction: R in three characters at most.
func TestShortFraction(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{0.93, ".93"}, {0.071, ".07"}, {0.999, "1"}, {1, "1"}, {0.001, "0"}, {math.NaN(), "–"}} {
		if got := shortFraction(c.in); got != c.want {
			t.Errorf("shortFraction(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestGraphSVG: the drawing of the 6x6 and a 4-wide graph is well-formed
// XML, draws one node group per node with an edge and one path per edge,
// scales by viewBox, and is the same twice.
func TestGraphSVG(t *testing.T) {
	c4, err := Random(4, 8, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*flats.Graph{graph6(t), c4.Counts.ShapeGraph()} {
		s := string(GraphSVG(g, "test <graph>"))
		svgtest.WellFormed(t, s)
		nodes, edges := DrawnCounts(g)
		if got := strings.Count(s, `<g class="node">`); got != nodes {
			t.Errorf("width %d: %d nodes drawn, want %d", g.Width, got, nodes)
		}
		want := min(edges, MaxDrawnEdges)
		if got := strings.Count(s, `class="edge"`); got != want || edges != g.EdgeCount() {
			t.Errorf("width %d: %d edges drawn, want %d (of %d)", g.Width, got, want, edges)
		}
		if aid := strings.Contains(s, "heaviest of"); aid != (edges > MaxDrawnEdges) {
			t.Errorf("width %d, %d edges: legend says only the heaviest are drawn: %v", g.Width, edges, aid)
		}
		if !strings.Contains(s, `viewBox="0 0 `) || !strings.Contains(s, `width="100%"`) || !strings.Contains(s, "B (absorption into cleared)") {
			t.Error("no viewBox, full width or legend")
		}
		if s != string(GraphSVG(g, "test <graph>")) {
			t.Error("not deterministic")
		}
	}
	g := graph6(t)
	nodes, _ := DrawnCounts(g)
	if nodes != 63+2 {
		t.Errorf("6x6: %d nodes, want the 63 shapes of width 6 and 2 sinks", nodes)
	}
}

// TestDOT: one node line per drawn node and one edge line per edge;
// rendered only if Graphviz is installed.
func TestDOT(t *testing.T) {
	g := graph6(t)
	d := DOT(g)
	nodes, edges := DrawnCounts(g)
	if strings.Count(d, "fillcolor=") != nodes || strings.Count(d, " -> ") != edges || !strings.HasPrefix(d, "digraph flats {") || d != DOT(g) {
		t.Fatalf("DOT: %d nodes, %d edges", strings.Count(d, "fillcolor="), strings.Count(d, " -> "))
	}
	svg, ok, err := RenderDOT(d)
	if ok != HaveDot() || err != nil {
		t.Fatalf("RenderDOT: ok %v, err %v", ok, err)
	}
	if ok {
		svgtest.WellFormed(t, string(svg))
	}
}

// TestNeverByLives: the records' never-cleared shapes by lives, against the
// counts of datasets/flats/records.json (shapes with b = 0, counted outside
// Go: 100 never cleared, 57 seen once, 35 two to four times, 3 five to nine,
// 5 ten or more; 8 of the 272 shapes with at least 5 lives), and a table of
// two shapes.
func TestNeverByLives(t *testing.T) {
	got := NeverByLives(recordTable(t))
	want := NeverLives{Source: "records 10x16", Never: 100, Once: 57, Few: 35, Some: 3, Many: 5, Shapes5: 272, Never5: 8, Observed: 563}
	if len(got) != 1 || got[0] != want {
		t.Errorf("records: %+v, want %+v", got, want)
	}
	tab := recordTable(t)
	if n := len(Never(tab)); n != got[0].Never {
		t.Errorf("Never has %d shapes, NeverByLives %d", n, got[0].Never)
	}
	if got := NeverByLives(); len(got) != 0 {
		t.Errorf("no table: %+v", got)
	}
}

// TestTables: row counts of the shape, never-cleared, agreement,
// bottleneck and pathway tables.
func TestTables(t *testing.T) {
	tab := recordTable(t)
	rows := Shapes(tab)
	if len(rows) != len(tab.Shapes) || rows[0].Lives < rows[1].Lives {
		t.Fatalf("%d shapes", len(rows))
	}
	if got := len(TopShapes(tab, 10).Rows); got != 10 {
		t.Errorf("TopShapes: %d rows", got)
	}
	never := Never(tab)
	if len(never) == 0 || len(NeverTable(tab, 5).Rows) != min(5, len(never)) {
		t.Errorf("%d never-cleared shapes", len(never))
	}
	for _, r := range never {
		if !r.Never {
			t.Fatal("a never row that is not never")
		}
	}
	ag := Agreements(tab, 5)
	if len(ag) != 3 || math.IsNaN(ag[0].Spearman) || ag[0].Shapes < 100 {
		t.Errorf("agreements %+v", ag)
	}
	g := graph6(t)
	bn := Bottlenecks(g, 7)
	if len(bn) != 7 || bn[0].Loss < bn[6].Loss {
		t.Errorf("bottlenecks %+v", bn)
	}
	pw := DominantPathways(g, 3)
	if len(pw) != 3 || !strings.HasPrefix(pw[0].Path, "empty → ") || !strings.HasSuffix(pw[0].Path, "→ cleared") || pw[0].Width < pw[2].Width {
		t.Errorf("pathways %+v", pw)
	}
	src := CompareSources(tab, tab)
	if len(src) != 2 || src[1].Spearman < 0.999 || src[1].Common != len(tab.Shapes) {
		t.Errorf("sources %+v", src)
	}
}

// TestLifeStrip: a filmstrip of a record's moves, one frame per move.
func TestLifeStrip(t *testing.T) {
	gs, err := flats.RecordGames()
	if err != nil {
		t.Fatal(err)
	}
	s, err := LifeStrip(gs[len(gs)-1], 10, 16, 6)
	if err != nil {
		t.Fatal(err)
	}
	svgtest.WellFormed(t, string(s))
	if strings.Count(string(s), "#1") < 6 || !strings.Contains(string(s), " b") {
		t.Error("no move captions")
	}
}

// TestPermeability: R is 1 above the stack and never grows downward; the
// picture is well-formed.
func TestPermeability(t *testing.T) {
	tab := recordTable(t)
	r := hatetris.Standard()
	gs, _ := flats.RecordGames()
	w := gs[0].Steps[40].Before
	reach := Reach(r, &w, tab.Permeability())
	for y := 1; y < r.Depth; y++ {
		if reach[y] > reach[y-1]+1e-12 || reach[y] < 0 {
			t.Fatalf("R not monotone at row %d: %v", y, reach)
		}
	}
	if reach[0] != 1 {
		t.Fatal("R above the stack is not 1")
	}
	svgtest.WellFormed(t, string(PermeabilityWell(r, &w, tab.Permeability(), "test")))
}

// TestCompareB: bootstrap intervals hold their estimates; the scatter
// plot renders.
func TestCompareB(t *testing.T) {
	r, _ := Rules(6, 8)
	a, err := Random(6, 8, 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Random(6, 8, 60, 2)
	bm, err := Beam([]int{3}, 1, 1)
	if err != nil || len(bm.Games) != 1 || bm.Table().Source != "beam" || a.Table().Source != "random" {
		t.Fatalf("Beam: %v", err)
	}
	pts, err := CompareB(r, a.Games, b.Games, []string{"000000", "111100", "001111"}, 30, 1)
	if err != nil || len(pts) != 3 {
		t.Fatal(err, len(pts))
	}
	for _, p := range pts {
		if !(p.A.Lo <= p.A.Estimate && p.A.Estimate <= p.A.Hi) {
			t.Errorf("%s: %+v", p.Shape, p.A)
		}
	}
	p, err := BScatter(pts, "seed 1", "seed 2")
	if err != nil {
		t.Fatal(err)
	}
	s, err := lab.PlotSVG(p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	svgtest.WellFormed(t, string(s))
}

// TestFloorFacts: the tabulated answers equal the live ones (the
// floor-row facts of the design note).
func TestFloorFacts(t *testing.T) {
	tab, err := FloorFacts(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab) != len(floorCases) || len(floorTabulated) != len(floorCases) {
		t.Fatalf("%d facts, %d tabulated", len(tab), len(floorTabulated))
	}
	if testing.Short() {
		t.Skip("the live searches take seconds")
	}
	live, err := FloorFacts(true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range live {
		a, b := live[i], tab[i]
		if a.Clearable != b.Clearable || a.Pieces != b.Pieces || a.Wells != b.Wells {
			t.Errorf("%s %s: live %+v, tabulated %+v", a.Well, a.Start, a, b)
		}
		if a.Start == "empty well" && a.Clearable {
			t.Errorf("%s: the floor row is cleared from the empty well", a.Well)
		}
	}
	if !live[7].Clearable || live[6].Clearable {
		t.Error("0111111110: want clearable at 10x6, not at 10x5")
	}
}

// TestExperiment: the committed results give a row per arm and width,
// a tuning row per grid weight, and a chart.
func TestExperiment(t *testing.T) {
	e, err := Experiment()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(Tuning(e)); got != len(e.Config.Grid) {
		t.Errorf("%d tuning rows", got)
	}
	rows := DiffRows(e)
	for _, r := range rows {
		if !(r.Lo <= r.Diff && r.Diff <= r.Hi) || r.N < 1 {
			t.Errorf("%+v", r)
		}
	}
	p, err := DiffPlot(e)
	if err != nil {
		t.Fatal(err)
	}
	s, err := lab.PlotSVG(p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	svgtest.WellFormed(t, string(s))
}

// BenchmarkGraphSVG6: drawing the 6x6 graph (the target is < 100 ms).
func BenchmarkGraphSVG6(b *testing.B) {
	g := graph6(b)
	b.ReportAllocs()
	for b.Loop() {
		GraphSVG(g, "6x6")
	}
}

// TestLayoutAndName: the layout places every drawn node inside the
// picture, the sinks in the last column; tables are named by source.
func TestLayoutAndName(t *testing.T) {
	g := graph6(t)
	l := NewLayout(g)
	nodes, _ := DrawnCounts(g)
	if len(l.Nodes) != nodes {
		t.Fatalf("%d nodes laid out, want %d", len(l.Nodes), nodes)
	}
	for _, u := range l.Nodes {
		if l.X[u] <= 0 || l.X[u] >= l.W || l.Y[u] <= 0 || l.Y[u] >= l.H {
			t.Fatalf("node %d at (%g, %g) outside %gx%g", u, l.X[u], l.Y[u], l.W, l.H)
		}
	}
	if l.X[g.N] != l.X[g.N+1] || l.X[g.N] <= l.X[0] {
		t.Error("the sinks are not in the last column")
	}
	tab := recordTable(t)
	if Name(tab) != "records 10x16" {
		t.Errorf("Name: %q", Name(tab))
	}
	tab.Source, tab.Weighting = "bfs", "optimal"
	if Name(tab) != "bfs 10x16 (optimal)" {
		t.Errorf("Name: %q", Name(tab))
	}
}
