package cycle

import (
	"math/rand/v2"
	"slices"

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
		r.offer(&wells[i])
	}
	return nil
}

func (r *Reservoir) offer(w *hatetris.Well) {
	r.seen++
	if len(r.Wells) < r.N {
		r.Wells = append(r.Wells, *w)
	} else if j := r.rng.IntN(r.seen); j < r.N {
		r.Wells[j] = *w
	}
}

// DepthBand is the number of beam levels (pieces) in one depth stratum of
// a Stratified sample.
const DepthBand = 10

// Stratum is a depth band (levels Band*DepthBand+1 ..) and a stack height.
type Stratum struct{ Band, Height int }

// Stratified samples a beam's kept wells evenly over strata of depth and
// stack height rather than in proportion to how many wells pass (a beam
// keeps far more tall wells than short ones): each stratum keeps a
// uniform sample (Algorithm R, without repeated wells) of up to N wells,
// and Wells draws N of them, as evenly as the strata allow (each stratum
// gives min(its size, q) wells, q as large as N permits), seeded.
type Stratified struct {
	N      int
	rules  *hatetris.Rules
	seed   uint64
	strata map[Stratum]*Reservoir
	seen   map[Stratum]map[hatetris.Well]bool
}

// NewStratified returns an empty stratified sample of n wells of rules r
// drawing from PCG generators seeded with seed (one stream per stratum).
func NewStratified(n int, r *hatetris.Rules, seed uint64) *Stratified {
	return &Stratified{N: n, rules: r, seed: seed, strata: map[Stratum]*Reservoir{}, seen: map[Stratum]map[hatetris.Well]bool{}}
}

// OnKept offers a level's kept wells (beam.Config.OnKept).
func (s *Stratified) OnKept(level int, wells []hatetris.Well, _ []int) error {
	for i := range wells {
		k := Stratum{(level - 1) / DepthBand, s.rules.Height(&wells[i])}
		rv := s.strata[k]
		if rv == nil {
			rv = NewReservoir(s.N, s.seed, uint64(k.Band)<<8|uint64(k.Height))
			s.strata[k], s.seen[k] = rv, map[hatetris.Well]bool{}
		}
		if !s.seen[k][wells[i]] {
			s.seen[k][wells[i]] = true
			rv.offer(&wells[i])
		}
	}
	return nil
}

// Strata returns the strata seen, in order (band, then height).
func (s *Stratified) Strata() []Stratum {
	ks := make([]Stratum, 0, len(s.strata))
	for k := range s.strata {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b Stratum) int {
		if a.Band != b.Band {
			return a.Band - b.Band
		}
		return a.Height - b.Height
	})
	return ks
}

// Quotas returns how many wells Wells draws from each stratum (in the
// order of Strata): the largest q with sum min(size, q) <= N, the
// remainder given one each to the first strata that have more.
func (s *Stratified) Quotas() []int {
	ks := s.Strata()
	sizes := make([]int, len(ks))
	total := 0
	for i, k := range ks {
		sizes[i] = len(s.strata[k].Wells)
		total += sizes[i]
	}
	quota := make([]int, len(ks))
	if total <= s.N {
		copy(quota, sizes)
		return quota
	}
	q, sum := 0, 0
	for {
		next := 0
		for _, n := range sizes {
			next += min(n, q+1)
		}
		if next > s.N {
			break
		}
		q, sum = q+1, next
	}
	for i, n := range sizes {
		quota[i] = min(n, q)
		if sum < s.N && n > q {
			quota[i]++
			sum++
		}
	}
	return quota
}

// Wells returns the drawn wells, stratum by stratum (in the order of
// Strata), each stratum's quota a seeded random subset of its sample.
func (s *Stratified) Wells() []hatetris.Well {
	var out []hatetris.Well
	quota := s.Quotas()
	for i, k := range s.Strata() {
		ws := s.strata[k].Wells
		perm := rand.New(rand.NewPCG(s.seed, 1<<32|uint64(k.Band)<<8|uint64(k.Height))).Perm(len(ws))
		for _, j := range perm[:quota[i]] {
			out = append(out, ws[j])
		}
	}
	return out
}

// childStream is added to a generation's stream for the draws of
// WithChildren, so they never share a generator with the reservoir's.
const childStream = 0x6368696c64 // "child"

// WithChildren replaces about share of the wells (each with probability
// share, in order) by a child drawn uniformly from the wells the next
// piece can make: the outcomes, game-ending ones excluded, of the piece
// HATETRIS (without the loop rule) sends in that well, which are the
// wells a beam ranks at the next level, poor placements included; a well
// no placement survives stays as it is. A beam's kept wells are the ones
// its evaluation liked, so a network trained on them alone never sees
// most of the wells it must rank below them. Seeded by (seed, stream +
// childStream); ws is changed in place and returned. Nil rules are the
// standard ones.
func WithChildren(ws []hatetris.Well, r *hatetris.Rules, share float64, seed, stream uint64) []hatetris.Well {
	if !(share > 0) {
		return ws
	}
	if r == nil {
		r = hatetris.Standard()
	}
	rng := rand.New(rand.NewPCG(seed, stream+childStream))
	g := hatetris.NewGenerator(r)
	var outs []hatetris.Outcome
	for i := range ws {
		if rng.Float64() >= share {
			continue
		}
		_, outs = g.Move(&ws[i], hatetris.Mild, nil, outs[:0])
		alive := outs[:0]
		for _, o := range outs {
			if !o.GameOver {
				alive = append(alive, o)
			}
		}
		if len(alive) > 0 {
			ws[i] = alive[rng.IntN(len(alive))].Well
		}
	}
	return ws
}
