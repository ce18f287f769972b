package eval

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Noise wraps an evaluation so that each well's value has a seeded,
// normally distributed error of standard deviation sigma added: the same
// error for the same well whatever its score or lookahead lines (a
// function of its rows alone, as a network's error is). It is a control:
// playing an evaluation with errors of a known size against the same
// evaluation without them measures what errors of that size cost in
// games. Sigma 0 returns e itself. The wrapped worker keeps the base
// worker's quiescence clears and incremental parent updates (Wrap).
func Noise(e Evaluator, sigma float64, seed uint64) Evaluator {
	if sigma == 0 {
		return e
	}
	return noise{e, sigma, seed}
}

type noise struct {
	base  Evaluator
	sigma float64
	seed  uint64
}

func (n noise) Name() string {
	return fmt.Sprintf("%s noise %g seed %d", n.base.Name(), n.sigma, n.seed)
}

// Check passes the base's geometry check on.
func (n noise) Check(r *hatetris.Rules) error { return CheckGeometry(n.base, r) }

func (n noise) NewWorker(r *hatetris.Rules) Worker {
	sigma, seed := n.sigma, n.seed
	return Wrap(n.base.NewWorker(r), func(v float64, w *hatetris.Well, _, _ int) float64 {
		return v + sigma*normal(seed, w)
	})
}

// normal is a standard normal draw seeded by the well's rows (Box-Muller
// over two splitmix64 hashes).
func normal(seed uint64, w *hatetris.Well) float64 {
	h := mix(seed)
	for _, row := range w {
		h = mix(h ^ uint64(row))
	}
	g := mix(h ^ 0x6e6f697365) // "noise"
	u1 := (float64(h>>11) + 0.5) / (1 << 53)
	u2 := float64(g>>11) / (1 << 53)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}
