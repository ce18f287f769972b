//go:build unix

package beam

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/eval"
)

// gen0Path is the committed generation-0 network (datasets/weights).
const gen0Path = "../../datasets/weights/gen-00.hlnn"

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
