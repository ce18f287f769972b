package transitions

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/bits"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/lab"
)

// Layout is a layered drawing of a shape-only graph: a column per popcount
// (the empty row at the left), then a column for the two sinks (cleared
// above immortal).
type Layout struct {
	Width  int       // the well's width
	X, Y   []float64 // node centres, by node ID (NaN: not drawn)
	Nodes  []int     // the drawn nodes, by layer then shape
	W, H   float64   // the picture's size
	SinkW  float64   // the width of a sink's box (its label fits)
	cell   float64
	layers [][]int
}

// drawn reports whether node u is drawn: a sink, or a node with an edge.
func drawnNodes(g *flats.Graph) []bool {
	d := make([]bool, g.Nodes())
	for u := 0; u < g.Nodes(); u++ {
		to, _ := g.Out(u)
		if len(to) > 0 {
			d[u] = true
		}
		for _, v := range to {
			d[v] = true
		}
	}
	return d
}

// NewLayout lays out the nodes of a shape-only graph (flats.Counts.ShapeGraph)
// that have an edge.
func NewLayout(g *flats.Graph) *Layout {
	const cell, gapY, gapX = 7.0, 8.0, 70.0
	w := g.Width
	l := &Layout{Width: w, cell: cell, X: make([]float64, g.Nodes()), Y: make([]float64, g.Nodes())}
	for i := range l.X {
		l.X[i], l.Y[i] = math.NaN(), math.NaN()
	}
	drawn := drawnNodes(g)
	l.layers = make([][]int, w+1)
	for u := 0; u < g.N; u++ {
		if !drawn[u] {
			continue
		}
		k := bits.OnesCount16(g.State(u).Shape())
		l.layers[k] = append(l.layers[k], u)
	}
	l.layers[w] = []int{g.N, g.N + 1}
	tallest := 0
	for _, ly := range l.layers {
		tallest = max(tallest, len(ly))
	}
	nodeW, rowH := float64(w)*cell, cell+gapY
	// The sinks' boxes hold their labels ("immortal" at 9 px is about 40 px).
	l.SinkW = max(nodeW, 50)
	tallest = max(tallest, 4)
	l.H = float64(tallest)*rowH + 36 // the title above, a small margin below
	l.W = float64(len(l.layers)-1)*(nodeW+gapX) + l.SinkW + 20
	for k, ly := range l.layers {
		sort.Slice(ly, func(i, j int) bool { return g.State(ly[i]).Shape() < g.State(ly[j]).Shape() })
		x := 10 + float64(k)*(nodeW+gapX) + nodeW/2
		top := 30 + (float64(tallest)-float64(len(ly)))*rowH/2
		if k == w { // the sinks: apart, a third of the way from the top and from the bottom
			x = 10 + float64(k)*(nodeW+gapX) + l.SinkW/2
			span := float64(tallest) * rowH
			l.X[g.N], l.Y[g.N] = x, 30+span/3
			l.X[g.N+1], l.Y[g.N+1] = x, 30+2*span/3
			l.Nodes = append(l.Nodes, g.N, g.N+1)
			continue
		}
		for i, u := range ly {
			l.X[u], l.Y[u] = x, top+float64(i)*rowH+rowH/2
			l.Nodes = append(l.Nodes, u)
		}
	}
	return l
}

// MaxDrawnEdges is the most edges GraphSVG draws: a larger graph (the 6x6
// well's 370 edges) shows only its heaviest edges, and says so in its
// legend (EdgeTable lists them).
const MaxDrawnEdges = 60

// GraphSVG draws a shape-only transition graph (widths up to about 6):
// nodes layered by popcount, each a mini-row of the well's cells; an edge's
// stroke width grows with the log of its count; nodes and edges are
// coloured by the absorption B into cleared (viridis, legend below; the
// sinks are cleared = 1, immortal = 0). The picture scales to the cell's
// width (viewBox, width 100%).
func GraphSVG(g *flats.Graph, title string) lab.SVG {
	b := flats.Absorb(g)
	l := NewLayout(g)
	w := g.Width
	nodeW := float64(w) * l.cell
	maxN := 1.0
	for u := 0; u < g.Nodes(); u++ {
		_, ns := g.Out(u)
		for _, n := range ns {
			maxN = max(maxN, n)
		}
	}
	colour := func(u int) string {
		switch {
		case u == g.N:
			return lab.Colormap(1)
		case u == g.N+1:
			return lab.Colormap(0)
		case math.IsNaN(b[u]):
			return "#bbb"
		}
		return lab.Colormap(b[u])
	}
	var s strings.Builder
	legendH := 52.0
	if g.EdgeCount() > MaxDrawnEdges {
		legendH += 14
	}
	H := l.H + legendH
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="100%%" style="max-width:%.0fpx;height:auto" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`, l.W, H, l.W)
	fmt.Fprintf(&s, `<rect width="%.0f" height="%.0f" fill="#fff"/>`, l.W, H)
	fmt.Fprintf(&s, `<text x="%.0f" y="16" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`, l.W/2, esc(title))
	// Edges first (under the nodes), thin before thick.
	type edge struct {
		u, v int
		n    float64
	}
	var es []edge
	for u := 0; u < g.Nodes(); u++ {
		to, ns := g.Out(u)
		for i, v := range to {
			es = append(es, edge{u, int(v), ns[i]})
		}
	}
	// The heaviest MaxDrawnEdges edges, drawn thin before thick.
	allEdges, total, kept := len(es), 0.0, 0.0
	for _, e := range es {
		total += e.n
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].n > es[j].n })
	if len(es) > MaxDrawnEdges {
		es = es[:MaxDrawnEdges]
	}
	for _, e := range es {
		kept += e.n
	}
	slices.Reverse(es)
	s.WriteString(`<g fill="none" stroke-opacity="0.55">`)
	for _, e := range es {
		x1, y1 := l.X[e.u]+nodeW/2+2, l.Y[e.u]
		half := nodeW / 2
		if e.v >= g.N {
			half = l.SinkW / 2
		}
		x2, y2 := l.X[e.v]-half-2, l.Y[e.v]
		sw := 0.4 + 3.6*math.Log1p(e.n)/math.Log1p(maxN)
		mx := (x1 + x2) / 2
		fmt.Fprintf(&s, `<path class="edge" d="M%.1f %.1fC%.1f %.1f %.1f %.1f %.1f %.1f" stroke="%s" stroke-width="%.2f"><title>%s → %s: %s</title></path>`,
			x1, y1, mx, y1, mx, y2, x2, y2, colour(e.v), sw, g.State(e.u).Format(w), g.State(e.v).Format(w), lab.Count(e.n))
	}
	s.WriteString(`</g>`)
	for _, u := range l.Nodes {
		x0, y0 := l.X[u]-nodeW/2, l.Y[u]-l.cell/2
		fmt.Fprintf(&s, `<g class="node"><title>%s B=%s</title>`, g.State(u).Format(w), fmtB(b, u, g))
		if u >= g.N {
			name := "cleared"
			if u == g.N+1 {
				name = "immortal"
			}
			fmt.Fprintf(&s, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="3" fill="%s" stroke="#333"/><text x="%.1f" y="%.1f" font-size="9" text-anchor="middle" fill="%s">%s</text></g>`,
				l.X[u]-l.SinkW/2, y0-4, l.SinkW, l.cell+8, colour(u), l.X[u], l.Y[u]+3, map[bool]string{true: "#000", false: "#fff"}[u == g.N], name)
			continue
		}
		shape := g.State(u).Shape()
		for x := 0; x < w; x++ {
			fill := "#fff"
			if shape&(1<<(w-1-x)) != 0 {
				fill = colour(u)
			}
			fmt.Fprintf(&s, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#555" stroke-width="0.5"/>`, x0+float64(x)*l.cell, y0, l.cell, l.cell, fill)
		}
		s.WriteString(`</g>`)
	}
	// Legend.
	ly := l.H + 8
	s.WriteString(`<g font-size="10">`)
	fmt.Fprintf(&s, `<text x="10" y="%.0f">B (absorption into cleared):</text>`, ly+10)
	for i := 0; i <= 10; i++ {
		fmt.Fprintf(&s, `<rect x="%d" y="%.0f" width="18" height="10" fill="%s"/>`, 170+i*18, ly+1, lab.Colormap(float64(i)/10))
	}
	fmt.Fprintf(&s, `<text x="170" y="%.0f">0</text><text x="%d" y="%.0f" text-anchor="end">1</text>`, ly+24, 170+11*18, ly+24)
	fmt.Fprintf(&s, `<text x="10" y="%.0f">grey: no B · edge width ∝ log count (max %s) · columns: cells filled 0..%d, then the sinks</text>`, ly+40, lab.Count(maxN), w-1)
	if len(es) < allEdges {
		fmt.Fprintf(&s, `<text x="10" y="%.0f">only the %d heaviest of %d edges are drawn (%.0f%% of the transitions); transitions.EdgeTable lists them</text>`,
			ly+54, len(es), allEdges, 100*kept/total)
	}
	s.WriteString(`</g></svg>`)
	return lab.SVG(s.String())
}

func fmtB(b []float64, u int, g *flats.Graph) string {
	if u == g.N {
		return "1"
	}
	if u == g.N+1 {
		return "0"
	}
	if math.IsNaN(b[u]) {
		return "–"
	}
	return fmt.Sprintf("%.3f", b[u])
}

func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

// EdgeRow is one transition of a shape-only graph, for EdgeTable.
type EdgeRow struct {
	From  string  `lab:"from"`
	To    string  `lab:"to"`
	Count float64 `lab:"count"`
	Share string  `lab:"share of all"`
	BFrom string  `lab:"B from"`
	BTo   string  `lab:"B to"`
}

// EdgeTable lists the n heaviest edges of a shape-only graph, heaviest
// first, with their share of all transitions and the B of both ends: the
// reading aid beside a graph too dense to read edge by edge.
func EdgeTable(g *flats.Graph, n int) []EdgeRow {
	b := flats.Absorb(g)
	var rows []EdgeRow
	total := 0.0
	for u := 0; u < g.Nodes(); u++ {
		to, ns := g.Out(u)
		for i, v := range to {
			total += ns[i]
			rows = append(rows, EdgeRow{From: g.State(u).Format(g.Width), To: g.State(int(v)).Format(g.Width), Count: ns[i],
				BFrom: fmtB(b, u, g), BTo: fmtB(b, int(v), g)})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Count > rows[j].Count })
	if n < len(rows) {
		rows = rows[:max(n, 0)]
	}
	for i := range rows {
		rows[i].Share = fmt.Sprintf("%.1f%%", 100*rows[i].Count/total)
	}
	return rows
}

// DrawnCounts returns the nodes and edges of g that GraphSVG lays out (the
// nodes with an edge, both sinks included, and every edge; it draws at
// most MaxDrawnEdges of the edges).
func DrawnCounts(g *flats.Graph) (nodes, edges int) {
	for _, d := range drawnNodes(g) {
		if d {
			nodes++
		}
	}
	return nodes, g.EdgeCount()
}

// DOT writes a shape-only graph in Graphviz's DOT language: nodes named by
// their shapes, filled with their B colour, edges labelled with their
// counts and as wide as in GraphSVG, ranked left to right by popcount.
func DOT(g *flats.Graph) string {
	b := flats.Absorb(g)
	w := g.Width
	drawn := drawnNodes(g)
	name := func(u int) string { return `"` + g.State(u).Format(w) + `"` }
	var s strings.Builder
	s.WriteString("digraph flats {\n  rankdir=LR;\n  node [shape=box, style=filled, fontname=\"DejaVu Sans Mono\", fontsize=10];\n")
	maxN := 1.0
	for u := 0; u < g.Nodes(); u++ {
		_, ns := g.Out(u)
		for _, n := range ns {
			maxN = max(maxN, n)
		}
	}
	ranks := map[int][]string{}
	for u := 0; u < g.Nodes(); u++ {
		if !drawn[u] {
			continue
		}
		var c string
		switch {
		case u == g.N:
			c = lab.Colormap(1)
		case u == g.N+1:
			c = lab.Colormap(0)
		case math.IsNaN(b[u]):
			c = "#bbbbbb"
		default:
			c = lab.Colormap(b[u])
		}
		font := "white"
		if u == g.N || (u < g.N && !math.IsNaN(b[u]) && b[u] > 0.6) {
			font = "black"
		}
		fmt.Fprintf(&s, "  %s [fillcolor=%q, fontcolor=%s, tooltip=\"B=%s\"];\n", name(u), c, font, fmtB(b, u, g))
		k := w
		if u < g.N {
			k = bits.OnesCount16(g.State(u).Shape())
		}
		ranks[k] = append(ranks[k], name(u))
	}
	for k := 0; k <= w; k++ {
		if len(ranks[k]) > 0 {
			fmt.Fprintf(&s, "  { rank=same; %s; }\n", strings.Join(ranks[k], "; "))
		}
	}
	for u := 0; u < g.Nodes(); u++ {
		to, ns := g.Out(u)
		for i, v := range to {
			fmt.Fprintf(&s, "  %s -> %s [label=%q, penwidth=%.2f];\n", name(u), name(int(v)), lab.Count(ns[i]), 0.4+3.6*math.Log1p(ns[i])/math.Log1p(maxN))
		}
	}
	s.WriteString("}\n")
	return s.String()
}

// HaveDot reports whether Graphviz's dot is installed.
func HaveDot() bool {
	_, err := exec.LookPath("dot")
	return err == nil
}

// RenderDOT renders DOT source with `dot -Tsvg` (ok false, no error, when
// Graphviz is not installed; a 30 s limit).
func RenderDOT(src string) (svg lab.SVG, ok bool, err error) {
	path, err := exec.LookPath("dot")
	if err != nil {
		return "", false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-Tsvg")
	cmd.Stdin = strings.NewReader(src)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", true, fmt.Errorf("dot -Tsvg: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	s := out.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return lab.SVG(s), true, nil
}
