package cycle

import (
	"math/rand/v2"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Reservoir keeps a uniform random sample of at most N of the wells offered
// to it (Algorithm R), seeded, so that a beam's kept wells can be sampled
// over all its levels as they pass (beam.Config.OnKept).
type Reservoir struct {
	N     int
	Wells []hatetris.Well
	rng   *rand.Rand
	seen  int
}

// NewReservoir returns an empty reservoir of n wells drawing from a PCG
// generator seeded with (seed, stream).
func NewReservoir(n int, seed, stream uint64) *Reservoir {
	return &Reservoir{N: n, rng: rand.New(rand.NewPCG(seed, stream))}
}

// OnKept offers a level's kept wells; it has the signature of
// beam.Config.OnKept.
func (r *Reservoir) OnKept(_ int, wells []hatetris.Well, _ []int) error {
	for i := range wells {
		r.seen++
		if len(r.Wells) < r.N {
			r.Wells = append(r.Wells, wells[i])
		} else if j := r.rng.IntN(r.seen); j < r.N {
			r.Wells[j] = wells[i]
		}
	}
	return nil
}
