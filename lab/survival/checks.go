package survival

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/fit"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab"
)

// Rules returns the rules of a 10-wide board of the given height (rows),
// the board of tetr-ai's tables.
func Rules(rows int) (*classic.Rules, error) { return classic.NewRules(rows, 10) }

// ReferenceRow is one height of the seed-for-seed check against games
// recorded from tetr-ai's binary.
type ReferenceRow struct {
	Rows   int   `lab:"rows"`
	Games  int   `lab:"games"`
	Same   int   `lab:"identical (pieces and lines)"`
	Pieces int64 `lab:"tetr-ai pieces (sum)"`
	Lines  int64 `lab:"tetr-ai lines (sum)"`
}

// referenceGame is one line of the reference file.
type referenceGame struct {
	Rows                int
	Seed, Pieces, Lines int64
}

// CheckReference replays, with tetr-ai's agent on this engine, the games of
// a reference file of games recorded from tetr-ai's binary (JSON lines
// {"rows","seed","pieces","lines"}, grouped by height, such as
// engine/classic/testdata/tetr_ai_reference.jsonl), the first perHeight
// documented seeds of each height (R·1000 ..), and counts per height the
// games whose pieces and lines are identical.
func CheckReference(path string, perHeight int) ([]ReferenceRow, error) {
	f, _, err := boundedfile.Open(path, math.MaxInt64, "reference file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []ReferenceRow
	rep := lab.Progress("tetr-ai reference games")
	games := int64(0)
	defer func() { rep.Report(progress.Event{Done: games, Unit: "games", Finished: true}) }()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var ref referenceGame
		if err := json.Unmarshal(sc.Bytes(), &ref); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if ref.Seed >= int64(ref.Rows*1000+perHeight) {
			continue
		}
		r, err := Rules(ref.Rows)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if len(out) == 0 || out[len(out)-1].Rows != ref.Rows {
			out = append(out, ReferenceRow{Rows: ref.Rows})
		}
		h := &out[len(out)-1]
		got := classic.Play(r, classic.TetrAI{}, ref.Seed, 0)
		games++
		rep.Report(progress.Event{Stage: fmt.Sprintf("rows %d", ref.Rows), Done: games, Unit: "games"})
		h.Games++
		h.Pieces += ref.Pieces
		h.Lines += ref.Lines
		if got.Pieces == ref.Pieces && got.Lines == ref.Lines {
			h.Same++
		}
	}
	return out, sc.Err()
}

// ReplayDataset plays again, live, the dataset games of tetr-ai's agent at
// heights up to maxRows, the first perHeight seeds of each, and returns how
// many it played, or an error naming the first game that differs.
func ReplayDataset(recs []classic.Result, maxRows, perHeight int) (int, error) {
	skip := func(rec classic.Result) bool {
		return rec.Rows > maxRows || rec.Seed >= int64(rec.Rows*1000+perHeight)
	}
	total := int64(0)
	for _, rec := range recs {
		if !skip(rec) {
			total++
		}
	}
	rep := lab.Progress("replay dataset games")
	n := 0
	defer func() { rep.Report(progress.Event{Done: int64(n), Total: total, Unit: "games", Finished: true}) }()
	for _, rec := range recs {
		if skip(rec) {
			continue
		}
		rep.Report(progress.Event{Stage: fmt.Sprintf("rows %d", rec.Rows), Done: int64(n), Total: total, Unit: "games"})
		r, err := Rules(rec.Rows)
		if err != nil {
			return n, err
		}
		if g := classic.Play(r, classic.TetrAI{}, rec.Seed, 0); g != rec {
			return n, fmt.Errorf("seed %d rows %d: %+v, dataset %+v", rec.Seed, rec.Rows, g, rec)
		}
		n++
	}
	return n, nil
}

// ExtrapolationTable sets, for heights from..to, tetr-ai's published mean
// (at height 20 the mean of its 200 measured games, Height20, with its 95%
// confidence interval; at 18 and 19, where it measured nothing, its
// README's own prediction, in parentheses) beside two log-quadratic
// fits (classic.FitLogQuadratic) with their 95% prediction intervals.
func ExtrapolationTable(readme, own *fit.Fit, from, to int) *lab.Table {
	t := lab.NewTable("height", "README mean", "README fit", "README fit 95% PI", "our fit (5..12)", "our fit 95% PI")
	for h := from; h <= to; h++ {
		pub := ""
		for _, q := range classic.TetrAIPublished {
			if q.Rows == h {
				pub = humanize.Count(q.Mean)
			}
		}
		if v, ok := classic.TetrAIPredicted[h]; ok {
			pub = "(predicted " + humanize.Count(v) + ")"
		}
		if h == 20 {
			m := Height20()
			pub = fmt.Sprintf("%s measured (%d seeds; 95%% CI %s .. %s)", humanize.Count(m.Mean), m.N, humanize.Count(m.CILo), humanize.Count(m.CIHi))
		}
		a, b := classic.PredictHeight(readme, h), classic.PredictHeight(own, h)
		t.Add(h, pub, humanize.Count(a.Lines), humanize.Count(a.PILo)+" .. "+humanize.Count(a.PIHi),
			humanize.Count(b.Lines), humanize.Count(b.PILo)+" .. "+humanize.Count(b.PIHi))
	}
	return t
}

// TailSeries returns, for each height, the fraction of games that cleared
// more than x·mean lines against x, as log10, and last the line of an
// exponential distribution (e^(−x)): if a game's lines are exponential, all
// heights fall on that line.
func TailSeries(recs []classic.Result, heights []int) []lab.Series {
	var series []lab.Series
	for _, h := range heights {
		var xs []float64
		for _, r := range recs {
			if r.Rows == h {
				xs = append(xs, float64(r.Lines))
			}
		}
		if len(xs) == 0 {
			continue
		}
		s := classic.Describe(xs)
		slices.Sort(xs)
		var x, y []float64
		for i, v := range xs {
			x = append(x, v/s.Mean)
			y = append(y, math.Log10(1-float64(i)/float64(len(xs))))
		}
		series = append(series, lab.Series{Name: fmt.Sprintf("height %d", h), X: x, Y: y})
	}
	var ex, ey []float64
	for i := 0; i <= 60; i++ {
		x := float64(i) / 10
		ex = append(ex, x)
		ey = append(ey, -x/math.Ln10)
	}
	return append(series, lab.Series{Name: "exponential e^(-x)", X: ex, Y: ey})
}

// Means returns the heights and mean lines of per-height statistics.
func Means(stats []classic.Stats) (rows []int, means []float64) {
	for _, s := range stats {
		rows = append(rows, s.Rows)
		means = append(means, s.Mean)
	}
	return rows, means
}

// PublishedMeans returns the heights and mean lines of tetr-ai's README
// table (classic.TetrAIPublished).
func PublishedMeans() (rows []int, means []float64) {
	for _, q := range classic.TetrAIPublished {
		rows = append(rows, q.Rows)
		means = append(means, q.Mean)
	}
	return rows, means
}

// Lines plays an agent on a 10-wide board of the given height for seeds
// from, from+1, ... (n of them), with a progress bar, and returns each
// game's lines.
func Lines(agent classic.Agent, rows int, from int64, n int) ([]float64, error) {
	r, err := Rules(rows)
	if err != nil {
		return nil, err
	}
	rep := lab.Progress(fmt.Sprintf("%s, height %d", agent.Name(), rows))
	out := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, float64(classic.Play(r, agent, from+int64(i), 0).Lines))
		rep.Report(progress.Event{Done: int64(i + 1), Total: int64(n), Unit: "games", Finished: i == n-1})
	}
	return out, nil
}
