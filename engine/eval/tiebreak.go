package eval

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TieBreak wraps an evaluation so that wells of exactly equal value are
// ordered by a seeded hash instead of by the beam's fixed order (score,
// then the well's rows): it adds at most 1e-6 to each value, far less than
// any difference the hand-made weights can make between two values, so
// only ties change order. Seed 0 returns e itself. Running the same search
// under several seeds measures how much a result owes to the arbitrary
// order among equal wells. The wrapped worker keeps the base worker's
// quiescence clears and incremental parent updates (Wrap). An arena
// start's TieSeed plays its games under it.
func TieBreak(e Evaluator, seed uint64) Evaluator {
	if seed == 0 {
		return e
	}
	return tieBreak{e, seed}
}

type tieBreak struct {
	base Evaluator
	seed uint64
}

func (t tieBreak) Name() string { return fmt.Sprintf("%s tiebreak %d", t.base.Name(), t.seed) }

// Check passes the base's geometry check on.
func (t tieBreak) Check(r *hatetris.Rules) error { return CheckGeometry(t.base, r) }

func (t tieBreak) NewWorker(r *hatetris.Rules) Worker {
	seed := t.seed
	return Wrap(t.base.NewWorker(r), func(v float64, w *hatetris.Well, score, future int) float64 {
		return v + jitter(seed, w, score, future)
	})
}

// jitter is the seeded hash of (well, score, future) scaled into [0, 1e-6).
func jitter(seed uint64, w *hatetris.Well, score, future int) float64 {
	h := mix(seed ^ uint64(score)<<32 ^ uint64(future))
	for _, row := range w {
		h = mix(h ^ uint64(row))
	}
	return float64(h>>11) / (1 << 53) * 1e-6
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
