package lab

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hatelab/hatelab/internal/svgtest"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

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
	svgtest.WellFormed(t, h)
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
	svgtest.WellFormed(t, string(svg))
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
	b, err := os.ReadFile(filepath.Join(figuresDir(), "test-plot.svg"))
	if err != nil || !bytes.Equal(b, []byte(svg)) {
		t.Errorf("saved figure differs from the shown one (err %v)", err)
	}
	left, _ := filepath.Glob(filepath.Join(figuresDir(), ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSaveFigureError(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	t.Setenv("HATELAB_FIGURES", f) // a file, not a folder
	if err := saveFigure("x.svg", []byte("x")); err == nil {
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

func TestDecadeTicks(t *testing.T) {
	labels := func(min, max float64) []string {
		var out []string
		for _, tk := range (DecadeTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{1, 1e4, "1 10 100 1,000 10,000"},
		{1e6, 1e26, "10⁶ 10⁹ 10¹² 10¹⁵ 10¹⁸ 10²¹ 10²⁴"},
		{0.01, 50, "10⁻² 10⁻¹ 10⁰ 10¹"}, // one style: never 1 beside 10⁻¹
		{30, 3e5, "10² 10³ 10⁴ 10⁵"},    // never 10,000 beside 10⁵
		{5, 150, "10 20 50 100"},        // a close range labels 2 and 5 times a decade
		{1, 100, "1 2 5 10 20 50 100"},  //
		{3, 400, "5 10 20 50 100 200"},  // three decades too (06's lines per generation)
		{2e4, 5e6, "10⁵ 10⁶"},           // powers: minors unlabelled
		{1e3, 1e5, "10³ 10⁴ 10⁵"},
	} {
		if got := strings.Join(labels(c.min, c.max), " "); got != c.want {
			t.Errorf("[%g, %g]: labels %q, want %q", c.min, c.max, got, c.want)
		}
		if n := len(labels(c.min, c.max)); n > 8 {
			t.Errorf("[%g, %g]: %d labels", c.min, c.max, n)
		}
	}
	if ts := (DecadeTicks{}).Ticks(0, 10); ts != nil {
		t.Errorf("a range from 0 gave ticks %v", ts)
	}
	// Close ranges get minor ticks at 2..9 times each decade.
	if n := len((DecadeTicks{}).Ticks(1, 100)); n != 3+16 {
		t.Errorf("[1, 100]: %d ticks, want 19", n)
	}
}

func TestNiceTicksLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{-2.5, 0, []string{"-2.5", "-2.0", "-1.5", "-1.0", "-0.5", "0"}},
		{0, 3711, []string{"0", "500", "1,000", "1,500", "2,000", "2,500", "3,000", "3,500"}},
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{0, 2.5e7, []string{"0", "0.5·10⁷", "1.0·10⁷", "1.5·10⁷", "2.0·10⁷", "2.5·10⁷"}},
		{0, 123456, []string{"0", "20,000", "40,000", "60,000", "80,000", "100,000", "120,000"}},
		{0.1, 0.3, []string{"0.10", "0.15", "0.20", "0.25", "0.30"}},
		{1.4, 17.6, []string{"2", "4", "6", "8", "10", "12", "14", "16"}},
	} {
		var got []string
		for _, tk := range (NiceTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("ticks of [%g, %g]: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestPlotLegendOffTheDataAndScalable(t *testing.T) {
	// Lines that fill every corner: the legend must go outside.
	var ss []Series
	for i := 0; i < 8; i++ {
		x := []float64{0, 100}
		ss = append(ss, Series{Name: fmt.Sprintf("series %d", i), X: x, Y: []float64{float64(i) * 100 / 7, 100 - float64(i)*100/7}})
	}
	p, err := LinePlot("crossing", "x", "y", ss...)
	if err != nil {
		t.Fatal(err)
	}
	w, h := PlotWidth, PlotHeight
	c := draw.New(vgsvg.New(w, h))
	q := *p
	padAxis(&q.X, q.X.Min, q.X.Max)
	padAxis(&q.Y, q.Y.Min, q.Y.Max)
	if placeLegendInside(&q, c, q.Legend.Rectangle(c).Size()) {
		t.Errorf("a legend was put inside a data area with no empty corner")
	}
	svg, err := PlotSVG(p, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	root := string(svg)[:strings.Index(string(svg), ">")+1]
	if i := strings.Index(string(svg), "<svg"); i >= 0 {
		root = string(svg)[i : i+strings.Index(string(svg)[i:], ">")+1]
	}
	if !strings.Contains(root, "viewBox=") || !strings.Contains(root, "max-width:100%") {
		t.Errorf("the chart does not scale to the output area: %s", root)
	}
	// One line rising from bottom left: the top left corner is empty.
	p, _ = LinePlot("rising", "x", "y", Series{Name: "a", X: []float64{0, 100}, Y: []float64{0, 100}}, Series{Name: "b", X: []float64{0, 100}, Y: []float64{0, 90}})
	q = *p
	if !placeLegendInside(&q, c, q.Legend.Rectangle(c).Size()) || !q.Legend.Top || !q.Legend.Left {
		t.Errorf("the empty top-left corner was not chosen: top %v left %v", q.Legend.Top, q.Legend.Left)
	}
	// Falling: top right is empty.
	p, _ = LinePlot("falling", "x", "y", Series{Name: "a", X: []float64{0, 100}, Y: []float64{100, 0}})
	q = *p
	if !placeLegendInside(&q, c, q.Legend.Rectangle(c).Size()) || !q.Legend.Top || q.Legend.Left {
		t.Errorf("the empty top-right corner was not chosen: top %v left %v", q.Legend.Top, q.Legend.Left)
	}
}

func TestPadAxisKeepsDataOffTheFrame(t *testing.T) {
	p := NewPlot()
	padAxis(&p.Y, 3, 10)
	if !(p.Y.Min < 3 && p.Y.Max > 10) {
		t.Errorf("padded range [%g, %g]", p.Y.Min, p.Y.Max)
	}
	padAxis(&p.X, 0, 10)
	if p.X.Min != 0 || p.X.Max <= 10 {
		t.Errorf("a range from 0 is padded to [%g, %g]", p.X.Min, p.X.Max)
	}
}

func TestFacets(t *testing.T) {
	var ss []Series
	for i := 0; i < 7; i++ {
		ss = append(ss, Series{Name: fmt.Sprint("game ", i), X: []float64{0, 1, 2}, Y: []float64{0, float64(i), float64(2 * i)}})
	}
	svg, err := Facets("seven games", "pieces", "lines", 3, false, ss...)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), "game "); n < 7 {
		t.Errorf("%d panel titles, want 7", n)
	}
	if !strings.Contains(string(svg)[:300], "max-width:100%") {
		t.Errorf("small multiples do not scale")
	}
}

func TestQuickModeNeverWritesFigures(t *testing.T) {
	t.Setenv("HATELAB_FIGURES", "")
	t.Setenv("HATELAB_QUICK", "1")
	if d := figuresDir(); d == RepoPath("figures") || !strings.HasPrefix(d, os.TempDir()) {
		t.Errorf("quick mode writes figures to %s, want a folder under %s", d, os.TempDir())
	}
	t.Setenv("HATELAB_QUICK", "")
	if d := figuresDir(); d != RepoPath("figures") {
		t.Errorf("full mode writes figures to %s, want %s", d, RepoPath("figures"))
	}
}

func TestCopyBoxWraps(t *testing.T) {
	h := string(CopyBox("replay", strings.Repeat("ɤ໖", 500)+"<"))
	if !strings.Contains(h, "word-break:break-all") || !strings.Contains(h, "user-select:all") || !strings.Contains(h, "&lt;") {
		t.Errorf("copy box %s", h[:200])
	}
}

func TestResponsiveSVG(t *testing.T) {
	in := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1144" height="216" viewBox="0 0 1144 216" style="max-width:100%;height:auto"><svg x="0" width="10" height="10"></svg></svg>`
	got := responsive(in)
	want := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 1144 216" style="max-width:min(100%,1144px);height:auto"><svg x="0" width="10" height="10"></svg></svg>`
	if got != want {
		t.Errorf("responsive:\n%s\nwant\n%s", got, want)
	}
	// gonum/plot's root: sizes in points, no viewBox.
	got = responsive(`<svg xmlns="http://www.w3.org/2000/svg" width="540pt" height="288pt"><g/></svg>`)
	if !strings.Contains(got, `viewBox="0 0 540 288"`) || !strings.Contains(got, `width="100%"`) || strings.Contains(got, "height=") || !strings.Contains(got, "720px") {
		t.Errorf("responsive chart root %s", got)
	}
}

func TestScratchDirKeyedByClone(t *testing.T) {
	d := ScratchDir()
	if !strings.HasPrefix(d, filepath.Join(os.TempDir(), "hatelab-")) || len(filepath.Base(d)) != len("hatelab-")+12 {
		t.Errorf("ScratchDir() = %q, want hatelab-HASH12 under %s", d, os.TempDir())
	}
	for _, c := range []struct{ name, want string }{
		{"hatelab-03-beam-quick.jsonl", filepath.Join(d, "hatelab-03-beam-quick.jsonl")},
		{"figures-quick", filepath.Join(d, "figures-quick")},
		{"/abs/cache.json", "/abs/cache.json"},
	} {
		if got := ScratchPath(c.name); got != c.want {
			t.Errorf("ScratchPath(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	t.Setenv("HATELAB_FIGURES", "")
	t.Setenv("HATELAB_QUICK", "1")
	if got := figuresDir(); got != filepath.Join(d, "figures-quick") {
		t.Errorf("quick figuresDir() = %q, want it in the clone's scratch folder %s", got, d)
	}
}

func TestQuickBanner(t *testing.T) {
	quick.Lock()
	quick.params = nil // those of other tests
	quick.Unlock()
	t.Setenv("HATELAB_QUICK", "")
	Param("full", 7, 8)
	if b := quickBanner(); b != "" {
		t.Errorf("full mode: banner %q, want none", b)
	}
	t.Setenv("HATELAB_QUICK", "1")
	t.Setenv("HATELAB_FIGURES", "/tmp/figs")
	Param("random games", 300, 2000)
	Param("beam widths", []int{30}, []int{100})
	Param("random games", 300, 2000)  // a repeat is listed once
	Pick("cache-quick", "cache-full") // not a parameter: not listed
	Param("spec", strings.Repeat("x", 60), "y")
	b := quickBanner()
	for _, want := range []string{
		"Quick mode (HATELAB_QUICK=1)", "quick-mode numbers", "read from committed data", "full mode's",
		"Parameters, quick (full): random games 300 (2000); beam widths [30] ([100]); spec " + strings.Repeat("x", 39) + "… (y).",
		"Figures go to /tmp/figs",
	} {
		if !strings.Contains(b, want) {
			t.Errorf("banner %q lacks %q", b, want)
		}
	}
	if strings.Count(b, "300 (2000)") != 1 || strings.Contains(b, "7 (8)") || strings.Contains(b, "cache") {
		t.Errorf("banner %q: want each quick parameter once, no full-mode one, no Pick", b)
	}
	svgtest.WellFormed(t, quickBannerHTML(b+" <&>"))
}

// TestQuickParamsAcrossCells: in a kernel each cell is a program of its
// own; the parameters live in a file of the kernel's folder, in the order
// chosen, each once.
func TestQuickParamsAcrossCells(t *testing.T) {
	file := filepath.Join(t.TempDir(), paramsFile)
	var added []bool
	for _, p := range []param{{"a", "1", "2"}, {"b", "3", "4"}, {"a", "1", "2"}} {
		_, ok := storeParam(file, p) // one cell's program each
		added = append(added, ok)
	}
	if fmt.Sprint(added) != "[true true false]" {
		t.Errorf("added %v, want [true true false]", added)
	}
	if got := bannerText(readParams(file)); !strings.Contains(got, "Parameters, quick (full): a 1 (2); b 3 (4).") {
		t.Errorf("banner %q: want a then b, once each", got)
	}
	// The banner says what the outputs are: quick-mode numbers once a cell
	// has shrunk a parameter, the full mode's before (01 has none).
	for _, c := range []struct {
		params []param
		want   string
	}{
		{nil, "no cell so far has a parameter that quick mode shrinks"},
		{readParams(file), "run with small parameters"},
	} {
		if got := bannerText(c.params); !strings.Contains(got, c.want) {
			t.Errorf("banner with %d parameters %q: want %q", len(c.params), got, c.want)
		}
	}
}

func TestTableNumbers(t *testing.T) {
	type row struct {
		F  float64
		G  float64 `lab:",%.2f"`
		N  int64
		Y  int
		U8 uint8
		H  float64 `lab:",%.1f"`
	}
	for _, c := range []struct {
		in   row
		want string
	}{
		{row{1.78e-15, -9.73e-15, 4730104929, 2010, 7, 20239}, "0|0.00|4,730,104,929|2,010|7|20,239.0"},
		{row{2.77e+09, 1.5, -12073, 9999, 255, -1234.56}, "2,770,000,000|1.50|-12,073|9,999|255|-1,234.6"},
		{row{math.NaN(), math.NaN(), 0, 10000, 0, 999.94}, "–|–|0|10,000|0|999.9"},
		{row{math.Inf(1), math.Inf(-1), 1, -1, 1, 1e20}, "∞|−∞|1|-1|1|100,000,000,000,000,000,000.0"},
		{row{0.123456, -0.001, 100, 0, 0, 0}, "0.1235|0.00|100|0|0|0.0"},
		{row{12345.678, 3, 0, 0, 0, 0}, "12,346|3.00|0|0|0|0.0"},
		{row{1234.56, 0, 0, 0, 0, 0}, "1,235|0.00|0|0|0|0.0"},
		{row{5.2713e20, 0, 0, 0, 0, 0}, "5.271·10²⁰|0.00|0|0|0|0.0"},
		{row{1.5e-5, 0, 0, 0, 0, 0}, "1.5·10⁻⁵|0.00|0|0|0|0.0"},
	} {
		tab := TableOf([]row{c.in})
		if got := strings.Join(tab.Rows[0], "|"); got != c.want {
			t.Errorf("%+v: cells %q, want %q", c.in, got, c.want)
		}
		if h := tab.HTML(); strings.Contains(h, "NaN") || strings.Contains(h, "e-1") {
			t.Errorf("%+v: HTML %q shows NaN or float noise", c.in, h)
		}
	}
	for _, c := range []struct{ in, want float64 }{{1.78e-15, 0}, {-1.343e-15, 0}, {math.Copysign(0, -1), 0}, {1e-9, 1e-9}, {-0.82, -0.82}} {
		if got := Denoise(c.in); got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("Denoise(%g) = %g, want %g", c.in, got, c.want)
		}
	}
	if got := NewTable("x").Add(math.NaN()).Rows[0][0]; got != "–" {
		t.Errorf("Add(NaN) = %q, want –", got)
	}
	for _, c := range []struct {
		f      float64
		digits int
		want   string
	}{
		{2.7712e9, 3, "2,770,000,000"}, {5.2713e20, 3, "5.27·10²⁰"}, {0.057123, 3, "0.0571"}, {5.7123e-8, 2, "5.7·10⁻⁸"},
		{1234.56, 5, "1,234.6"}, {566.4, 3, "566"}, {2301.2, 3, "2,300"}, {-1.37e5, 3, "-137,000"}, {math.NaN(), 3, "–"}, {1e-15, 3, "0"},
	} {
		if got := Sig(c.f, c.digits); got != c.want {
			t.Errorf("Sig(%g, %d) = %q, want %q", c.f, c.digits, got, c.want)
		}
	}
}

func TestNoteOnce(t *testing.T) {
	var buf bytes.Buffer
	old := Stdout
	Stdout = &buf
	defer func() { Stdout = old }()
	for _, s := range []string{"skipped: a", "skipped: b", "skipped: a", "skipped: a"} {
		Note(s)
	}
	if got, want := buf.String(), "skipped: a\nskipped: b\n"; got != want {
		t.Errorf("notes printed %q, want %q (each once)", got, want)
	}
}

func TestPointSeriesMarkersDiffer(t *testing.T) {
	xys := plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 2}}
	seen := map[string]int{}
	for k := 0; k < len(Glyphs); k++ {
		sc, err := seriesScatter(xys, k, Palette[k%len(Palette)])
		if err != nil {
			t.Fatal(err)
		}
		seen[fmt.Sprintf("%T", sc.Shape)]++
	}
	if len(seen) != len(Glyphs) {
		t.Errorf("markers of %d series: %v, want all different", len(Glyphs), seen)
	}
	if _, err := LinePlot("t", "x", "y", Series{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}, Points: true},
		Series{Name: "b", X: []float64{1, 2}, Y: []float64{2, 1}, Points: true}); err != nil {
		t.Fatal(err)
	}
}

func TestNoBreakNumbers(t *testing.T) {
	nb := func(s string) string { return `<span style="white-space:nowrap">` + s + `</span>` }
	for _, c := range []struct{ in, want string }{
		{"p = 2.3e-5", "p = " + nb("2.3e-5")},
		{"+0.40 [0.29, 0.51]", nb("+0.40") + " " + nb("[0.29, 0.51]")},
		{"R²=0.9999, 4,730,104,929 states", "R²=" + nb("0.9999") + ", " + nb("4,730,104,929") + " states"},
		{"−1.25 and 3 × 10²³", nb("−1.25") + " and " + nb("3 × 10²³")},
		{"gen-05 it&#39;s 7", "gen-" + nb("05") + " it&#39;s 7"},
		{"p = 4.9·10⁻⁵ (Holm 10⁻¹²)", "p = " + nb("4.9·10⁻⁵") + " (Holm " + nb("10⁻¹²") + ")"},
		{"5.27·10²⁰ [1.11·10²⁰, 2.51·10²¹]", nb("5.27·10²⁰") + " " + nb("[1.11·10²⁰, 2.51·10²¹]")},
		{"p &lt; 10⁻¹², Holm &lt; 10⁻¹²; ≤ 0.011", "p " + nb("&lt; 10⁻¹²") + ", Holm " + nb("&lt; 10⁻¹²") + "; " + nb("≤ 0.011")},
		{"182.2k .. 216.3k, 1.5M..1.8M, h=5..12", nb("182.2k .. 216.3k") + ", " + nb("1.5M..1.8M") + ", h=" + nb("5..12")},
		{"p &lt;= 0.05", "p " + nb("&lt;= 0.05")},
		{"15px, 3 Mb, 12kg", nb("15") + "px, 3 Mb, " + nb("12") + "kg"},
		{"no numbers", "no numbers"},
	} {
		if got := NoBreakNumbers(c.in); got != c.want {
			t.Errorf("NoBreakNumbers(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestKeepTogether: intervals joined everywhere (in code spans too), a
// comparison sign joined to its number outside code only (inline code of
// one or two backticks, fences of backticks or tildes, an unclosed backtick
// is text), not a blockquote's ">", nor "<<" or "&lt;&lt;".
func TestKeepTogether(t *testing.T) {
	const nb = "\u00a0"
	for _, c := range []struct{ in, want string }{
		{"+0.40 lines [+0.29, +0.51], p = 0.01; `[1, 2]` and [a, b]", "+0.40 lines [+0.29," + nb + "+0.51], p = 0.01; `[1," + nb + "2]` and [a, b]"},
		{"(p ≥ 0.05), p &lt; 10⁻¹², x >= −3; a -> 5, p < q", "(p ≥" + nb + "0.05), p &lt;" + nb + "10⁻¹², x >=" + nb + "−3; a -> 5, p < q"},
		{"`a < 5` and ``b < 5`` but c < 5", "`a < 5` and ``b < 5`` but c <" + nb + "5"},
		{"x\n```go\nif a < 5 {\n```\ny < 5", "x\n```go\nif a < 5 {\n```\ny <" + nb + "5"},
		{"~~~\na < 5\n~~~\n> 5 quoted, a &lt;&lt; 2, a << 2", "~~~\na < 5\n~~~\n> 5 quoted, a &lt;&lt; 2, a << 2"},
		{"a ` lone, p < 5", "a ` lone, p <" + nb + "5"},
	} {
		if got := keepTogether(c.in); got != c.want {
			t.Errorf("keepTogether(%q) =\n%q, want\n%q", c.in, got, c.want)
		}
	}
}
