// Package agreement measures how often evaluations keep the wells a
// reference evaluation's beam keeps. A beam search plays by which
// children it keeps at each level, the top BeamWidth of a few times ten
// more, so an evaluation that ranks the wells of a training set almost as
// the reference does may still keep different children: the wells a beam
// ranks are mostly poor placements that no beam keeps, and no training
// set drawn from kept wells holds them. Agreement runs the reference's
// beam from each start and, at every level, ranks the children of the
// kept wells by the reference and by each evaluation (the static value of
// the child and its score, no quiescence) and reports the share of the
// reference's top BeamWidth that each evaluation keeps too, the share of
// its own top BeamWidth that the reference ranks below twice that, and
// Spearman's rank correlation of the values over all the children.
//
// Agreement is a diagnostic, not a comparison: which evaluation plays
// better is decided by an arena match.
package agreement

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/rankcorr"
)

// MaxEvals is the most evaluations one measurement compares with the
// reference.
const MaxEvals = 64

// MaxPieces is the most levels one start is measured over.
const MaxPieces = 1000

// MaxBeamWidth is the widest reference beam: a level's children (a few
// times ten a kept well) are all held in memory.
const MaxBeamWidth = 100_000

// Config describes one measurement.
type Config struct {
	// Rules is the geometry (nil: the real game's).
	Rules *hatetris.Rules
	// Reference runs the beams and ranks the children the others are
	// compared with.
	Reference eval.Evaluator
	// Evals are compared with the reference (1 to MaxEvals).
	Evals []eval.Evaluator
	// BeamWidth is the reference beam's width and the number of top
	// children compared at each level.
	BeamWidth int
	// Pieces is the number of levels of each start's beam (1 to
	// MaxPieces); a beam that dies sooner is measured until it dies.
	Pieces int
	// Quiescence turns on the reference beam's lookahead (the children
	// are ranked without it).
	Quiescence bool
	// Workers are the reference beam's goroutines (0: GOMAXPROCS); the
	// result does not depend on them.
	Workers int
}

// Result is one evaluation's agreement with the reference.
type Result struct {
	// Eval names the evaluation.
	Eval string
	// Levels measured over all the starts, and the Children ranked.
	Levels   int
	Children int64
	// Kept is the mean over the levels of the share of the reference's
	// top BeamWidth children (all of them where fewer) that the
	// evaluation's top BeamWidth holds too: 1 keeps the same beam.
	Kept float64
	// Best is the share of the levels where the evaluation's best child
	// is among the reference's top BeamWidth.
	Best float64
	// Far is the mean over the levels of the share of the evaluation's
	// top BeamWidth that the reference ranks below its top 2 BeamWidth:
	// wells the reference's beam would not keep at twice its width.
	Far float64
	// Spearman is the mean over the levels of the rank correlation of the
	// evaluation's values of the children with the reference's (levels
	// where it is undefined left out; NaN where none is defined).
	Spearman       float64
	spearmanLevels int
}

// Check reports what is wrong with c, before any work.
func (c Config) Check() error {
	switch {
	case c.Reference == nil:
		return fmt.Errorf("no reference evaluation")
	case len(c.Evals) < 1 || len(c.Evals) > MaxEvals:
		return fmt.Errorf("%d evaluations: want 1 to %d", len(c.Evals), MaxEvals)
	case c.BeamWidth < 1 || c.BeamWidth > MaxBeamWidth:
		return fmt.Errorf("beam width %d: want 1 to %d", c.BeamWidth, MaxBeamWidth)
	case c.Pieces < 1 || c.Pieces > MaxPieces:
		return fmt.Errorf("pieces %d: want 1 to %d", c.Pieces, MaxPieces)
	}
	r := c.rules()
	for _, e := range append([]eval.Evaluator{c.Reference}, c.Evals...) {
		if e == nil {
			return fmt.Errorf("a nil evaluation")
		}
		if err := eval.CheckGeometry(e, r); err != nil {
			return fmt.Errorf("%s: %v", e.Name(), err)
		}
	}
	return nil
}

func (c Config) rules() *hatetris.Rules {
	if c.Rules == nil {
		return hatetris.Standard()
	}
	return c.Rules
}

// Measure runs the reference beam from each start (with its score and
// memory; its tie seed is not used: the beam and the rankings break ties
// by their fixed order) and returns each evaluation's agreement, in the
// order of c.Evals.
func Measure(ctx context.Context, c Config, starts []arena.Start) ([]Result, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	m := newMeter(c)
	for i := range starts {
		s := &starts[i]
		cfg := beam.Config{Rules: m.r, BeamWidth: c.BeamWidth, MaxPieces: c.Pieces, Quiescence: c.Quiescence,
			Eval: c.Reference, Workers: c.Workers, Start: &s.Well, StartScore: s.Score, StartHistory: s.History,
			OnKept: m.level}
		if _, err := beam.Run(ctx, cfg); err != nil {
			return nil, fmt.Errorf("start %d (%s): %w", i, s.Label, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return m.results(), nil
}

// meter ranks each level's children and sums the agreements.
type meter struct {
	c       Config
	r       *hatetris.Rules
	gen     *hatetris.Generator
	ref     eval.Worker
	workers []eval.Worker
	out     []Result
	outs    []hatetris.Outcome
	// The children of the current level, and the values of the
	// reference (values[0]) and of each evaluation.
	kids    []hatetris.Well
	scores  []int
	values  [][]float64
	order   []int
	refRank []int
	seen    map[child]bool
}

// child is a well and its score: the beam tells apart wells of one shape
// reached with different scores.
type child struct {
	w     hatetris.Well
	score int
}

func newMeter(c Config) *meter {
	r := c.rules()
	m := &meter{c: c, r: r, gen: hatetris.NewGenerator(r), ref: c.Reference.NewWorker(r),
		values: make([][]float64, len(c.Evals)+1), seen: map[child]bool{}}
	for _, e := range c.Evals {
		m.workers = append(m.workers, e.NewWorker(r))
		m.out = append(m.out, Result{Eval: e.Name()})
	}
	return m
}

// level is the beam's OnKept: it ranks the children of the kept wells,
// the wells the beam ranks at the next level (the pieces HATETRIS's mild
// choice sends, without the loop rule; game-ending ones left out; each
// well and score once).
func (m *meter) level(_ int, wells []hatetris.Well, scores []int) error {
	m.kids, m.scores = m.kids[:0], m.scores[:0]
	clear(m.seen)
	for i := range wells {
		_, m.outs = m.gen.Move(&wells[i], hatetris.Mild, nil, m.outs[:0])
		for _, o := range m.outs {
			k := child{o.Well, scores[i] + o.Lines}
			if o.GameOver || m.seen[k] {
				continue
			}
			m.seen[k] = true
			m.kids, m.scores = append(m.kids, o.Well), append(m.scores, k.score)
		}
	}
	if len(m.kids) == 0 {
		return nil
	}
	m.values[0] = m.value(m.ref, m.values[0])
	for k, w := range m.workers {
		m.values[k+1] = m.value(w, m.values[k+1])
	}
	top := min(m.c.BeamWidth, len(m.kids))
	m.refRank = slices.Grow(m.refRank[:0], len(m.kids))[:len(m.kids)]
	for rank, j := range m.top(m.values[0], len(m.kids)) {
		m.refRank[j] = rank
	}
	for k := range m.out {
		r := &m.out[k]
		vs := m.values[k+1]
		both, far := 0, 0
		best := m.top(vs, top)
		for _, j := range best {
			if m.refRank[j] < top {
				both++
			}
			if m.refRank[j] >= 2*top {
				far++
			}
		}
		r.Levels++
		r.Children += int64(len(m.kids))
		r.Kept += float64(both) / float64(top)
		r.Far += float64(far) / float64(top)
		if m.refRank[best[0]] < top {
			r.Best++
		}
		if rho := rankcorr.Spearman(vs, m.values[0]); !math.IsNaN(rho) {
			r.Spearman += rho
			r.spearmanLevels++
		}
	}
	return nil
}

// value fills dst with w's values of the children.
func (m *meter) value(w eval.Worker, dst []float64) []float64 {
	dst = dst[:0]
	for i := range m.kids {
		dst = append(dst, w.Evaluate(&m.kids[i], m.scores[i], 0))
	}
	return dst
}

// top returns the indices of the n highest values, highest first, ties
// by index (the first child first); the slice is the meter's.
func (m *meter) top(vs []float64, n int) []int {
	m.order = m.order[:0]
	for i := range vs {
		m.order = append(m.order, i)
	}
	slices.SortStableFunc(m.order, func(a, b int) int {
		switch {
		case vs[a] > vs[b]:
			return -1
		case vs[a] < vs[b]:
			return 1
		}
		return 0
	})
	return m.order[:n]
}

// results turns the sums into means.
func (m *meter) results() []Result {
	out := slices.Clone(m.out)
	for i := range out {
		r := &out[i]
		if r.Levels > 0 {
			r.Kept /= float64(r.Levels)
			r.Best /= float64(r.Levels)
			r.Far /= float64(r.Levels)
		}
		if r.spearmanLevels > 0 {
			r.Spearman /= float64(r.spearmanLevels)
		} else {
			r.Spearman = math.NaN()
		}
		if r.Levels == 0 {
			r.Kept, r.Best, r.Far = math.NaN(), math.NaN(), math.NaN()
		}
	}
	return out
}
