package fits

import (
	"fmt"
	"math"
	"strings"

	"github.com/hatelab/hatelab/lab"
)

// Backtest is one model fitted on the small heights of a series and used
// to predict the larger heights that are known: the honest check of an
// extrapolation on exact data, where the fit's intervals measure model
// error, not noise.
type Backtest struct {
	Label, Model string
	// FitX are the points fitted, TestX those predicted.
	FitX, TestX []float64
	// Observed, Predicted, Lo and Hi are per point of TestX (Lo..Hi: the
	// 95% prediction interval; equal to Predicted when the fit is exact).
	Observed, Predicted, Lo, Hi []float64
	// Sigma is the fit's residual standard error (0: the points lie
	// exactly on the model, so its interval has zero width).
	Sigma float64
	// Uninformative is, per point of TestX, why its interval says
	// nothing ("" when it does): the fit's Model.Informative, or a
	// zero-width interval (an exact fit, Sigma 0).
	Uninformative []string
}

// RunBacktest fits the named model (see Fit) on the points with x ≤ fitMax
// and predicts the points with x > fitMax.
func RunBacktest(label, model string, x, y []float64, fitMax float64) (*Backtest, error) {
	var fx, fy []float64
	b := &Backtest{Label: label, Model: model}
	for i := range x {
		if x[i] <= fitMax {
			fx, fy = append(fx, x[i]), append(fy, y[i])
		} else {
			b.TestX, b.Observed = append(b.TestX, x[i]), append(b.Observed, y[i])
		}
	}
	if len(b.TestX) == 0 {
		return nil, fmt.Errorf("%s %s: nothing above %g to predict", label, model, fitMax)
	}
	m, err := Fit(label, model, fx, fy)
	if err != nil {
		return nil, err
	}
	b.FitX, b.Sigma = fx, m.Fit.Sigma
	for _, t := range b.TestX {
		p, lo, hi := m.Predict(t, 0.95)
		if m.Fit.DoF == 0 || math.IsNaN(lo) {
			lo, hi = p, p
		}
		b.Predicted, b.Lo, b.Hi = append(b.Predicted, p), append(b.Lo, lo), append(b.Hi, hi)
		why := ""
		if ok, w := m.Informative(t); !ok {
			why = w
		} else if hi-lo <= 1e-9*math.Abs(p) {
			why = "zero-width interval (exact fit)"
		}
		b.Uninformative = append(b.Uninformative, why)
	}
	return b, nil
}

// Hits counts the predicted points whose observed value lies inside the
// 95% prediction interval, and of the others how many lie below it.
// Uninformative intervals count too (see InformativeHits).
func (b *Backtest) Hits() (inside, below int) {
	for i, o := range b.Observed {
		switch {
		case o >= b.Lo[i] && o <= b.Hi[i]:
			inside++
		case o < b.Lo[i]:
			below++
		}
	}
	return inside, below
}

// InformativeHits counts the predicted points whose interval is
// informative (Uninformative is ""), and how many of those lie inside it.
func (b *Backtest) InformativeHits() (inside, informative int) {
	for i, o := range b.Observed {
		if b.Uninformative[i] != "" {
			continue
		}
		informative++
		if o >= b.Lo[i] && o <= b.Hi[i] {
			inside++
		}
	}
	return inside, informative
}

// uninformativeNote summarises why a backtest's intervals say nothing:
// "" when every one is informative, else how many are not and the first
// reason (with the widest span when it is a span of orders of magnitude).
func (b *Backtest) uninformativeNote() string {
	n, first, widest := 0, "", 0.0
	for i, w := range b.Uninformative {
		if w == "" {
			continue
		}
		n++
		if first == "" {
			first = w
		}
		if b.Lo[i] > 0 {
			widest = math.Max(widest, math.Log10(b.Hi[i]/b.Lo[i]))
		}
	}
	switch {
	case n == 0:
		return ""
	case strings.Contains(first, "orders of magnitude"):
		return fmt.Sprintf("%d of %d not informative: the 95%% interval spans up to %.0f orders of magnitude", n, len(b.TestX), widest)
	default:
		return fmt.Sprintf("%d of %d not informative: %s", n, len(b.TestX), first)
	}
}

// BacktestRow is one line of BacktestTable.
type BacktestRow struct {
	Fitted    string `lab:"fitted"`
	Model     string `lab:"model"`
	FitOn     string `lab:"fitted on h"`
	Predicts  string `lab:"predicts h"`
	Sigma     string `lab:"σ"`
	Inside    string `lab:"inside 95% PI"`
	Misses    string `lab:"outside: observed above / below the PI"`
	WorstMiss string `lab:"observed / predicted (range)"`
	Note      string `lab:"note"`
}

func span(xs []float64) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprintf("%g–%g", xs[0], xs[len(xs)-1])
}

// BacktestRows summarises backtests: the hit rate of their 95% prediction
// intervals, whether the misses are above or below, and the range of
// observed / predicted.
func BacktestRows(bs ...*Backtest) []BacktestRow {
	rows := make([]BacktestRow, len(bs))
	for i, b := range bs {
		in, below := b.Hits()
		n := len(b.TestX)
		miss := "none"
		if in < n {
			miss = fmt.Sprintf("%d / %d", n-in-below, below)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for j, o := range b.Observed {
			r := o / b.Predicted[j]
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
		rows[i] = BacktestRow{Fitted: b.Label, Model: b.Model, FitOn: span(b.FitX), Predicts: span(b.TestX),
			Sigma: lab.Sig(b.Sigma, 3), Inside: lab.Int(int64(in)) + " of " + lab.Int(int64(n)), Misses: miss,
			WorstMiss: fmt.Sprintf("%.2f .. %.2f", lo, hi), Note: b.uninformativeNote()}
	}
	return rows
}

// HitRate counts, over backtests, the predicted points inside their 95%
// prediction interval and all predicted points, uninformative intervals
// included. It is not a coverage: the backtests predict the same known
// values with several models, and the points of one backtest are
// predicted from the same fit, so the counts are not independent trials.
func HitRate(bs ...*Backtest) (inside, total int) {
	for _, b := range bs {
		in, _ := b.Hits()
		inside += in
		total += len(b.TestX)
	}
	return inside, total
}

// InformativeHitRate is HitRate over the informative intervals only
// (Backtest.InformativeHits); uninformative is how many were left out.
func InformativeHitRate(bs ...*Backtest) (inside, informative, uninformative int) {
	for _, b := range bs {
		in, n := b.InformativeHits()
		inside += in
		informative += n
		uninformative += len(b.TestX) - n
	}
	return inside, informative, uninformative
}
