package beam

import (
	"context"
	"runtime"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// BenchmarkBeam1000: one width-1000 search from the empty well (hand-made
// evaluation); reports children evaluated per second per worker.
func BenchmarkBeam1000(b *testing.B) { benchBeam(b, 1000, false) }

// BenchmarkBeam1000Q: the same with quiescence.
func BenchmarkBeam1000Q(b *testing.B) { benchBeam(b, 1000, true) }

func benchBeam(b *testing.B, width int, q bool) {
	var children int64
	var secs float64
	for b.Loop() {
		res, err := Run(context.Background(), Config{BeamWidth: width, Quiescence: q, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		children += res.Children
		secs += res.Seconds
	}
	b.ReportMetric(float64(children)/secs, "children/s/core")
	b.ReportMetric(secs/float64(children)*1e9, "ns/child")
}

// BenchmarkDepth10k: wall time per depth of a full width-10,000 beam
// (depths 11 to 20 from the empty well, where the beam is full), without
// and with quiescence, all cores.
func BenchmarkDepth10k(b *testing.B) {
	for _, q := range []bool{false, true} {
		name := "plain"
		if q {
			name = "quiescence"
		}
		b.Run(name, func(b *testing.B) {
			var secs float64
			var children int64
			depths := 0
			for b.Loop() {
				res, err := Run(context.Background(), Config{BeamWidth: 10000, MaxPieces: 20, Quiescence: q})
				if err != nil {
					b.Fatal(err)
				}
				for _, ds := range res.Levels[10:] {
					secs += ds.Seconds
					children += ds.Children
					depths++
				}
			}
			b.ReportMetric(secs/float64(depths), "s/depth")
			b.ReportMetric(float64(children)/float64(depths), "children/depth")
		})
	}
}

// benchSearcher returns a searcher holding the beam of a width-200 search
// with the evaluation ev after depth pieces, to expand its wells one by
// one.
func benchSearcher(b *testing.B, q bool, ev eval.Evaluator, depth int) *searcher {
	dir := b.TempDir()
	if _, err := Run(context.Background(), Config{BeamWidth: 200, MaxPieces: depth, Quiescence: q, Eval: ev, CheckpointDir: dir}); err != nil {
		b.Fatal(err)
	}
	st, err := loadCheckpoint(dir)
	if err != nil {
		b.Fatal(err)
	}
	s := &searcher{cfg: Config{BeamWidth: 200, Quiescence: q, QuiescenceCap: 256, Eval: ev}, st: st}
	s.r = hatetris.Standard()
	s.tr.Levels = st.Tree
	return s
}

// BenchmarkExpand: one kept well expanded, its children evaluated and
// offered to the selection pool, on one goroutine, with the hand-made
// evaluation (after 30 pieces) and with generation 0's network (after 15:
// its width-200 beam dies before 30); reports the children evaluated per
// second (per core). Allocates nothing.
func BenchmarkExpand(b *testing.B) {
	type arm struct {
		name  string
		ev    eval.Evaluator
		depth int
	}
	evs := []arm{{"hand", eval.NewHand(eval.DefaultWeights()), 30}}
	if nn, err := eval.LoadNNUE(gen0Path); err == nil {
		evs = append(evs, arm{"gen0", nn, 15})
	}
	for _, e := range evs {
		for _, q := range []bool{false, true} {
			name := e.name + "/plain"
			if q {
				name = e.name + "/quiescence"
			}
			b.Run(name, func(b *testing.B) { benchExpand(b, q, e.ev, e.depth) })
		}
	}
}

func benchExpand(b *testing.B, q bool, ev eval.Evaluator, depth int) {
	s := benchSearcher(b, q, ev, depth)
	w := newWorker(s)
	w.begin()
	n := len(s.st.Wells)
	// Warm the pool and buffers, then measure with a fresh memo so that
	// every child is evaluated.
	for i := 0; i < n; i++ {
		w.expand(s.st.Level, i)
	}
	w.begin()
	w.memo = memo{tab: make([]qentry, 1<<memoBits)}
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%n == 0 {
			clear(w.memo.tab)
			w.pool.c = w.pool.c[:0]
		}
		w.expand(s.st.Level, i%n)
	}
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(w.children)/b.Elapsed().Seconds(), "children/s")
	if cpu > 0 {
		b.ReportMetric(float64(w.children)/cpu.Seconds(), "children/cpu-s")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(w.children), "cpu-ns/child")
	}
}
