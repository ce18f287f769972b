// Package agreement measures how often evaluations keep the wells a
// reference evaluation's beam keeps. A beam search plays by which
// children it keeps at each level, the top BeamWidth of a few times ten
// more, so an evaluation that ranks the wells of a training set almost as
// the reference does may still keep different children: the wells a beam
// ranks are mostly poor placements that no beam keeps, and no training
// set drawn from kept wells holds them. Agreement runs the reference's
// beam from each start and, at every level, ranks the children of the
// kept wells by the reference and by each evaluation (the static value of
// the child and its score, no quiescence; equal values by the higher score,
// then the smaller well, rows from the top, an order that owes nothing to
// the reference) and reports the share of the reference's top BeamWidth
// that each evaluation keeps too, the share of its own top BeamWidth that
// the reference ranks below twice that, and Spearman's rank correlation of
// the values over all the children. Only levels with more than twice
// BeamWidth children are measured: on fewer, any evaluation keeps most of
// the reference's beam.
//
// Agreement is a diagnostic, not a comparison: which evaluation plays
// better is decided by an arena match.
package agreement

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/internal/memlimit"
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
	// Levels measured over all the starts (those with more than twice
	// BeamWidth children), and the Children they ranked.
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

// InputError is a refusal of Measure's input, before any beam runs (the
// configuration, a start, the memory it would need).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

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

// ErrNoLevel is Measure's error when no level of any start had more than
// twice BeamWidth children (the beams died early, or are as wide as the
// levels).
var ErrNoLevel = errors.New("no level had more than twice the beam width in children: nothing to compare")

// Measure runs the reference beam from each start (with its score and
// memory) and returns each evaluation's agreement, in the order of c.Evals.
// A start with a tie seed is refused (the beam and the rankings break ties
// by their fixed order, so tie-seed variants of one start would repeat it),
// and so is work that needs more memory than is left, before any beam runs.
func Measure(ctx context.Context, c Config, starts []arena.Start) ([]Result, error) {
	if err := c.Check(); err != nil {
		return nil, &InputError{err}
	}
	for i := range starts {
		if starts[i].TieSeed != 0 {
			return nil, &InputError{fmt.Errorf("start %d (%s) has a tie seed: agreement breaks ties by a fixed order, so a suite of tie-seed variants repeats one start", i, starts[i].Label)}
		}
	}
	if err := memlimit.Check("the agreement measure", c.MemoryBytes()); err != nil {
		return nil, &InputError{err}
	}
	m := newMeter(ctx, c)
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
	res := m.results()
	if len(starts) > 0 && res[0].Levels == 0 {
		return nil, ErrNoLevel
	}
	return res, nil
}

// childrenEstimate is the most children a kept well is assumed to have
// for the memory estimate: a piece's distinct placements in a 10-wide
// well are a few dozen (12.8 distinct children a kept well on the long-game
// wells of datasets/weights/distill-children/README.md), and a 16-wide
// well has more, so the estimate errs high for the real game's well.
const childrenEstimate = 64

// MemoryBytes estimates the most memory Measure needs: the reference
// beam's, and for each of a level's children (childrenEstimate a kept
// well) its well, score, set entry, order and values.
func (c Config) MemoryBytes() uint64 {
	kids := uint64(c.BeamWidth) * childrenEstimate
	per := uint64(2*hatetris.MaxDepth+8+2*(2*hatetris.MaxDepth+8)+16) + 8*uint64(len(c.Evals)+1)
	return beam.PoolBytes(c.BeamWidth, max(c.Workers, 1)) + kids*per
}

// meter ranks each level's children and sums the agreements.
type meter struct {
	ctx     context.Context
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

func newMeter(ctx context.Context, c Config) *meter {
	r := c.rules()
	m := &meter{ctx: ctx, c: c, r: r, gen: hatetris.NewGenerator(r), ref: c.Reference.NewWorker(r),
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
	top := m.c.BeamWidth
	if len(m.kids) <= 2*top {
		return nil
	}
	m.values[0] = m.value(m.ref, m.values[0])
	for k, w := range m.workers {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		m.values[k+1] = m.value(w, m.values[k+1])
	}
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

// top returns the indices of the n best children by the values vs,
// best first: higher value, then higher score, then the smaller well (rows
// from the top); children are distinct (well, score) pairs, so the order
// is total and owes nothing to the order the children were made in. The
// slice is the meter's.
func (m *meter) top(vs []float64, n int) []int {
	m.order = m.order[:0]
	for i := range vs {
		m.order = append(m.order, i)
	}
	slices.SortFunc(m.order, func(a, b int) int {
		switch {
		case vs[a] > vs[b]:
			return -1
		case vs[a] < vs[b]:
			return 1
		case m.scores[a] != m.scores[b]:
			return m.scores[b] - m.scores[a]
		}
		return slices.Compare(m.kids[a][:], m.kids[b][:])
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
