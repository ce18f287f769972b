// Package targets computes NNUE training targets the way knewjade and D&F
// do: from each sampled well, a small beam (width ~512, ~10 pieces, no
// quiescence, the real AI with its loop rule) guided by the current
// evaluation; the target is the best value among the wells it keeps after
// the last piece, squashed into [-1, 1] (tanh of the engine's value, the
// training output of the network), or -1 if the beam dies before (Rule
// Best; Rule DNF is D&F's 2023 rule; Rule Lines counts the lines the beam
// clears instead of its value; FittedSquash is a squash in the evaluation's
// own units, or in lines, spread over (-1, 1)). Each target beam starts at score 0, so an evaluation's score weight (the
// generation-0 network's, or one a trained network kept with the
// cycle's --keep-score-weight) rewards only the lines cleared within it.
//
// Target beams run in parallel across wells, each on one goroutine, and
// every result goes to its well's index, so the targets do not depend on
// the number of workers.
package targets

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// Config describes the target beams.
type Config struct {
	Rules *hatetris.Rules // nil: the real game's 10x20, bar 4
	Eval  eval.Evaluator
	// BeamWidth and Pieces of each target beam (0: 512 and 10).
	BeamWidth, Pieces int
	// Squash maps a beam value into [-1, 1] (nil: tanh).
	Squash func(float64) float64
	// Rule turns a beam's outcome into a target (0: Best).
	Rule Rule
	// Workers run target beams in parallel (0: GOMAXPROCS).
	Workers int
	// Base is what Rule Residual subtracts: its value of the start well
	// (nil: Eval's, the search's own static judgement). A part of Eval
	// (the hand-made half of a hybrid guide) makes the residual what
	// Eval's search adds to that part alone.
	Base eval.Evaluator
	// OnTarget, when set, is called (from any worker) after each target.
	OnTarget func(done int)
}

// Rule is how a target beam's outcome becomes a target.
type Rule uint8

const (
	// Best: the squashed best value after Pieces pieces, -1 if the beam
	// dies before (knewjade's and D&F's first rule; the default).
	Best Rule = iota
	// DNF is D&F's 2023 rule: the beam runs 2*Pieces pieces; -1 if it
	// dies by piece Pieces, the squashed best value at piece Pieces if it
	// survives to 2*Pieces, and in between the two blended linearly by the
	// pieces it survived past Pieces.
	DNF
	// Lines: the squashed number of lines the beam has cleared after
	// Pieces pieces (the most among its kept wells; each target beam
	// starts at score 0), -1 if it dies before: what the beam achieves
	// rather than what the evaluation guiding it thinks of its wells.
	// Lines are small integers, so tanh saturates at 2 or 3: use it with
	// FittedSquash and a horizon long enough to clear several (at 30 and
	// 50 pieces the screens of datasets/weights/tuned-start trained
	// networks that played worse than their start).
	Lines
	// Residual: the best value after Pieces pieces minus the
	// evaluation's own value of the start well (at score 0), squashed;
	// -1 if the beam dies before: what the evaluation's search adds to
	// its static judgement of the well. A network trained on it with
	// FittedSquash (spread s) and added to that evaluation with weight
	// 1/s (the hybrid nnue:FILE+h:1/s:HAND) approximates, up to a
	// constant and where the squash is near linear, the evaluation's own
	// Pieces-piece lookahead divided by s. With Config.Base (a part of
	// the evaluation, W times HAND for a hybrid NET+h:W:HAND) the base's
	// value is subtracted instead, and the network, played with weight
	// W/s in NET's place (nnue:FILE+h:W/s:HAND), approximates the same.
	// Use it with FittedSquash (the values are in the evaluation's
	// units) and a teacher evaluation (the cycle's --teacher).
	Residual
	// Static: the evaluation's own value of the well (at score 0),
	// squashed; no beam runs, so no well dies: a network trained on it
	// imitates the evaluation's static judgement of a well, where the
	// other rules teach what its search makes of it. Use it with a
	// teacher evaluation (the cycle's --teacher) and, for a hand-made
	// one, FittedSquash.
	Static
)

// String returns "best", "dnf", "lines", "residual" or "static".
func (r Rule) String() string {
	switch r {
	case Static:
		return "static"
	case DNF:
		return "dnf"
	case Lines:
		return "lines"
	case Residual:
		return "residual"
	}
	return "best"
}

// ParseRule reads "best", "dnf", "lines", "residual" or "static".
func ParseRule(s string) (Rule, error) {
	switch s {
	case "static":
		return Static, nil
	case "best", "":
		return Best, nil
	case "dnf":
		return DNF, nil
	case "lines":
		return Lines, nil
	case "residual":
		return Residual, nil
	}
	return 0, fmt.Errorf("unknown target rule %q (want best, dnf, lines, residual or static)", s)
}

// horizon is how many pieces a target beam runs under rule r.
func (r Rule) horizon(pieces int) int {
	if r == DNF {
		return 2 * pieces
	}
	return pieces
}

// Outcome is what a target beam did: Value is the best value among the
// wells it kept after Pieces pieces (under Rule Lines the most lines
// cleared among them, under Rule Residual that value minus the
// evaluation's value of the start well; meaningful when Survived >=
// Pieces), Survived the
// pieces it lasted, up to its horizon.
type Outcome struct {
	Value    float64 `json:"value"`
	Survived int     `json:"survived"`
}

// Target is the target of an outcome under rule r with pieces and
// squash, in [-1, 1].
func (r Rule) Target(o Outcome, pieces int, squash func(float64) float64) float32 {
	if o.Survived < pieces {
		return -1
	}
	v := min(max(squash(o.Value), -1), 1)
	if r == DNF && o.Survived < 2*pieces {
		v = -1 + float64(o.Survived-pieces)/float64(pieces)*(v+1)
	}
	return float32(v)
}

func (c *Config) defaults() {
	if c.BeamWidth == 0 {
		c.BeamWidth = 512
	}
	if c.Pieces == 0 {
		c.Pieces = 10
	}
	if c.Squash == nil {
		c.Squash = math.Tanh
	}
	if c.Rules == nil {
		c.Rules = hatetris.Standard()
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
}

// Compute returns one target per well.
func Compute(ctx context.Context, cfg Config, wells []hatetris.Well) ([]float32, error) {
	outs, err := Outcomes(ctx, cfg, wells)
	if err != nil {
		return nil, err
	}
	cfg.defaults()
	out := make([]float32, len(outs))
	for i, o := range outs {
		out[i] = cfg.Rule.Target(o, cfg.Pieces, cfg.Squash)
	}
	return out, nil
}

// Outcomes runs one target beam per well (for the rule's horizon) and
// returns what each did, in the wells' order whatever the workers.
func Outcomes(ctx context.Context, cfg Config, wells []hatetris.Well) ([]Outcome, error) {
	if cfg.Eval == nil {
		return nil, errors.New("targets: no evaluation")
	}
	cfg.defaults()
	out := make([]Outcome, len(wells))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(wells) || ctx.Err() != nil {
					return
				}
				o, err := run(ctx, cfg, &wells[i])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("targets: well %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
				out[i] = o
				if cfg.OnTarget != nil {
					cfg.OnTarget(int(done.Add(1)))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// One is the target of one well.
func One(ctx context.Context, cfg Config, w *hatetris.Well) (float32, error) {
	cfg.defaults()
	o, err := run(ctx, cfg, w)
	if err != nil {
		return 0, err
	}
	return cfg.Rule.Target(o, cfg.Pieces, cfg.Squash), nil
}

// run is one target beam (cfg with its defaults); under Static, no beam.
func run(ctx context.Context, cfg Config, w *hatetris.Well) (Outcome, error) {
	if cfg.Rule == Static {
		return Outcome{Value: cfg.Eval.NewWorker(cfg.Rules).Evaluate(w, 0, 0), Survived: cfg.Pieces}, nil
	}
	start := *w
	res, err := beam.Run(ctx, beam.Config{Rules: cfg.Rules, BeamWidth: cfg.BeamWidth, MaxPieces: cfg.Rule.horizon(cfg.Pieces), Eval: cfg.Eval,
		Workers: 1, Start: &start})
	if err != nil {
		return Outcome{}, err
	}
	var o Outcome
	for _, l := range res.Levels {
		if l.Kept == 0 {
			break
		}
		o.Survived++
	}
	if o.Survived >= cfg.Pieces {
		l := &res.Levels[cfg.Pieces-1]
		o.Value = l.BestValue
		switch cfg.Rule {
		case Lines:
			o.Value = float64(l.MaxScore)
		case Residual:
			base := cfg.Base
			if base == nil {
				base = cfg.Eval
			}
			o.Value -= base.NewWorker(cfg.Rules).Evaluate(w, 0, 0)
		}
	}
	return o, nil
}

// FittedSquash returns tanh((v - center) / scale) with center the median
// of the values of the outcomes that lasted pieces and scale such that
// their 10th and 90th percentiles map to -0.8 and 0.8: targets in the
// evaluation's own units, spread across (-1, 1) rather than crowded at
// tanh's ceiling. With fewer than two distinct such values, scale is 1.
func FittedSquash(outs []Outcome, pieces int) (squash func(float64) float64, center, scale float64) {
	var vs []float64
	for _, o := range outs {
		if o.Survived >= pieces {
			vs = append(vs, o.Value)
		}
	}
	scale = 1
	if len(vs) > 0 {
		slices.Sort(vs)
		q := func(p float64) float64 { return vs[int(math.Round(p*float64(len(vs)-1)))] }
		center = q(0.5)
		if spread := q(0.9) - q(0.1); spread > 0 {
			scale = spread / (2 * math.Atanh(0.8))
		}
	}
	return func(v float64) float64 { return math.Tanh((v - center) / scale) }, center, scale
}
