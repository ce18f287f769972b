package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/internal/procstat"
)

// Format identifies the JSON layout of the Results file.
const Format = "hatelab-flats-experiment/1"

// The arms of the evaluation experiment (design note §4). Every arm runs
// the beam search with quiescence.
const (
	ArmHand    = "A0" // the hand-made evaluation (dnf86)
	ArmHandG   = "A1" // hand + G (the main table)
	ArmGScore  = "A2" // G + score only (D&F's "alone")
	ArmPlacebo = "A3" // hand + a placebo G (B shuffled within popcount classes)
	ArmOther   = "A4" // hand + G from another source's table
)

// Arms lists the arms in order.
var Arms = []string{ArmHand, ArmHandG, ArmGScore, ArmPlacebo, ArmOther}

// The phases of an experiment's runs.
const (
	PhaseTune    = "tune"    // weight tuning on the tuning starts
	PhaseTest    = "test"    // every arm on the test starts
	PhaseMatched = "matched" // A0 at the beam width that costs A1's time
)

// Config fixes an experiment; two runs with the same configuration
// (beam widths aside) play the same games.
type Config struct {
	// BeamWidths are the test beam widths.
	BeamWidths []int `json:"beam_widths"`
	// Starts test start wells and TuneStarts other ones for tuning, all
	// after Opening pieces of seeded random openings (Openings with Seed:
	// the first Starts are the test starts, the next TuneStarts the tuning
	// ones).
	Starts     int    `json:"starts"`
	TuneStarts int    `json:"tune_starts"`
	Opening    int    `json:"opening"`
	Seed       uint64 `json:"seed"`
	// TuneBeamWidth is the beam width of the tuning runs and Grid the
	// weights tried for A1 and A2 (the best mean score wins, the first on
	// ties). Results of an older version hold it as "tune_width"
	// (UnmarshalJSON).
	TuneBeamWidth int       `json:"tune_beam_width"`
	Grid          []float64 `json:"grid"`
	// PlaceboSeed shuffles the main table for A3.
	PlaceboSeed uint64 `json:"placebo_seed"`
	// Matched adds, after each test width, A0 at the beam width scaled by
	// A1's CPU cost per child over A0's.
	Matched bool `json:"matched_time"`
	// Hand, Main and Other name the hand-made weights and the two tables
	// (their provenance).
	Hand  string `json:"hand"`
	Main  string `json:"main_table"`
	Other string `json:"other_table"`
}

// UnmarshalJSON reads a configuration strictly (no unknown field), one
// of an older version included: its tuning beam width under the former
// key "tune_width".
func (c *Config) UnmarshalJSON(b []byte) error {
	type plain Config
	var v struct {
		plain
		OldTuneBeamWidth *int `json:"tune_width"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*c = Config(v.plain)
	if o := v.OldTuneBeamWidth; o != nil {
		if c.TuneBeamWidth != 0 && c.TuneBeamWidth != *o {
			return fmt.Errorf("tune_beam_width %d and tune_width %d (its former name) differ", c.TuneBeamWidth, *o)
		}
		c.TuneBeamWidth = *o
	}
	return nil
}

// LogGrid returns n weights spaced evenly in log from lo to hi.
func LogGrid(lo, hi float64, n int) []float64 {
	if n == 1 {
		return []float64{lo}
	}
	g := make([]float64, n)
	for i := range g {
		v := math.Exp(math.Log(lo) + float64(i)*(math.Log(hi)-math.Log(lo))/float64(n-1))
		g[i], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	}
	return g
}

// Validate checks a configuration.
func (c *Config) Validate() error {
	switch {
	case len(c.BeamWidths) == 0 || slices.Min(c.BeamWidths) < 1:
		return fmt.Errorf("flats: beam widths %v: want one or more, each at least 1", c.BeamWidths)
	case c.Starts < 1 || c.TuneStarts < 1:
		return fmt.Errorf("flats: %d test starts, %d tuning starts: want at least 1 of each", c.Starts, c.TuneStarts)
	case c.Opening < 0:
		return fmt.Errorf("flats: opening of %d pieces", c.Opening)
	case c.TuneBeamWidth < 1:
		return fmt.Errorf("flats: tuning beam width %d", c.TuneBeamWidth)
	case len(c.Grid) == 0:
		return fmt.Errorf("flats: empty weight grid")
	}
	for _, w := range c.Grid {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("flats: grid weight %g", w)
		}
	}
	return nil
}

// sameBut reports whether c and d agree on everything but the beam widths.
func (c *Config) sameBut(d *Config) bool {
	a, b := *c, *d
	a.BeamWidths, b.BeamWidths = nil, nil
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// Search is one beam search of the experiment.
type Search struct {
	Phase     string  `json:"phase"`
	Arm       string  `json:"arm"`
	BeamWidth int     `json:"beam_width"`
	Start     int     `json:"start"`
	Weight    float64 `json:"weight"`
	// MatchedTo is, for a matched-time run, the test beam width whose A1
	// cost it matches.
	MatchedTo int `json:"matched_to,omitempty"`
	// Score is the best game's score (the opening's lines included) and
	// Pieces its pieces after the start.
	Score  int `json:"score"`
	Pieces int `json:"pieces"`
	// CPUSeconds is the process CPU time of the search (wall time where
	// the system gives none), Seconds its wall time.
	CPUSeconds float64 `json:"cpu_seconds"`
	Seconds    float64 `json:"seconds"`
	Children   int64   `json:"children"`
}

func (r *Search) key() string {
	return fmt.Sprintf("%s-%s-w%d-s%d-g%g-m%d", r.Phase, r.Arm, r.BeamWidth, r.Start, r.Weight, r.MatchedTo)
}

// Results is the experiment's configuration, its tuned weights and its
// finished runs: the JSON of the results file, which a rerun resumes.
type Results struct {
	Format string `json:"format"`
	Config Config `json:"config"`
	// Provenance is the command line that made the results.
	Provenance string `json:"provenance"`
	// Tuned holds the frozen weights of A1 and A2 once tuned (A3 and A4
	// use A1's).
	Tuned map[string]float64 `json:"tuned,omitempty"`
	Runs  []Search           `json:"runs"`
}

// New returns an empty experiment of configuration c.
func New(c Config, provenance string) *Results {
	return &Results{Format: Format, Config: c, Provenance: provenance, Tuned: map[string]float64{}}
}

// Resume checks that the results e were made with configuration c (the
// beam widths may differ) and adopts c's beam widths: a rerun then plays
// only the runs e does not hold.
func (e *Results) Resume(c Config) error {
	if e.Format != Format {
		return fmt.Errorf("flats: results format %q, want %q", e.Format, Format)
	}
	if !e.Config.sameBut(&c) {
		return errors.New("flats: the results were made with another configuration (only the beam widths may change)")
	}
	e.Config.BeamWidths = c.BeamWidths
	if e.Tuned == nil {
		e.Tuned = map[string]float64{}
	}
	return nil
}

// Setup holds what an experiment run needs beyond its
// configuration.
type Setup struct {
	Rules *hatetris.Rules // nil: the standard 10x20 well
	// Hand is the hand-made evaluation's weights; Main the table of A1, A2
	// and A3, Other that of A4.
	Hand        eval.Weights
	Main, Other *flats.Table
	// Workers per beam search (0: 1).
	Workers int
	// CheckpointDir, when set, keeps the beam checkpoint of the search in
	// progress (one folder per run, removed when it finishes), so that a
	// killed search resumes where it was.
	CheckpointDir string
	// Save is called after every finished run (and after tuning) with the
	// results so far; an error stops the experiment.
	Save func(*Results) error
	// Note, when set, receives one line per run.
	Note func(format string, a ...any)
}

// armEval returns the evaluation of an arm at weight g.
func armEval(s *Setup, c *Config, arm string, g float64) (eval.Evaluator, error) {
	hand := eval.NewHand(s.Hand)
	var (
		base  eval.Evaluator = hand
		table                = s.Main
	)
	switch arm {
	case ArmHand:
		return hand, nil
	case ArmHandG:
	case ArmGScore:
		base = eval.NewHand(eval.ScoreOnly(s.Hand))
	case ArmPlacebo:
		table = s.Main.Placebo(c.PlaceboSeed)
	case ArmOther:
		table = s.Other
	default:
		return nil, fmt.Errorf("flats: unknown arm %q", arm)
	}
	term, err := flats.NewTerm(table, g)
	if err != nil {
		return nil, err
	}
	return eval.Sum{Base: base, Terms: []eval.Evaluator{term}}, nil
}

// Run plays every run of e that is not finished yet: tuning
// (A1 and A2 on every grid weight and tuning start at the tuning beam
// width; the best mean score freezes each weight, A3 and A4 take A1's),
// then for each test beam width every arm on every test start, then, if
// asked, the matched-time runs. Runs are deterministic (the beam's result
// does not depend on workers), so a resumed experiment equals an
// uninterrupted one, CPU and wall times aside, and so the matched-time
// widths, which come from measured CPU times, when a kill came before a
// width's first matched run.
func Run(ctx context.Context, e *Results, s Setup) error {
	c := &e.Config
	if err := c.Validate(); err != nil {
		return err
	}
	if s.Main == nil || s.Other == nil {
		return errors.New("flats: the experiment needs a main and another table")
	}
	r := s.Rules
	if r == nil {
		r = hatetris.Standard()
	}
	for _, t := range []*flats.Table{s.Main, s.Other} {
		if t.Width != r.Width {
			return fmt.Errorf("flats: table of width %d for a well of width %d", t.Width, r.Width)
		}
	}
	if e.Tuned == nil {
		e.Tuned = map[string]float64{}
	}
	starts, err := arena.Openings(r, c.Starts+c.TuneStarts, c.Opening, c.Seed)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for i := range e.Runs {
		done[e.Runs[i].key()] = true
	}
	workers := max(s.Workers, 1)
	note := s.Note
	if note == nil {
		note = func(string, ...any) {}
	}
	play := func(run Search, start int) error {
		if done[run.key()] {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ev, err := armEval(&s, c, run.Arm, run.Weight)
		if err != nil {
			return err
		}
		o := &starts[start]
		cfg := beam.Config{Rules: r, BeamWidth: run.BeamWidth, Quiescence: true, Eval: ev, Workers: workers,
			Start: &o.Well, StartScore: o.Score, StartHistory: o.History}
		var dir string
		if s.CheckpointDir != "" {
			dir = filepath.Join(s.CheckpointDir, run.key())
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			cfg.CheckpointDir = dir
			if _, err := os.Stat(filepath.Join(dir, beam.CheckpointFile)); err == nil {
				cfg.Resume = true
			}
		}
		cpu0, t0 := procstat.CPUSeconds(), time.Now()
		res, err := beam.Run(ctx, cfg)
		if err != nil {
			return fmt.Errorf("%s %s beam width %d start %d: %w", run.Phase, run.Arm, run.BeamWidth, run.Start, err)
		}
		run.Seconds = time.Since(t0).Seconds()
		run.CPUSeconds = procstat.CPUSeconds() - cpu0
		if run.CPUSeconds <= 0 {
			run.CPUSeconds = run.Seconds
		}
		run.Score, run.Pieces, run.Children = res.Score, res.Pieces, res.Children
		e.Runs = append(e.Runs, run)
		done[run.key()] = true
		note("%s %s beam width %d start %d weight %g: score %d, %d pieces, %.1f s", run.Phase, run.Arm, run.BeamWidth, run.Start, run.Weight, run.Score, run.Pieces, run.Seconds)
		if dir != "" {
			os.RemoveAll(dir)
		}
		if s.Save != nil {
			return s.Save(e)
		}
		return nil
	}
	// Tuning.
	for _, arm := range []string{ArmHandG, ArmGScore} {
		if _, ok := e.Tuned[arm]; ok {
			continue
		}
		best, bestMean := math.NaN(), math.Inf(-1)
		for _, g := range c.Grid {
			sum := 0.0
			for i := 0; i < c.TuneStarts; i++ {
				run := Search{Phase: PhaseTune, Arm: arm, BeamWidth: c.TuneBeamWidth, Start: c.Starts + i, Weight: g}
				if err := play(run, c.Starts+i); err != nil {
					return err
				}
				sum += float64(e.byKey(run.key()).Score)
			}
			if mean := sum / float64(c.TuneStarts); mean > bestMean {
				best, bestMean = g, mean
			}
		}
		e.Tuned[arm] = best
		note("tuned %s: weight %g (mean score %.2f on %d tuning starts)", arm, best, bestMean, c.TuneStarts)
		if s.Save != nil {
			if err := s.Save(e); err != nil {
				return err
			}
		}
	}
	weight := func(arm string) float64 {
		switch arm {
		case ArmHand:
			return 0
		case ArmGScore:
			return e.Tuned[ArmGScore]
		}
		return e.Tuned[ArmHandG]
	}
	for _, width := range c.BeamWidths {
		for i := 0; i < c.Starts; i++ {
			for _, arm := range Arms {
				if err := play(Search{Phase: PhaseTest, Arm: arm, BeamWidth: width, Start: i, Weight: weight(arm)}, i); err != nil {
					return err
				}
			}
		}
		if !c.Matched {
			continue
		}
		mw, _ := e.MatchedBeamWidth(width)
		// A resumed experiment keeps the width its first matched runs
		// were played at (it depends on measured CPU times).
		for i := 0; i < c.Starts; i++ {
			if m := e.Search(PhaseMatched, ArmHand, width, i); m != nil {
				mw = m.BeamWidth
				break
			}
		}
		for i := 0; i < c.Starts; i++ {
			if err := play(Search{Phase: PhaseMatched, Arm: ArmHand, BeamWidth: mw, Start: i, MatchedTo: width}, i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *Results) byKey(key string) *Search {
	for i := range e.Runs {
		if e.Runs[i].key() == key {
			return &e.Runs[i]
		}
	}
	return nil
}

// Search returns the finished search of a phase, arm, beam width and start (the
// matched-time run is found by the test width it matches), or nil.
func (e *Results) Search(phase, arm string, width, start int) *Search {
	for i := range e.Runs {
		r := &e.Runs[i]
		if r.Phase == phase && r.Arm == arm && r.Start == start && (r.BeamWidth == width && phase != PhaseMatched || phase == PhaseMatched && r.MatchedTo == width) {
			return r
		}
	}
	return nil
}

// MatchedBeamWidth returns the beam width at which A0 costs what A1 costs
// at the given test beam width: that beam width scaled by A1's CPU seconds
// per child over A0's, summed over the test starts where both finished (at
// least the beam width itself), and that ratio. Without such starts it is
// the beam width and 1.
func (e *Results) MatchedBeamWidth(width int) (int, float64) {
	var s0, c0, s1, c1 float64
	for i := 0; i < e.Config.Starts; i++ {
		a, b := e.Search(PhaseTest, ArmHand, width, i), e.Search(PhaseTest, ArmHandG, width, i)
		if a == nil || b == nil || a.Children == 0 || b.Children == 0 {
			continue
		}
		s0, c0, s1, c1 = s0+a.CPUSeconds, c0+float64(a.Children), s1+b.CPUSeconds, c1+float64(b.Children)
	}
	if c0 == 0 || s0 == 0 {
		return width, 1
	}
	ratio := (s1 / c1) / (s0 / c0)
	return max(width, int(math.Round(float64(width)*ratio))), ratio
}

// PairedDiff is one arm's paired score difference against A0 at one beam
// width, over the test starts where both finished.
type PairedDiff struct {
	Arm       string `json:"arm"`
	BeamWidth int    `json:"beam_width"`
	// Matched marks the matched-time comparison: A1 at BeamWidth against
	// A0 at MatchedBeamWidth (Ratio: A1's cost per child over A0's).
	Matched          bool    `json:"matched,omitempty"`
	MatchedBeamWidth int     `json:"matched_beam_width,omitempty"`
	Ratio            float64 `json:"ratio,omitempty"`
	// N starts; MeanBase and MeanArm the mean scores; Diff the mean of the
	// arm's score minus A0's with a bootstrap percentile interval over the
	// starts.
	N        int            `json:"n"`
	MeanBase float64        `json:"mean_base"`
	MeanArm  float64        `json:"mean_arm"`
	Diff     stats.Interval `json:"diff"`
	// Wins, Losses and Ties count the starts where the arm scored more,
	// less or the same.
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Ties   int `json:"ties"`
	// BaseCPU and ArmCPU are the CPU seconds summed over the starts.
	BaseCPU float64 `json:"base_cpu_seconds"`
	ArmCPU  float64 `json:"arm_cpu_seconds"`
}

// Paired returns the paired differences of every arm against A0 at every
// beam width with finished runs (and the matched-time comparisons), with
// bootstrap intervals of the given level (resamples of the starts, seeded).
func (e *Results) Paired(resamples int, seed uint64, level float64) []PairedDiff {
	widths := map[int]bool{}
	for _, r := range e.Runs {
		if r.Phase == PhaseTest {
			widths[r.BeamWidth] = true
		}
	}
	ws := make([]int, 0, len(widths))
	for w := range widths {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	var out []PairedDiff
	for _, w := range ws {
		for _, arm := range Arms[1:] {
			d := PairedDiff{Arm: arm, BeamWidth: w}
			e.pair(&d, func(i int) (*Search, *Search) {
				return e.Search(PhaseTest, ArmHand, w, i), e.Search(PhaseTest, arm, w, i)
			}, resamples, seed, level)
			if d.N > 0 {
				out = append(out, d)
			}
		}
		d := PairedDiff{Arm: ArmHandG, BeamWidth: w, Matched: true}
		e.pair(&d, func(i int) (*Search, *Search) {
			m := e.Search(PhaseMatched, ArmHand, w, i)
			if m != nil {
				d.MatchedBeamWidth = m.BeamWidth
			}
			return m, e.Search(PhaseTest, ArmHandG, w, i)
		}, resamples, seed, level)
		if d.N > 0 {
			_, d.Ratio = e.MatchedBeamWidth(w)
			out = append(out, d)
		}
	}
	return out
}

func (e *Results) pair(d *PairedDiff, get func(int) (*Search, *Search), resamples int, seed uint64, level float64) {
	var diffs []float64
	for i := 0; i < e.Config.Starts; i++ {
		a, b := get(i)
		if a == nil || b == nil {
			continue
		}
		x := float64(b.Score - a.Score)
		diffs = append(diffs, x)
		d.MeanBase += float64(a.Score)
		d.MeanArm += float64(b.Score)
		d.BaseCPU += a.CPUSeconds
		d.ArmCPU += b.CPUSeconds
		switch {
		case x > 0:
			d.Wins++
		case x < 0:
			d.Losses++
		default:
			d.Ties++
		}
	}
	d.N = len(diffs)
	if d.N == 0 {
		return
	}
	d.MeanBase /= float64(d.N)
	d.MeanArm /= float64(d.N)
	d.Diff = stats.MeanInterval(diffs, resamples, seed, level)
}
