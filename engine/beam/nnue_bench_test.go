//go:build unix

package beam

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/nnue"
)

// gen0Path is the committed generation-0 network (datasets/weights).

// BenchmarkBeamNNUE: one search from the empty well with the generation-0
// NNUE network, on one worker, at widths 1,000 and 10,000 (the latter
// stopped after 20 pieces), with and without quiescence; reports the CPU
// time of the process per evaluated child (less sensitive to other load
// than wall time; move generation, selection and GC included) and the
// score.
func BenchmarkBeamNNUE(b *testing.B) {
	ev, err := eval.LoadNNUE(gen0Path)
	if err != nil {
		b.Skip(err)
	}
	for _, c := range []struct {
		width, pieces int
	}{{1000, 0}, {10000, 20}} {
		for _, q := range []bool{false, true} {
			b.Run(fmt.Sprintf("w%d/q=%v", c.width, q), func(b *testing.B) {
				var children int64
				var cpu float64
				score := 0
				for b.Loop() {
					t0 := processCPU()
					res, err := Run(context.Background(), Config{BeamWidth: c.width, MaxPieces: c.pieces, Quiescence: q, Eval: ev, Workers: 1})
					if err != nil {
						b.Fatal(err)
					}
					cpu += (processCPU() - t0).Seconds()
					children += res.Children
					score = res.Score
				}
				if cpu > 0 {
					b.ReportMetric(cpu/float64(children)*1e9, "cpu-ns/child")
				}
				b.ReportMetric(float64(score), "score")
			})
		}
	}
}

// processCPU is the CPU time of the whole process (all threads).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// randomNNUE is a seeded random network of generation 0's shape (shared
// features of the 10x16 well, 32 hidden units, hard tanh), its weights
// drawn like the peer engine's untrained network (normal, σ = 1/√inputs
// per layer, as in the peer's code, github.com/thecog19/HATETRIS-public-beamsearch):
// the condition of the peer's published beam timings (its README), where
// the beam dies early and quiescence chains are short.
func randomNNUE(b *testing.B) *eval.NNUE {
	fs, err := nnue.NewFeatureSet(nnue.Shared, 10, 16)
	if err != nil {
		b.Fatal(err)
	}
	n, err := nnue.NewNetwork(fs, 32, nnue.HardTanh)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	s1, s2 := 1/math.Sqrt(float64(fs.Active())), 1/math.Sqrt(32)
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64() * s1)
	}
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64() * s2)
	}
	ev, err := eval.NewNNUE(n)
	if err != nil {
		b.Fatal(err)
	}
	return ev
}

// BenchmarkBeamNNUERandom is BenchmarkBeamNNUE's width-10,000 search
// with randomNNUE instead of generation 0: the peer's benchmark condition
// (a random network, width 10,000, one thread: 3.3–4.1 µs of CPU per
// child with or without quiescence, §9c), for a like-for-like comparison.
func BenchmarkBeamNNUERandom(b *testing.B) {
	ev := randomNNUE(b)
	for _, q := range []bool{false, true} {
		b.Run(fmt.Sprintf("w10000/q=%v", q), func(b *testing.B) {
			var children int64
			var cpu float64
			var res *Result
			for b.Loop() {
				t0 := processCPU()
				var err error
				res, err = Run(context.Background(), Config{BeamWidth: 10000, Quiescence: q, Eval: ev, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				cpu += (processCPU() - t0).Seconds()
				children += res.Children
			}
			if cpu > 0 {
				b.ReportMetric(cpu/float64(children)*1e9, "cpu-ns/child")
			}
			b.ReportMetric(float64(res.Score), "score")
			b.ReportMetric(float64(res.Pieces), "pieces")
		})
	}
}
