package cycle

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"
	"time"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
)

// SampleConfig describes the sample stage: a master beam whose kept wells
// are sampled.
type SampleConfig struct {
	Rules *hatetris.Rules // nil: the real game's 10x20, bar 4
	Eval  eval.Evaluator
	// BeamWidth and Pieces (0: until it dies) of the master beam, with
	// Quiescence or not.
	BeamWidth, Pieces int
	Quiescence        bool
	// Openings, when positive, runs one master beam from each of that many
	// seeded random openings (arena.Openings of OpeningPieces pieces,
	// seed OpeningSeed: the arena's openings suites, each with its spawn
	// wells as the AI's memory) instead of one from the empty well;
	// the kept wells of every beam, in opening order, go to one sample,
	// and the File's Score, Pieces and Plain are the beams' totals.
	Openings      int
	OpeningPieces int
	OpeningSeed   uint64
	// Deep, when not "", is an arena suite spec (games:..., never
	// records:...) whose starts add one master beam each, after the
	// openings' (or in place of the empty well's); with it, drawn wells
	// that occur in a world-record replay are dropped.
	Deep string
	// Samples drawn from its kept wells: one reservoir seeded by (Seed,
	// Stream), or with Stratify evenly over depth and stack height
	// (Stratified, seeded by Seed).
	Samples      int
	Seed, Stream uint64
	Stratify     bool
	// Children is the share of the drawn wells replaced by a random child
	// (WithChildren, seeded by Seed and Stream), before Distinct.
	Children float64
	// Distinct drops repeated wells (first occurrences kept).
	Distinct bool
	// Plain also runs the beam without quiescence, for its score.
	Plain    bool
	Workers  int
	Progress progress.Reporter // the master beam's levels (nil: none)
}

// Sample runs the sample stage and returns the sampled wells with the
// master beam's score and pieces (and Plain's score); Provenance is left
// to the caller.
func Sample(ctx context.Context, c SampleConfig) (*samples.File, error) {
	t0 := time.Now()
	r := c.Rules
	if r == nil {
		r = hatetris.Standard()
	}
	starts := []beam.Config{{}}
	if c.Openings > 0 {
		opens, err := arena.Openings(r, c.Openings, c.OpeningPieces, c.OpeningSeed)
		if err != nil {
			return nil, err
		}
		starts = starts[:0]
		for i := range opens {
			o := &opens[i]
			starts = append(starts, beam.Config{Start: &o.Well, StartScore: o.Score, StartHistory: o.History})
		}
	}
	if c.Deep != "" {
		if !strings.HasPrefix(c.Deep, "games:") {
			return nil, fmt.Errorf("master starts %q: want a games: suite (the world records are the deep test set)", c.Deep)
		}
		suite, err := arena.ParseSuite(c.Deep, r)
		if err != nil {
			return nil, err
		}
		if c.Openings == 0 {
			starts = starts[:0]
		}
		for i := range suite.Starts {
			d := &suite.Starts[i]
			starts = append(starts, beam.Config{Start: &d.Well, StartScore: d.Score, StartHistory: d.History})
		}
	}
	onKept, drawn := sampler(c)
	sf := &samples.File{}
	for _, st := range starts {
		res, err := beam.Run(ctx, beam.Config{Rules: c.Rules, BeamWidth: c.BeamWidth, MaxPieces: c.Pieces, Quiescence: c.Quiescence,
			Eval: c.Eval, Workers: c.Workers, Progress: c.Progress, OnKept: onKept,
			Start: st.Start, StartScore: st.StartScore, StartHistory: st.StartHistory})
		if err != nil {
			return nil, err
		}
		sf.Score += res.Score
		sf.Pieces += res.Pieces
		if c.Plain {
			plain, err := beam.Run(ctx, beam.Config{Rules: c.Rules, BeamWidth: c.BeamWidth, MaxPieces: c.Pieces, Eval: c.Eval, Workers: c.Workers,
				Start: st.Start, StartScore: st.StartScore, StartHistory: st.StartHistory})
			if err != nil {
				return nil, err
			}
			sf.Plain += plain.Score
		}
	}
	ws := drawn()
	if c.Deep != "" {
		var err error
		if ws, err = dropRecordWells(ws); err != nil {
			return nil, err
		}
	}
	if c.Children > 0 {
		ws = WithChildren(ws, r, c.Children, c.Seed, c.Stream)
	}
	sf.Sampled = len(ws)
	sf.Wells = ws
	if c.Distinct {
		sf.Wells = samples.Distinct(ws)
	}
	sf.Seconds = time.Since(t0).Seconds()
	return sf, nil
}

// dropRecordWells returns ws without the wells that occur in a world-record
// replay (arena.RecordWells), in order.
func dropRecordWells(ws []hatetris.Well) ([]hatetris.Well, error) {
	recs, err := arena.RecordWells()
	if err != nil {
		return nil, err
	}
	out := ws[:0:0]
	for _, w := range ws {
		if !recs[w] {
			out = append(out, w)
		}
	}
	return out, nil
}

// sampler returns the OnKept hook of c's sample and the function that
// returns the drawn wells after the beam.
func sampler(c SampleConfig) (func(int, []hatetris.Well, []int) error, func() []hatetris.Well) {
	if c.Stratify {
		r := c.Rules
		if r == nil {
			r = hatetris.Standard()
		}
		st := NewStratified(c.Samples, r, c.Seed)
		return st.OnKept, st.Wells
	}
	rv := NewReservoir(c.Samples, c.Seed, c.Stream)
	return rv.OnKept, func() []hatetris.Well { return rv.Wells }
}

// TargetConfig describes the target stage.
type TargetConfig struct {
	Rules *hatetris.Rules
	Eval  eval.Evaluator
	// BeamWidth and Pieces of each target beam (0: 512 and 10), Rule (Best,
	// DNF, Lines or Residual) and Scale: "tanh" (or ""; tanh of the value) or "fitted"
	// (targets.FittedSquash over this stage's outcomes).
	BeamWidth, Pieces int
	Rule              targets.Rule
	Scale             string
	Workers           int
	// Base is what Rule Residual subtracts (targets.Config.Base; nil: Eval).
	Base eval.Evaluator
	// Progress receives the count of target beams, as Job.
	Progress progress.Reporter
	Job      string
}

// TargetSet is the target stage's result.
type TargetSet struct {
	Targets []float32 `json:"targets"`
	Seconds float64   `json:"seconds"`
	// Center and Scale of the fitted squash (Scale 0: tanh).
	Center float64 `json:"center,omitempty"`
	Scale  float64 `json:"scale,omitempty"`
}

// ParseScale checks a target scale name: "tanh" or "fitted".
func ParseScale(s string) (string, error) {
	switch s {
	case "", "tanh":
		return "tanh", nil
	case "fitted":
		return s, nil
	}
	return "", fmt.Errorf("unknown target scale %q (want tanh or fitted)", s)
}

// Targets runs one target beam per well and returns their targets.
func Targets(ctx context.Context, c TargetConfig, wells []hatetris.Well) (*TargetSet, error) {
	scale, err := ParseScale(c.Scale)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	tc := targets.Config{Rules: c.Rules, Eval: c.Eval, BeamWidth: c.BeamWidth, Pieces: c.Pieces, Rule: c.Rule, Workers: c.Workers, Base: c.Base}
	if c.Progress != nil {
		var mu sync.Mutex
		n := int64(len(wells))
		tc.OnTarget = func(done int) { // from any worker: one report at a time
			mu.Lock()
			defer mu.Unlock()
			c.Progress.Report(progress.Event{Job: c.Job, Stage: "targets", Done: int64(done), Total: n, Unit: "wells", Finished: int64(done) == n})
		}
	}
	outs, err := targets.Outcomes(ctx, tc, wells)
	if err != nil {
		return nil, err
	}
	pieces := c.Pieces
	if pieces == 0 {
		pieces = 10
	}
	ts := &TargetSet{Targets: make([]float32, len(outs))}
	squash := math.Tanh
	if scale == "fitted" {
		squash, ts.Center, ts.Scale = targets.FittedSquash(outs, pieces)
	}
	for i, o := range outs {
		ts.Targets[i] = c.Rule.Target(o, pieces, squash)
	}
	ts.Seconds = time.Since(t0).Seconds()
	return ts, nil
}

// TrainingSet returns the training samples of wells (their features under
// fs, rows Bar..Depth-1 of r) with their targets, grouped by their number
// of filled cells (the wells a ranking loss compares: 4 cells a piece
// placed less 10 a line cleared, so one group can hold wells of different
// piece counts).
func TrainingSet(fs *nnue.FeatureSet, r *hatetris.Rules, wells []hatetris.Well, ts []float32) []train.Sample {
	set := make([]train.Sample, len(wells))
	for i := range wells {
		w := &wells[i]
		cells := 0
		for _, row := range w[:r.Depth] {
			cells += bits.OnesCount16(row)
		}
		set[i] = train.Sample{Feats: fs.Append(nil, w[r.Bar:r.Depth]), Target: ts[i], Group: int32(cells)}
	}
	return set
}

// TrainGeneration trains generation g from prev on set (tc's Features,
// Hidden, Activation and Start come from prev; a zero Seed is seed + g)
// and names the network; its provenance is left to the caller. Epochs
// are reported to rep as Job.
func TrainGeneration(ctx context.Context, prev *nnue.Network, set []train.Sample, tc train.Config, g int, seed uint64, rep progress.Reporter, job string) (*train.Result, error) {
	tc.Features, tc.Hidden, tc.Activation, tc.Start = prev.Features, prev.Hidden, prev.Activation, prev
	if tc.Seed == 0 {
		tc.Seed = seed + uint64(g)
	}
	if tc.OnEpoch == nil && rep != nil {
		epochs := int64(tc.MaxEpochs)
		if epochs <= 0 {
			epochs = train.DefaultMaxEpochs
		}
		tc.OnEpoch = func(e train.EpochStats) error {
			rep.Report(progress.Event{Job: job, Stage: "train", Done: int64(e.Epoch + 1), Total: epochs, Unit: "epochs",
				Info: fmt.Sprintf("valid MSE %.4f", e.ValidMSE)})
			return nil
		}
	}
	res, err := train.Train(ctx, tc, set)
	if err != nil {
		return nil, err
	}
	res.Net.Header.Name = fmt.Sprintf("gen-%02d", g)
	res.Net.Header.Generation = g
	return res, nil
}
