package draw

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/svgtest"
	"github.com/hatelab/hatelab/lab"
)

// svgRects counts the cells drawn with the given fill: the squares
// ("...z") of the <path> elements filled with that colour.
func svgRects(s, fill string) int {
	n := 0
	for _, el := range strings.Split(s, "<path ")[1:] {
		el = el[:strings.Index(el, ">")]
		if strings.Contains(el, `fill="`+fill+`"`) {
			if i := strings.Index(el, `d="`); i >= 0 {
				d := el[i+3:]
				n += strings.Count(d[:strings.Index(d, `"`)], "z")
			}
		}
	}
	return n
}

func TestWellSVG(t *testing.T) {
	r := hatetris.Standard()
	var w hatetris.Well
	w[19] = 0b1111111110 // nine cells
	w[18] = 0b1000000000 // one cell
	svg := string(Well(r, &w, WithTitle("a <title>"), WithPiece(hatetris.T, r.Spawn()), WithGhost()))
	svgtest.WellFormed(t, svg)
	if !strings.HasPrefix(svg, "<svg") {
		t.Errorf("does not start with <svg: %.40s", svg)
	}
	if got := svgRects(svg, StackColor); got != 10 {
		t.Errorf("%d stack cells drawn, want 10", got)
	}
	if !strings.Contains(svg, "a &lt;title&gt;") {
		t.Error("title not escaped or missing")
	}
	if got := svgRects(svg, PieceColor[hatetris.T]); got != 4 {
		t.Errorf("%d live-piece cells drawn, want 4", got)
	}
	if !strings.Contains(svg, "stroke-dasharray") {
		t.Error("ghost piece (dashed) missing")
	}
}

func TestLanding(t *testing.T) {
	r := hatetris.Standard()
	var w hatetris.Well
	for y := 10; y < r.Depth; y++ {
		w[y] = r.FullRow()
	}
	pos := Landing(r, &w, hatetris.O, r.Spawn())
	cells := pieceAt(hatetris.O, pos)
	lowest := 0
	for _, c := range cells {
		lowest = max(lowest, c[1])
	}
	if lowest != 9 {
		t.Errorf("O lands with its lowest cell on row %d, want 9", lowest)
	}
}

func TestFilmstripAndStrip(t *testing.T) {
	g, err := hatetris.Play(hatetris.Standard(), hatetris.HATETRIS, strings.Repeat("D", 40))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(Filmstrip(g, 0, 3, WithPerRow(2)))
	svgtest.WellFormed(t, svg)
	if n := strings.Count(svg, "<svg"); n < 4 {
		t.Errorf("filmstrip of 3 frames holds %d <svg elements, want the outer one and 3 frames", n)
	}
	col := string(lab.Column(lab.SVG(svg), Well(g.Rules, &g.Well)))
	svgtest.WellFormed(t, col)
}

func TestHeatWell(t *testing.T) {
	r, _ := hatetris.NewRules(4, 6, 2)
	var w hatetris.Well
	svg := string(HeatWell(r, &w, func(x, y int) float64 { return float64(x) / 3 }))
	svgtest.WellFormed(t, svg)
	if !strings.Contains(svg, lab.Colormap(0)) || !strings.Contains(svg, lab.Colormap(1)) {
		t.Error("heat colours of the extreme values missing")
	}
}
