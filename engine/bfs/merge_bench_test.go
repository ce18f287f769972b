package bfs

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMerge: deduplicating one partition of 40,000 children (about
// half of them repeats, as in the 10x6 search) from two workers.
func BenchmarkMerge(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 40000
	distinct := make([]uint64, n/2)
	for i := range distinct {
		distinct[i] = rng.Uint64() >> 8 // partition 0 of 256
	}
	ws := []*worker{{out: newPartArray[[]uint64](1), spilled: newPartArray[int64](1)}, {out: newPartArray[[]uint64](1), spilled: newPartArray[int64](1)}}
	src := make([][]uint64, 2)
	for i := 0; i < n; i++ {
		src[i&1] = append(src[i&1], distinct[rng.IntN(len(distinct))])
	}
	var d deduper
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		*ws[0].out.ref(0), *ws[1].out.ref(0) = src[0], src[1]
		a := newWordArena(n + 1)
		out, err := d.merge(ws, 0, 8, a)
		if err != nil || len(out) == 0 {
			b.Fatal(err)
		}
		a.release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/child")
}
