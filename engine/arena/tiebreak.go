package arena

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// TieBreak wraps an evaluation so that wells of exactly equal value are
// ordered by a seeded hash instead of by the beam's fixed order (score,
// then the well's rows): it adds at most 1e-6 to each value, far less than
// any difference the hand-made weights can make between two values, so
// only ties change order. Seed 0 returns e itself. Running the same search
// under several seeds measures how much a result owes to the arbitrary
// order among equal wells. The wrapped worker keeps the base worker's
// quiescence clears and incremental parent updates.
func TieBreak(e eval.Evaluator, seed uint64) eval.Evaluator {
	if seed == 0 {
		return e
	}
	return tieBreak{e, seed}
}

type tieBreak struct {
	base eval.Evaluator
	seed uint64
}

func (t tieBreak) Name() string { return fmt.Sprintf("%s tiebreak %d", t.base.Name(), t.seed) }

// Check passes the base's geometry check on.
func (t tieBreak) Check(r *hatetris.Rules) error {
	if c, ok := t.base.(eval.GeometryChecker); ok {
		return c.Check(r)
	}
	return nil
}

func (t tieBreak) NewWorker(r *hatetris.Rules) eval.Worker {
	b := t.base.NewWorker(r)
	tw := tieWorker{b, t.seed}
	cw, clears := b.(eval.ClearsWorker)
	pw, parent := b.(eval.ParentWorker)
	switch {
	case clears && parent:
		return tieBoth{tieClears{tw, cw}, pw}
	case clears:
		return tieClears{tw, cw}
	case parent:
		return tieParent{tw, pw}
	}
	return tw
}

type tieWorker struct {
	base eval.Worker
	seed uint64
}

// jitter is the seeded hash of (well, score, future) scaled into [0, 1e-6).
func (t tieWorker) jitter(w *hatetris.Well, score, future int) float64 {
	h := mix(t.seed ^ uint64(score)<<32 ^ uint64(future))
	for _, row := range w {
		h = mix(h ^ uint64(row))
	}
	return float64(h>>11) / (1 << 53) * 1e-6
}

func (t tieWorker) Evaluate(w *hatetris.Well, score, future int) float64 {
	return t.base.Evaluate(w, score, future) + t.jitter(w, score, future)
}

type tieClears struct {
	tieWorker
	cw eval.ClearsWorker
}

func (t tieClears) EvaluateClears(w *hatetris.Well, score, future int, clears *[hatetris.NumPieces]int) float64 {
	return t.cw.EvaluateClears(w, score, future, clears) + t.jitter(w, score, future)
}

type tieParent struct {
	tieWorker
	pw eval.ParentWorker
}

func (t tieParent) SetParent(w *hatetris.Well) { t.pw.SetParent(w) }

type tieBoth struct {
	tieClears
	pw eval.ParentWorker
}

func (t tieBoth) SetParent(w *hatetris.Well) { t.pw.SetParent(w) }

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
