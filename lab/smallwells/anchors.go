package smallwells

import (
	"fmt"
	"slices"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/lab/fits"
)

// Anchor is a value of a small-well search published elsewhere, to check a
// search against: the best score, the length and the peak (the blog's
// "max width"), with where it comes from.
type Anchor struct {
	Width, Height int
	Rule          bfs.Rule
	Score, Length int
	PeakStates    int64
	Source        string
}

// Sources of the anchors.
const (
	sourceBlogOld   = "the HATETRIS beam-search blog's width-10 and width-8 tables (its old clear-above-bar rule)"
	sourceBlogOld6  = "the blog's original 2022 width-6 table (its old clear-above-bar rule)"
	sourceBlogFixed = "the blog's corrected width-5 and width-6 tables (May 2024)"
	sourcePeer      = "the peer Rust engine's exhaustive search, not a publication (shared/docs/peer-hatetris-engine.md)"
)

// Anchors are the published values the notebook checks its live searches
// against.
var Anchors = []Anchor{
	{10, 2, bfs.RuleQntm, 0, 4, 21, sourcePeer}, {10, 3, bfs.RuleQntm, 0, 6, 310, sourcePeer},
	{10, 4, bfs.RuleQntm, 1, 11, 9094, sourcePeer}, {10, 5, bfs.RuleQntm, 4, 19, 174585, sourcePeer},
	{10, 6, bfs.RuleQntm, 8, 31, 4844154, sourcePeer},
	{10, 4, bfs.RuleClearAboveBar, 1, 11, 9095, sourceBlogOld}, {10, 5, bfs.RuleClearAboveBar, 4, 19, 174634, sourceBlogOld},
	{10, 6, bfs.RuleClearAboveBar, 8, 31, 4848325, sourceBlogOld},
	{8, 2, bfs.RuleClearAboveBar, 0, 3, 10, sourceBlogOld}, {8, 3, bfs.RuleClearAboveBar, 1, 6, 75, sourceBlogOld},
	{8, 7, bfs.RuleClearAboveBar, 9, 28, 2250610, sourceBlogOld}, {8, 8, bfs.RuleClearAboveBar, 11, 34, 31440780, sourceBlogOld},
	{8, 4, bfs.RuleClearAboveBar, 1, 8, 1172, sourceBlogOld}, {8, 5, bfs.RuleClearAboveBar, 5, 17, 12447, sourceBlogOld},
	{8, 6, bfs.RuleClearAboveBar, 6, 21, 159942, sourceBlogOld},
	{5, 4, bfs.RuleQntm, 1, 4, 41, sourceBlogFixed}, {5, 5, bfs.RuleQntm, 3, 7, 134, sourceBlogFixed},
	{5, 6, bfs.RuleQntm, 4, 10, 543, sourceBlogFixed}, {5, 7, bfs.RuleQntm, 5, 12, 2150, sourceBlogFixed},
	{5, 8, bfs.RuleQntm, 6, 14, 8670, sourceBlogFixed}, {5, 9, bfs.RuleQntm, 7, 16, 35017, sourceBlogFixed},
	{5, 10, bfs.RuleQntm, 8, 19, 148656, sourceBlogFixed}, {5, 11, bfs.RuleQntm, 10, 22, 645397, sourceBlogFixed},
	{6, 4, bfs.RuleQntm, 1, 6, 139, sourceBlogFixed}, {6, 5, bfs.RuleQntm, 2, 8, 679, sourceBlogFixed},
	{6, 6, bfs.RuleQntm, 4, 12, 3973, sourceBlogFixed}, {6, 7, bfs.RuleQntm, 6, 15, 23126, sourceBlogFixed},
	{6, 8, bfs.RuleQntm, 7, 19, 143175, sourceBlogFixed}, {6, 9, bfs.RuleQntm, 8, 22, 979997, sourceBlogFixed},
	// The rest of the corrected tables: reproduced by datasets/bfs.
	{5, 12, bfs.RuleQntm, 11, 24, 2935961, sourceBlogFixed}, {5, 13, bfs.RuleQntm, 12, 26, 13436407, sourceBlogFixed},
	{5, 14, bfs.RuleQntm, 13, 29, 61699120, sourceBlogFixed}, {5, 15, bfs.RuleQntm, 15, 32, 285071640, sourceBlogFixed},
	{6, 10, bfs.RuleQntm, 11, 27, 6771901, sourceBlogFixed}, {6, 11, bfs.RuleQntm, 12, 30, 48488721, sourceBlogFixed},
	{6, 12, bfs.RuleQntm, 15, 36, 362642476, sourceBlogFixed},
	// The blog's old tables that the old rule reproduces.
	{10, 7, bfs.RuleClearAboveBar, 12, 43, 141514270, sourceBlogOld},
	{6, 4, bfs.RuleClearAboveBar, 1, 6, 142, sourceBlogOld6}, {6, 5, bfs.RuleClearAboveBar, 2, 8, 682, sourceBlogOld6},
	{6, 6, bfs.RuleClearAboveBar, 5, 13, 3998, sourceBlogOld6}, {6, 7, bfs.RuleClearAboveBar, 6, 15, 23337, sourceBlogOld6},
	{6, 8, bfs.RuleClearAboveBar, 8, 19, 149389, sourceBlogOld6}, {6, 9, bfs.RuleClearAboveBar, 9, 23, 1017165, sourceBlogOld6},
}

// CheckSummary compares every row of a table (datasets/bfs) that has an
// anchor with it, and returns how many matched; an error names the first
// that does not.
func CheckSummary(rows []bfs.Row) (int, error) {
	n := 0
	for _, r := range rows {
		a, ok := FindAnchor(r.Width, r.Height, r.Rule)
		if !ok {
			continue
		}
		if r.Score != a.Score || r.Length != a.Length || r.PeakStates != a.PeakStates {
			return n, fmt.Errorf("%dx%d %v: table (%d, %d, %d), %s give (%d, %d, %d)", r.Width, r.Height, r.Rule,
				r.Score, r.Length, r.PeakStates, a.Source, a.Score, a.Length, a.PeakStates)
		}
		n++
	}
	return n, nil
}

// FindAnchor returns the anchor of a size and rule, if there is one.
func FindAnchor(width, height int, rule bfs.Rule) (Anchor, bool) {
	for _, a := range Anchors {
		if a.Width == width && a.Height == height && a.Rule == rule {
			return a, true
		}
	}
	return Anchor{}, false
}

// CheckAnchor compares a search with its anchor: "matches", or "(no
// anchor)" when there is none, or an error naming both values.
func CheckAnchor(r *bfs.Result) (string, error) {
	a, ok := FindAnchor(r.Width, r.Height, r.Rule)
	if !ok {
		return "(no anchor)", nil
	}
	if r.Score == a.Score && r.Length == a.Length && r.PeakStates == a.PeakStates {
		return "matches", nil
	}
	return "DIFFERS", fmt.Errorf("%dx%d %v: got (%d, %d, %d), %s give (%d, %d, %d)", r.Width, r.Height, r.Rule,
		r.Score, r.Length, r.PeakStates, a.Source, a.Score, a.Length, a.PeakStates)
}

// Column returns the heights and one quantity ("score", "length" or
// "peak") of the finished searches of one width and rule, in the order of
// rows.
func Column(rows []bfs.Row, width int, rule bfs.Rule, quantity string) (h, y []float64) {
	for _, r := range rows {
		if r.Width != width || r.Rule != rule || r.Unbounded {
			continue
		}
		h = append(h, float64(r.Height))
		switch quantity {
		case "score":
			y = append(y, float64(r.Score))
		case "length":
			y = append(y, float64(r.Length))
		default:
			y = append(y, float64(r.PeakStates))
		}
	}
	return h, y
}

// FitsByWidth fits, for each width from..to of the real rule, each quantity
// ("score", "length": quadratic and log-quadratic; "peak": log-linear and
// log-quadratic) on the finished searches of height at least minHeight,
// when there are at least minPoints of them. A fit that fails (too few
// points) is left out, and so is the log-quadratic of a score column that
// holds a 0 (see WidthFits).
func FitsByWidth(rows []bfs.Row, from, to, minHeight, minPoints int) []*fits.Model {
	var out []*fits.Model
	for w := from; w <= to; w++ {
		for _, q := range []string{"score", "length", "peak"} {
			h, y := Column(rows, w, bfs.RuleQntm, q)
			var hh, yy []float64
			for i := range h {
				if h[i] >= float64(minHeight) {
					hh, yy = append(hh, h[i]), append(yy, y[i])
				}
			}
			if len(hh) < minPoints {
				continue
			}
			models := []string{"quadratic", "log-quadratic"}
			if q == "peak" {
				models = []string{"log-linear", "log-quadratic"}
			}
			for _, m := range models {
				if m == "log-quadratic" && q == "score" && slices.Contains(yy, 0) {
					continue // dropping the zeros would select on the outcome
				}
				if f, err := fits.Fit(fmt.Sprintf("%s, width %d", q, w), m, hh, yy); err == nil {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// WidthFits fits the real rule's finished searches of one width, in this
// order: score (quadratic, log-quadratic), length (quadratic,
// log-quadratic), peak (log-linear, log-quadratic). A fit that cannot be
// made (a log of 0, too few points) is nil, and skipped says why. The
// log-quadratic of score is not made when a score is 0: dropping the zeros
// would select the points on the outcome (and at width 10 leave 4 points for
// 3 parameters).
func WidthFits(rows []bfs.Row, width int) (fs []*fits.Model, skipped []error) {
	add := func(label, model string, h, y []float64) {
		f, err := fits.Fit(label, model, h, y)
		if err != nil {
			skipped = append(skipped, err)
		}
		fs = append(fs, f)
	}
	for _, q := range []string{"score", "length"} {
		h, y := Column(rows, width, bfs.RuleQntm, q)
		add(q, "quadratic", h, y)
		if slices.Contains(y, 0) {
			skipped = append(skipped, fmt.Errorf("%s log-quadratic, width %d: not fitted, a score of 0 has no logarithm and dropping the zeros selects on the outcome", q, width))
			fs = append(fs, nil)
			continue
		}
		add(q, "log-quadratic", h, y)
	}
	h, y := Column(rows, width, bfs.RuleQntm, "peak")
	add("peak states", "log-linear", h, y)
	add("peak states", "log-quadratic", h, y)
	return fs, skipped
}

// BacktestCase is one backtest of notebook 02: a width, a quantity
// ("score", "length" or "peak"), a model, and the heights fitted
// (FromHeight..FitMax; every larger height of the table is predicted).
type BacktestCase struct {
	Width           int
	Quantity, Model string
	FromHeight      int
	FitMax          int
}

// BacktestCases are the backtests notebook 02 shows: for widths 5, 6, 8
// and 10, the models of the fits fitted on the small heights.
var BacktestCases = []BacktestCase{
	{5, "score", "quadratic", 3, 9}, {5, "length", "quadratic", 3, 9}, {5, "length", "log-quadratic", 3, 9},
	{5, "peak", "log-linear", 3, 9}, {5, "peak", "log-quadratic", 3, 9},
	{6, "score", "quadratic", 3, 8}, {6, "length", "quadratic", 3, 8}, {6, "length", "log-quadratic", 3, 8},
	{6, "peak", "log-linear", 3, 8}, {6, "peak", "log-quadratic", 3, 8},
	{8, "score", "quadratic", 3, 6}, {8, "length", "quadratic", 3, 6}, {8, "length", "log-quadratic", 3, 6},
	{8, "peak", "log-linear", 3, 6}, {8, "peak", "log-quadratic", 3, 6},
	{10, "score", "quadratic", 2, 5}, {10, "length", "quadratic", 2, 5}, {10, "length", "log-quadratic", 2, 5},
	{10, "peak", "log-linear", 2, 5}, {10, "peak", "log-quadratic", 2, 5},
}

// Backtests runs cases on the real rule's finished searches of rows.
func Backtests(rows []bfs.Row, cases []BacktestCase) ([]*fits.Backtest, error) {
	var out []*fits.Backtest
	for _, c := range cases {
		h, y := Column(rows, c.Width, bfs.RuleQntm, c.Quantity)
		var hh, yy []float64
		for i := range h {
			if h[i] >= float64(c.FromHeight) {
				hh, yy = append(hh, h[i]), append(yy, y[i])
			}
		}
		name := c.Quantity
		if name == "peak" {
			name = "peak states"
		}
		b, err := fits.RunBacktest(fmt.Sprintf("%s, width %d", name, c.Width), c.Model, hh, yy, float64(c.FitMax))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
