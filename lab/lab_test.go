package lab

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
)

// wellFormed parses s as XML to the end, failing the test on any error.
func wellFormed(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%.300s", err, s)
		}
	}
}

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
	wellFormed(t, svg)
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
	wellFormed(t, svg)
	if n := strings.Count(svg, "<svg"); n < 4 {
		t.Errorf("filmstrip of 3 frames holds %d <svg elements, want the outer one and 3 frames", n)
	}
	col := string(Column(SVG(svg), Well(g.Rules, &g.Well)))
	wellFormed(t, col)
}

func TestHeatWell(t *testing.T) {
	r, _ := hatetris.NewRules(4, 6, 2)
	var w hatetris.Well
	svg := string(HeatWell(r, &w, func(x, y int) float64 { return float64(x) / 3 }))
	wellFormed(t, svg)
	if !strings.Contains(svg, Colormap(0)) || !strings.Contains(svg, Colormap(1)) {
		t.Error("heat colours of the extreme values missing")
	}
}

func TestTableOf(t *testing.T) {
	type row struct {
		Name  string
		Score int     `lab:"Score,%d lines"`
		Ratio float64 `lab:"ratio,%.2f"`
		Skip  int     `lab:"-"`
		Took  time.Duration
	}
	tab := TableOf([]row{{"a<b", 3, 0.5, 9, 1500 * time.Microsecond}, {"c", 12, 1.25, 9, time.Second}})
	if want := []string{"Name", "Score", "ratio", "Took"}; strings.Join(tab.Headers, "|") != strings.Join(want, "|") {
		t.Errorf("headers %q, want %q", tab.Headers, want)
	}
	if got := strings.Join(tab.Rows[0], "|"); got != "a<b|3 lines|0.50|2ms" {
		t.Errorf("row 0 = %q", got)
	}
	if !tab.Right[1] || !tab.Right[2] || tab.Right[0] {
		t.Errorf("alignment %v: numbers right, text left", tab.Right)
	}
	h := tab.HTML()
	wellFormed(t, h)
	if !strings.Contains(h, "a&lt;b") {
		t.Error("HTML cell not escaped")
	}
	lines := strings.Split(strings.TrimRight(tab.Text(), "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("text table has %d lines:\n%s", len(lines), tab.Text())
	}
	if !strings.Contains(tab.Text(), "12 lines") {
		t.Errorf("text table misses a cell:\n%s", tab.Text())
	}
}

func TestTableAdd(t *testing.T) {
	tab := NewTable("k", "v").Add("x", 1).Add("y", 2.5)
	if len(tab.Rows) != 2 || tab.Rows[1][1] != "2.5" || !tab.Right[1] || tab.Right[0] {
		t.Errorf("table %+v", tab)
	}
}

func TestCountAndClock(t *testing.T) {
	for _, c := range []struct {
		n    float64
		want string
	}{{0, "0"}, {999, "999"}, {2.5, "2.5"}, {1200, "1.2k"}, {3.4e6, "3.4M"}, {5.6e9, "5.6G"}} {
		if got := Count(c.n); got != c.want {
			t.Errorf("Count(%v) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{7 * time.Second, "0:07"}, {205 * time.Second, "3:25"}, {3723 * time.Second, "1:02:03"}} {
		if got := Clock(c.d); got != c.want {
			t.Errorf("Clock(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// fakeClock steps a meter's time by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestMeterRateAndETA(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	m := newMeter("job")
	m.now = clk.now
	m.update(progress.Event{Stage: "s", Done: 0, Total: 1000, Unit: "states"})
	clk.t = clk.t.Add(2 * time.Second)
	s := m.update(progress.Event{Stage: "s", Done: 200, Total: 1000, Unit: "states"})
	if s.Rate != 100 {
		t.Errorf("rate %v, want 100/s", s.Rate)
	}
	if s.ETA != 8*time.Second {
		t.Errorf("ETA %v, want 8s", s.ETA)
	}
	if txt := s.text(); !strings.Contains(txt, "20% 200/1.0k states") || !strings.Contains(txt, "ETA 0:08") || !strings.HasPrefix(txt, "job · s") {
		t.Errorf("status line %q", txt)
	}
	clk.t = clk.t.Add(time.Second)
	s = m.update(progress.Event{Stage: "t", Done: 5, Total: 10})
	if s.Rate != 0 || s.ETA != -1 {
		t.Errorf("a new stage must restart the rate: rate %v ETA %v", s.Rate, s.ETA)
	}
	fin := m.update(progress.Event{Finished: true, Total: 10})
	if !strings.Contains(fin.text(), "done in 0:03") {
		t.Errorf("final line %q", fin.text())
	}
}

func TestNotebookProgressUpdatesInPlace(t *testing.T) {
	var ids []string
	var last string
	p := newHTMLProgress("bfs", func(id, h string) { ids = append(ids, id); last = h }, "p_1")
	for i := int64(0); i <= 100; i++ {
		p.Report(progress.Event{Stage: "level 1", Done: i, Total: 100, Unit: "states"})
	}
	p.Report(progress.Event{Stage: "level 1", Done: 100, Total: 100, Unit: "states", Finished: true})
	if len(ids) == 0 || len(ids) > 10 {
		t.Fatalf("%d updates for a fast job, want a few (throttled)", len(ids))
	}
	for _, id := range ids {
		if id != "p_1" {
			t.Fatalf("update to %q: every update must replace the same output", id)
		}
	}
	if !strings.Contains(last, `<progress value="100" max="100"`) || !strings.Contains(last, "done in") {
		t.Errorf("final bar %q", last)
	}
}

func TestLineProgress(t *testing.T) {
	var b bytes.Buffer
	p := LineProgress(&b, "sweep", time.Hour)
	p.Report(progress.Event{Done: 1, Unit: "seeds"})
	p.Report(progress.Event{Done: 2, Unit: "seeds"})
	p.Report(progress.Event{Done: 3, Unit: "seeds", Finished: true})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "sweep · 1 seeds") || !strings.Contains(lines[1], "done in") {
		t.Errorf("lines %q: want the first event and the last", lines)
	}
}

func TestPlotsAndFigures(t *testing.T) {
	t.Setenv("HATELAB_FIGURES", t.TempDir())
	p, err := LinePlot("t", "x", "y", Series{Name: "a", X: []float64{0, 1, 2}, Y: []float64{1, 3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := PlotSVG(p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, string(svg))
	png, err := PlotPNG(p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Error("PlotPNG is not a PNG")
	}
	if err := ShowPlot(p, "test-plot"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(FiguresDir(), "test-plot.svg"))
	if err != nil || !bytes.Equal(b, []byte(svg)) {
		t.Errorf("saved figure differs from the shown one (err %v)", err)
	}
	left, _ := filepath.Glob(filepath.Join(FiguresDir(), ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSaveFigureError(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	t.Setenv("HATELAB_FIGURES", f) // a file, not a folder
	if err := SaveFigure("x.svg", []byte("x")); err == nil {
		t.Error("saving under a file must fail")
	}
}

func TestQuickAndPick(t *testing.T) {
	for _, c := range []struct {
		env  string
		want bool
	}{{"1", true}, {"true", true}, {"yes", true}, {"0", false}, {"", false}} {
		t.Setenv("HATELAB_QUICK", c.env)
		if Quick() != c.want || Pick(1, 2) != map[bool]int{true: 1, false: 2}[c.want] {
			t.Errorf("HATELAB_QUICK=%q: Quick() = %v", c.env, Quick())
		}
	}
}

func TestRepoRoot(t *testing.T) {
	root := RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "datasets", "records", "records.jsonl")); err != nil {
		t.Errorf("RepoRoot() = %q: %v", root, err)
	}
}

func TestWindowStats(t *testing.T) {
	xs, mean, lo, hi := WindowStats([]float64{0, 1, 2, 3, 4}, []float64{1, 3, 5, 7, 9}, 2)
	if len(xs) != 3 || xs[0] != 0.5 || mean[0] != 2 || lo[1] != 5 || hi[1] != 7 || xs[2] != 4 || mean[2] != 9 {
		t.Errorf("WindowStats: %v %v %v %v", xs, mean, lo, hi)
	}
}

func TestRecordsReplay(t *testing.T) {
	rs, err := Records(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := FindRecord(rs, "David & Felipe (6)")
	if err != nil {
		t.Fatal(err)
	}
	if r.Game.Score != 3711 || len(r.Game.LoopChanges) != 9 {
		t.Errorf("3711 record replays to %d points with %d loop-rule firings, want 3711 and 9", r.Game.Score, len(r.Game.LoopChanges))
	}
	if _, err := FindRecord(rs, "nobody"); err == nil {
		t.Error("FindRecord of an unknown name must fail")
	}
	x, y := ScoreByPiece(r.Game)
	if len(x) != len(y) || y[len(y)-1] != 3711 {
		t.Errorf("ScoreByPiece ends at %v", y[len(y)-1])
	}
	tab := RecordTable(rs)
	if len(tab.Rows) != len(rs) {
		t.Errorf("record table has %d rows for %d records", len(tab.Rows), len(rs))
	}
}

func TestCheckAndMust(t *testing.T) {
	if got := Must(3, nil); got != 3 {
		t.Errorf("Must = %d", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Must with an error must panic (GoNB shows it as the cell's error)")
		}
	}()
	Must(0, errors.New("boom"))
}
