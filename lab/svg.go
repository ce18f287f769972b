package lab

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Cell says how Grid draws one cell. The zero Cell is an empty cell.
type Cell struct {
	// Fill is the fill colour (any SVG colour); "" leaves the cell empty.
	Fill string
	// Stroke is an outline colour drawn inside the cell; "" for none.
	Stroke string
	// Dashed draws the outline dashed (ghost pieces).
	Dashed bool
	// Label is a short text drawn in the cell.
	Label string
}

// Grid is a board of Cols x Rows square cells, row 0 at the top: a
// HATETRIS well, a classic Tetris board or a heatmap. Cell says how to draw
// each cell; everything else is optional.
type Grid struct {
	Cols, Rows int
	Cell       func(x, y int) Cell
	// Size is the side of a cell in pixels (default 14).
	Size int
	// Rules lists rows above which a red dashed rule is drawn (the HATETRIS
	// bar sits above row Bar).
	Rules []int
	// Title is drawn above the board, Caption below it (several lines
	// allowed, separated by "\n").
	Title, Caption string
	// Frame is the colour of the board's outline (default dark grey); a
	// red frame marks a special frame of a filmstrip.
	Frame string
	// Background of the empty cells (default white).
	Background string
}

const (
	svgFont     = `font-family="DejaVu Sans, Helvetica, Arial, sans-serif"`
	lineHeight  = 14
	svgPad      = 4
	defaultCell = 14
)

// SVG draws the grid.
func (g Grid) SVG() SVG {
	size := g.Size
	if size <= 0 {
		size = defaultCell
	}
	frame := g.Frame
	if frame == "" {
		frame = "#333"
	}
	bg := g.Background
	if bg == "" {
		bg = "#fff"
	}
	titleLines := splitLines(g.Title)
	capLines := splitLines(g.Caption)
	bw, bh := g.Cols*size, g.Rows*size
	top := svgPad + len(titleLines)*lineHeight
	width := bw + 2*svgPad
	// Captions may be wider than a narrow board.
	for _, l := range append(append([]string{}, titleLines...), capLines...) {
		width = max(width, textWidth(l)+2*svgPad)
	}
	height := top + bh + svgPad + len(capLines)*lineHeight
	left := (width - bw) / 2

	var b strings.Builder
	b.WriteString(svgOpen(float64(width), float64(height)))
	for i, l := range titleLines {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-size="12" font-weight="bold" %s>%s</text>`,
			width/2, svgPad+(i+1)*lineHeight-3, svgFont, escape(l))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, left, top, bw, bh, bg)
	// Faint grid lines, as one path.
	var grid strings.Builder
	for x := 1; x < g.Cols; x++ {
		fmt.Fprintf(&grid, "M%d %dv%d", left+x*size, top, bh)
	}
	for y := 1; y < g.Rows; y++ {
		fmt.Fprintf(&grid, "M%d %dh%d", left, top+y*size, bw)
	}
	if grid.Len() > 0 {
		fmt.Fprintf(&b, `<path d="%s" stroke="#e4e4e4" stroke-width="1" fill="none"/>`, grid.String())
	}
	if g.Cell != nil {
		// One path per fill colour and per outline style keeps the SVG small.
		type outline struct {
			color  string
			dashed bool
		}
		fills := map[string]*strings.Builder{}
		lines := map[outline]*strings.Builder{}
		var fillOrder []string
		var lineOrder []outline
		var labels strings.Builder
		for y := 0; y < g.Rows; y++ {
			for x := 0; x < g.Cols; x++ {
				c := g.Cell(x, y)
				px, py := left+x*size, top+y*size
				if c.Fill != "" {
					f := fills[c.Fill]
					if f == nil {
						f = &strings.Builder{}
						fills[c.Fill] = f
						fillOrder = append(fillOrder, c.Fill)
					}
					fmt.Fprintf(f, "M%d %dh%dv%dh-%dz", px, py, size, size, size)
				}
				if c.Stroke != "" {
					k := outline{c.Stroke, c.Dashed}
					l := lines[k]
					if l == nil {
						l = &strings.Builder{}
						lines[k] = l
						lineOrder = append(lineOrder, k)
					}
					fmt.Fprintf(l, "M%.1f %.1fh%dv%dh-%dz", float64(px)+1.5, float64(py)+1.5, size-3, size-3, size-3)
				}
				if c.Label != "" {
					fmt.Fprintf(&labels, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="%d" %s>%s</text>`,
						float64(px)+float64(size)/2, float64(py)+float64(size)*0.72, max(6, size*9/14), svgFont, escape(c.Label))
				}
			}
		}
		for _, col := range fillOrder {
			fmt.Fprintf(&b, `<path d="%s" fill="%s" stroke="#fff" stroke-width="1"/>`, fills[col].String(), col)
		}
		for _, k := range lineOrder {
			dash := ""
			if k.dashed {
				dash = ` stroke-dasharray="3,2"`
			}
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="1.5"%s/>`, lines[k].String(), k.color, dash)
		}
		b.WriteString(labels.String())
	}
	for _, r := range g.Rules {
		if r <= 0 || r >= g.Rows {
			continue
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#d62728" stroke-width="1.5" stroke-dasharray="4,3"/>`,
			left-2, top+r*size, left+bw+2, top+r*size)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="none" stroke="%s" stroke-width="2"/>`,
		float64(left)-1, float64(top)-1, bw+2, bh+2, frame)
	for i, l := range capLines {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-size="11" %s>%s</text>`,
			width/2, top+bh+svgPad+(i+1)*lineHeight-3, svgFont, escape(l))
	}
	b.WriteString(`</svg>`)
	return SVG(b.String())
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// textWidth estimates the pixel width of s in bold 12px sans-serif (the
// widest text Grid writes).
func textWidth(s string) int { return int(math.Ceil(float64(len([]rune(s))) * 7.6)) }

// svgOpen is the root element of the pictures lab draws: sized in pixels,
// and scaled down by the browser when wider than the output area.
func svgOpen(w, h float64) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g"`, w, h, w, h) + rootStyle + ">"
}

var svgAttrRe = regexp.MustCompile(`\s(width|height)="([0-9.]+)(pt|px)?"`)

// svgSize reads the width and height attributes of an SVG's root element in
// pixels (0 when absent). gonum/plot writes them in points, 4/3 pixel each.
func svgSize(s string) (w, h float64) {
	s = stripXMLProlog(s)
	end := strings.IndexByte(s, '>')
	if !strings.HasPrefix(s, "<svg") || end < 0 {
		return 0, 0
	}
	for _, m := range svgAttrRe.FindAllStringSubmatch(s[:end], -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		if m[3] == "pt" {
			v *= 4.0 / 3
		}
		if m[1] == "width" {
			w = v
		} else {
			h = v
		}
	}
	return w, h
}

// stripXMLProlog drops a leading <?xml ...?> declaration and comments.
func stripXMLProlog(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "<?"):
			i := strings.Index(s, "?>")
			if i < 0 {
				return s
			}
			s = s[i+2:]
		case strings.HasPrefix(s, "<!--"):
			i := strings.Index(s, "-->")
			if i < 0 {
				return s
			}
			s = s[i+3:]
		default:
			return s
		}
	}
}

const rootStyle = ` style="max-width:100%;height:auto"`

// nested prepares a picture for placing inside another: no XML prolog and
// no root scaling style.
func nested(p SVG) string {
	s := stripXMLProlog(string(p))
	if end := strings.IndexByte(s, '>'); end > 0 {
		s = strings.Replace(s[:end], rootStyle, "", 1) + s[end:]
	}
	return s
}

// Strip lays pictures out left to right, wrapping after perRow of them
// (perRow <= 0: one row), top-aligned with a small gap: a filmstrip.
func Strip(perRow int, pics ...SVG) SVG {
	if len(pics) == 0 {
		return SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>`)
	}
	if perRow <= 0 {
		perRow = len(pics)
	}
	const gap = 6
	var body strings.Builder
	x, y, rowH, width := 0.0, 0.0, 0.0, 0.0
	for i, p := range pics {
		if i > 0 && i%perRow == 0 {
			x, y, rowH = 0, y+rowH+gap, 0
		}
		w, h := svgSize(string(p))
		inner := nested(p)
		// Place the picture by wrapping it in a positioned nested <svg>.
		fmt.Fprintf(&body, `<svg x="%g" y="%g" width="%g" height="%g">%s</svg>`, x, y, w, h, inner)
		x += w + gap
		rowH = max(rowH, h)
		width = max(width, x-gap)
	}
	height := y + rowH
	return SVG(svgOpen(width, height) + body.String() + "</svg>")
}

// Colormap maps t in [0, 1] to a colour of the viridis scale (dark blue,
// low, to yellow, high); t is clamped.
func Colormap(t float64) string {
	stops := [...][3]float64{
		{68, 1, 84}, {72, 40, 120}, {62, 74, 137}, {49, 104, 142}, {38, 130, 142},
		{31, 158, 137}, {53, 183, 121}, {109, 205, 89}, {180, 222, 44}, {253, 231, 37},
	}
	if math.IsNaN(t) {
		t = 0
	}
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(stops)-1)
	i := int(f)
	if i >= len(stops)-1 {
		i, f = len(stops)-2, float64(len(stops)-1)
	}
	u := f - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(stops[i][k]*(1-u) + stops[i+1][k]*u))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// HeatGrid draws a Cols x Rows grid whose cells are coloured by value(x, y)
// on the viridis scale from the smallest to the largest value (NaN leaves a
// cell empty), with a legend giving the range under the board. mark, when
// not nil, outlines the cells for which it returns true (e.g. the filled
// cells of a well).
func HeatGrid(cols, rows int, value func(x, y int) float64, mark func(x, y int) bool, title string) SVG {
	lo, hi := math.Inf(1), math.Inf(-1)
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			v := value(x, y)
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	caption := "no values"
	if lo <= hi {
		caption = fmt.Sprintf("%s to %s", fmtNum(lo), fmtNum(hi))
	}
	g := Grid{Cols: cols, Rows: rows, Title: title, Caption: caption, Cell: func(x, y int) Cell {
		var c Cell
		v := value(x, y)
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			t := 0.5
			if hi > lo {
				t = (v - lo) / (hi - lo)
			}
			c.Fill = Colormap(t)
		}
		if mark != nil && mark(x, y) {
			c.Stroke = "#000"
		}
		return c
	}}
	board := g.SVG()
	// A legend bar from low to high under the board.
	const n, lw, lh = 10, 12, 8
	var leg strings.Builder
	fmt.Fprintf(&leg, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`, n*lw+2*svgPad, lh+2)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&leg, `<rect x="%d" y="1" width="%d" height="%d" fill="%s"/>`, svgPad+i*lw, lw, lh, Colormap(float64(i)/(n-1)))
	}
	leg.WriteString(`</svg>`)
	return Column(board, SVG(leg.String()))
}

// Column stacks pictures top to bottom, centred.
func Column(pics ...SVG) SVG {
	width, height := 0.0, 0.0
	for _, p := range pics {
		w, h := svgSize(string(p))
		width, height = math.Max(width, w), height+h
	}
	var body strings.Builder
	y := 0.0
	for _, p := range pics {
		w, h := svgSize(string(p))
		fmt.Fprintf(&body, `<svg x="%g" y="%g" width="%g" height="%g">%s</svg>`, (width-w)/2, y, w, h, nested(p))
		y += h
	}
	return SVG(svgOpen(width, height) + body.String() + "</svg>")
}

// fmtNum formats a number briefly: integers as integers, others with 3
// significant digits.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func escape(s string) string { return html.EscapeString(s) }

// Title draws a line of bold text as a picture, to head a Column.
func Title(title string) SVG {
	w := textWidth(title) + 2*svgPad
	return SVG(fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d"><text x="%d" y="%d" text-anchor="middle" font-size="13" font-weight="bold" %s>%s</text></svg>`,
		w, lineHeight+6, w/2, lineHeight, svgFont, escape(title)))
}
