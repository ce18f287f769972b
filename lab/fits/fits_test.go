package fits

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/lab"
)

func TestFitDisplay(t *testing.T) {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	q, err := Fit("length", "quadratic", h, l)
	if err != nil {
		t.Fatal(err)
	}
	lq, err := Fit("length", "log-quadratic", h, l)
	if err != nil {
		t.Fatal(err)
	}
	if y, lo, hi := q.Predict(16, 0.95); y < 290 || y > 291 || lo >= y || hi <= y {
		t.Errorf("quadratic at 16: %v [%v, %v]", y, lo, hi)
	}
	if !strings.Contains(Table(16, q, lq).Text(), "log-quadratic") {
		t.Error("fit table")
	}
	p, err := Plot("t", "h", "y", 16, true, []Mark{{"record", 16, 247}}, q, lq)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.PlotSVG(p, 0, 0); err != nil {
		t.Error(err)
	}
	// Zero scores cannot be drawn on a log scale: they are left out.
	z, err := Fit("score", "quadratic", h, []float64{0, 0, 1, 4, 8, 12})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = Plot("t", "h", "y", 16, true, nil, z); err != nil {
		t.Fatal(err)
	}
	if _, err := lab.PlotSVG(p, 0, 0); err != nil {
		t.Error(err)
	}
	if rp, err := ResidualPlot("r", "h", q, lq); err != nil {
		t.Error(err)
	} else if svg, err := lab.PlotSVG(rp, 0, 0); err != nil {
		t.Error(err)
	} else if got := residualDashes(string(svg)); got != [2]int{4, 4} {
		// Two fits: each one's residuals solid, its leave-one-out residuals
		// dashed, twice each (the chart's line and the legend's sample).
		t.Errorf("residual plot: %d dashed and %d solid data lines, want 4 and 4", got[0], got[1])
	}
	if _, err := Fit("x", "cubic-spline", h, l); err == nil {
		t.Error("want an unknown-model error")
	}
}

func TestInformative(t *testing.T) {
	exact, err := Fit("exact", "quadratic", []float64{1, 2, 3}, []float64{1, 4, 9})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := exact.Informative(10); ok || !strings.Contains(why, "degrees of freedom") {
		t.Errorf("a fit with zero residual degrees of freedom: informative %v (%s)", ok, why)
	}
	wild, err := Fit("wild", "log-quadratic", []float64{2, 3, 4, 5, 6}, []float64{3, 40, 20, 900, 60})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := wild.Informative(16); ok || !strings.Contains(why, "orders of magnitude") {
		t.Errorf("a wild extrapolation: informative %v (%s)", ok, why)
	}
	good, err := Fit("good", "log-linear", []float64{2, 3, 4, 5, 6}, []float64{10, 20.5, 39, 81, 158})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := good.Informative(8); !ok {
		t.Errorf("a tight fit is flagged: %s", why)
	}
	if got := Informative(16, exact, nil, wild, good); len(got) != 1 || got[0] != good {
		t.Errorf("Informative kept %d fits", len(got))
	}
	tab := Table(16, wild, good).Text()
	if !strings.Contains(tab, "not informative") {
		t.Errorf("the table does not flag the wild fit:\n%s", tab)
	}
	p, err := Plot("t", "h", "y", 16, true, nil, exact, wild, good)
	if err != nil || p == nil {
		t.Fatal(err)
	}
}

func TestBacktest(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6}
	y := []float64{1, 4, 9, 16, 25, 36}
	b, err := RunBacktest("squares", "quadratic", x, y, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.TestX) != 2 || b.Sigma > 1e-9 || b.Predicted[1] < 35.99 || b.Predicted[1] > 36.01 {
		t.Fatalf("%+v", b)
	}
	if in, total := HitRate(b); total != 2 || in > 2 {
		t.Fatalf("hit rate %d of %d", in, total)
	}
	if rows := BacktestRows(b); rows[0].Inside == "" || rows[0].FitOn != "1–4" ||
		rows[0].Note != "2 of 2 not informative: zero-width interval (exact fit)" {
		t.Fatalf("%+v", rows[0])
	}
	// An exact fit's zero-width intervals are left out of the informative
	// count; a noisy fit's are kept, a wild log-quadratic's are not.
	if in, n := b.InformativeHits(); in != 0 || n != 0 {
		t.Errorf("exact fit: %d inside of %d informative, want 0 of 0", in, n)
	}
	noisy, err := RunBacktest("noisy", "quadratic", x, []float64{1.2, 3.9, 9.1, 15.8, 25.1, 36.3}, 4)
	if err != nil {
		t.Fatal(err)
	}
	wild, err := RunBacktest("wild", "log-quadratic", []float64{2, 3, 4, 5, 6, 16}, []float64{3, 40, 20, 900, 60, 1e6}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if wild.Uninformative[0] == "" || noisy.Uninformative[0] != "" || noisy.Uninformative[1] != "" {
		t.Errorf("flags: wild %q, noisy %q", wild.Uninformative, noisy.Uninformative)
	}
	in, n, un := InformativeHitRate(b, noisy, wild)
	all, total := HitRate(b, noisy, wild)
	if n != 2 || un != 3 || total != 5 || in > n || all < in {
		t.Errorf("informative hit rate %d of %d (%d left out), all %d of %d", in, n, un, all, total)
	}
	if !strings.Contains(BacktestRows(wild)[0].Note, "orders of magnitude") {
		t.Errorf("wild note: %q", BacktestRows(wild)[0].Note)
	}
	if _, err := RunBacktest("squares", "quadratic", x, y, 6); err == nil {
		t.Error("nothing to predict: no error")
	}
}

// residualDashes counts the dashed and the solid paths drawn 1.5 points wide
// (LinePlot's data lines and their legend samples) in an SVG chart.
func residualDashes(svg string) [2]int {
	var n [2]int
	for _, el := range strings.Split(svg, "<path")[1:] {
		el = el[:strings.IndexByte(el, '>')]
		if !strings.Contains(el, "stroke-width:1.5") {
			continue
		}
		if strings.Contains(el, "stroke-dasharray") && !strings.Contains(el, "stroke-dasharray:none") {
			n[0]++
		} else {
			n[1]++
		}
	}
	return n
}

// TestPredictionOneStyle: a prediction interval whose upper bound reaches
// 10¹⁸ writes its large numbers all as powers of ten (02 once showed
// "13,400,000,000,000,000" beside "5.31·10¹⁸"); below, all in full.
func TestPredictionOneStyle(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{1.34e16, "1.34·10¹⁶"}, {5.31e18, "5.31·10¹⁸"}, {-2.5e17, "-2.5·10¹⁷"}, {1e18, "10¹⁸"}, {9.996e17, "10¹⁸"}, {99.5, "99.5"}, {12345, "12,345"},
	} {
		if got := power(tc.v); got != tc.want {
			t.Errorf("power(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
	// A log-linear fit through points growing tenfold a step, predicted far out.
	xs := []float64{1, 2, 3, 4, 5, 6}
	ys := []float64{10, 110, 900, 11000, 95000, 1.1e6}
	for _, tc := range []struct {
		at     float64
		powers bool
	}{{7, false}, {17, false}, {18, true}, {19, true}} {
		m, err := Fit("growth", "log-linear", xs, ys)
		if err != nil {
			t.Fatal(err)
		}
		got := Prediction(m, tc.at)
		if tc.powers != strings.Contains(got, "·10") || (tc.powers && strings.Contains(got, ",000,")) {
			t.Errorf("at %v: %q (powers of ten throughout: %v)", tc.at, got, tc.powers)
		}
	}
}
