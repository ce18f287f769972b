package beam

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPoolOffer: a worker's share of a width-100,000 level: 2
// million children offered to its pool (random values, a few duplicate
// wells), then the pool compacted; reports the nanoseconds a child.
// Allocates nothing once the pool exists.
func BenchmarkPoolOffer(b *testing.B) {
	const width, offers = 100000, 2000000
	rng := rand.New(rand.NewPCG(1, 2))
	cs := make([]cand, offers)
	for i := range cs {
		x := rng.Uint64()
		c := &cs[i]
		for r := range c.well {
			c.well[r] = uint16(x >> (r % 4 * 16))
		}
		if i%50 == 0 && i > 0 {
			c.well = cs[rng.IntN(i)].well // a duplicate well
		}
		c.score = int32(i % 3)
		// A function of (score, well): copies have equal values.
		c.value = float64(keyHash(c)>>11)/(1<<53) + float64(c.score)
		c.from = uint32(i)
	}
	var p pool
	p.reset(width)
	b.ReportAllocs()
	for b.Loop() {
		p.reset(width)
		for i := range cs {
			p.offer(&cs[i])
		}
		p.compact()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*offers), "ns/child")
}
