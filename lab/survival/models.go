package survival

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/fits"
)

// Models are the two models of mean lines against height that notebook 05
// compares: log-linear, ln(lines) = a + b·h, and tetr-ai's log-quadratic,
// ln(lines) = a + b·h + c·h².
var Models = []string{"log-linear", "log-quadratic"}

// FitModels fits each of Models to an agent's mean lines at the heights
// from..to of stats (10 wide), labelled with the agent.
func FitModels(stats []classic.Stats, agent string, from, to int) ([]*fits.Model, error) {
	var hs, ys []float64
	for _, s := range stats {
		if s.Agent == agent && s.Cols == 10 && s.Rows >= from && s.Rows <= to {
			hs, ys = append(hs, float64(s.Rows)), append(ys, s.Mean)
		}
	}
	if len(hs) < 4 {
		return nil, fmt.Errorf("survival: %d heights of %s in %d..%d, need 4", len(hs), agent, from, to)
	}
	var out []*fits.Model
	for _, m := range Models {
		f, err := fits.Fit(fmt.Sprintf("%s mean lines, h=%d..%d", agent, from, to), m, hs, ys)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// CheckRow sets a model's prediction at a height beside a measurement
// made there.
type CheckRow struct {
	Fitted    string `lab:"fitted"`
	Model     string `lab:"model"`
	LOO       string `lab:"LOO RMSE (ln)"`
	Height    int    `lab:"height"`
	Predicted string `lab:"prediction [95% PI]"`
	Measured  string `lab:"measured mean [95% CI]"`
	Inside    string `lab:"measured mean inside the PI?"`
}

// CheckModels predicts the measured height of m with each fit and sets
// the prediction beside the measurement.
func CheckModels(ms []*fits.Model, m classic.Stats) []CheckRow {
	var out []CheckRow
	for _, f := range ms {
		y, lo, hi := f.Predict(float64(m.Rows), 0.95)
		in := "no"
		if m.Mean >= lo && m.Mean <= hi {
			in = "yes"
		}
		out = append(out, CheckRow{f.Label, f.Model, lab.Sig(f.Fit.LOORMSE, 3), m.Rows,
			fmt.Sprintf("%s [%s, %s]", humanize.Count(y), humanize.Count(lo), humanize.Count(hi)),
			fmt.Sprintf("%s [%s, %s] (%d seeds)", humanize.Count(m.Mean), humanize.Count(m.CILo), humanize.Count(m.CIHi), m.N), in})
	}
	return out
}

// KSRow is one line of KSTable.
type KSRow struct {
	Agent    string  `lab:"agent"`
	Rows     int     `lab:"height"`
	N        int     `lab:"n"`
	Mean     string  `lab:"mean"`
	KS       float64 `lab:"KS"`
	Crit     float64 `lab:"5% critical value (simulated)"`
	Lillie   float64 `lab:"1.06/√n"`
	P        float64 `lab:"p (simulated)"`
	Rejected bool    `lab:"rejected at 5%"`
}

// ksShown is KSRow as KSTable prints it.
type ksShown struct {
	Agent    string `lab:"agent"`
	Rows     int    `lab:"height"`
	N        int    `lab:"n"`
	Mean     string `lab:"mean"`
	KS       string `lab:"KS"`
	Crit     string `lab:"5% critical value (simulated)"`
	Lillie   string `lab:"1.06/√n"`
	P        string `lab:"p (simulated)"`
	Rejected string `lab:"rejected at 5%"`
}

// KSCalibrate calibrates the Kolmogorov–Smirnov distance of
// classic.Describe (a continuity-corrected distance between the line
// counts and an exponential of their own mean) by simulation, for each
// agent and height of recs: sims samples of the same size are drawn
// from the whole-number analogue of an exponential, a geometric
// distribution (P(X ≥ k) = q^k) with the group's mean, and each sample's
// distance is computed exactly as the data's, its mean estimated from the
// sample. The critical value is the 95th percentile of the simulated
// distances, p the fraction at or above the data's. The draws come from
// a PCG generator seeded with seed and the group, so the table is
// reproducible.
func KSCalibrate(recs []classic.Result, sims int, seed uint64) ([]KSRow, error) {
	if sims < 20 {
		return nil, fmt.Errorf("survival: %d simulations, need at least 20", sims)
	}
	type key struct {
		agent      string
		rows, cols int
	}
	groups := map[key][]float64{}
	for _, r := range recs {
		k := key{r.Agent, r.Rows, r.Cols}
		groups[k] = append(groups[k], float64(r.Lines))
	}
	var out []KSRow
	for _, s := range classic.Summarize(recs) {
		xs := groups[key{s.Agent, s.Rows, s.Cols}]
		if s.Mean <= 0 {
			return nil, fmt.Errorf("survival: %s at height %d: mean %g", s.Agent, s.Rows, s.Mean)
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", s.Agent, s.Rows)
		rng := rand.New(rand.NewPCG(seed, h.Sum64()))
		q := s.Mean / (1 + s.Mean) // geometric with this mean
		lq := math.Log(q)
		sim := make([]float64, len(xs))
		ks := make([]float64, sims)
		above := 0
		for i := range ks {
			for j := range sim {
				// Inverse transform: X = floor(ln U / ln q) has P(X ≥ k) = q^k.
				sim[j] = math.Floor(math.Log(1-rng.Float64()) / lq)
			}
			ks[i] = classic.Describe(sim).KS
			if ks[i] >= s.KS {
				above++
			}
		}
		slices.Sort(ks)
		crit := ks[int(math.Ceil(0.95*float64(sims)))-1]
		out = append(out, KSRow{s.Agent, s.Rows, s.N, humanize.Count(s.Mean), s.KS, crit, s.KSCrit,
			float64(above) / float64(sims), s.KS > crit})
	}
	return out, nil
}

// KSTable is KSCalibrate as a table.
func KSTable(recs []classic.Result, sims int, seed uint64) (*lab.Table, error) {
	rows, err := KSCalibrate(recs, sims, seed)
	if err != nil {
		return nil, err
	}
	out := make([]ksShown, len(rows))
	for i, r := range rows {
		p := fmt.Sprintf("%.3f", r.P)
		if r.P == 0 {
			p = fmt.Sprintf("< %.3g", 1/float64(sims))
		}
		rej := ""
		if r.Rejected {
			rej = "yes"
		}
		out[i] = ksShown{r.Agent, r.Rows, r.N, r.Mean, fmt.Sprintf("%.4f", r.KS), fmt.Sprintf("%.4f", r.Crit),
			fmt.Sprintf("%.4f", r.Lillie), p, rej}
	}
	return lab.TableOf(out), nil
}
