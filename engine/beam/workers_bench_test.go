//go:build unix

package beam

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/progress"
)

// gen6Path is the openings run's generation 6 (datasets/weights), the
// network of the width-100,000 game in datasets/beams.
const gen6Path = "../../datasets/weights/openings-run/gen-06.hlnn"

// BenchmarkBeamWorkers: one beam's speed on 1 and on 2 workers (and on
// every core where there are more than 2), with quiescence, for the
// openings run's generation 6 and tuned, at widths 20,000 and 100,000:
// the beam after `from` pieces (made once, on every core, outside the
// timing) is advanced `levels` levels with each worker count in turn, in
// one process, so that a pair shares the machine's state. Reports, for
// each count N, the children a second (Nw-children/s) and the CPU of the
// process per child (Nw-cpu-ns/child; all threads, GC included), and
// the wall time of a level spent sorting the workers' pools (from the
// first worker's end of expansion: idle cores included; Nw-sort-ms/level)
// and in the level's serial rest (Nw-serial-ms/level), and the speed-up
// of N workers over 1 (Nw-speedup: the wall time on 1
// worker over the wall time on N). Wall-time ratios mean something only
// on an otherwise idle machine; CPU per child is less sensitive to load.
// The kept wells do not depend on the count (TestDeterministicWorkers).
func BenchmarkBeamWorkers(b *testing.B) {
	type arm struct {
		name string
		ev   func() (eval.Evaluator, error)
	}
	arms := []arm{
		{"gen6", func() (eval.Evaluator, error) { return eval.LoadNNUE(gen6Path) }},
		{"tuned", func() (eval.Evaluator, error) { return eval.NewHand(eval.TunedWeights()), nil }},
	}
	for _, a := range arms {
		for _, c := range []struct{ width, from, levels int }{{20000, 10, 4}, {100000, 8, 2}} {
			b.Run(fmt.Sprintf("%s/w%d", a.name, c.width), func(b *testing.B) {
				ev, err := a.ev()
				if err != nil {
					b.Skip(err)
				}
				benchWorkers(b, Config{BeamWidth: c.width, Quiescence: true, Eval: ev}, c.from, c.levels)
			})
		}
	}
}

func benchWorkers(b *testing.B, cfg Config, from, levels int) {
	dir := b.TempDir()
	start := cfg
	start.MaxPieces, start.CheckpointDir = from, dir
	if _, err := Run(context.Background(), start); err != nil {
		b.Fatal(err)
	}
	counts, err := benchCounts()
	if err != nil {
		b.Fatal(err)
	}
	wall := make([]time.Duration, len(counts))
	cpu := make([]time.Duration, len(counts))
	children := make([]int64, len(counts))
	expand := make([]time.Duration, len(counts))
	sorting := make([]time.Duration, len(counts))
	for b.Loop() {
		for k, n := range counts {
			c := cfg
			c.Workers, c.MaxPieces = n, from+levels
			s, err := searcherAt(c, dir)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			t0, c0 := time.Now(), processCPU()
			if err := s.loop(context.Background()); err != nil {
				b.Fatal(err)
			}
			wall[k] += time.Since(t0)
			cpu[k] += processCPU() - c0
			children[k] += s.st.Children
			expand[k] += s.phases.expand
			sorting[k] += s.phases.compact
		}
	}
	for k, n := range counts {
		b.ReportMetric(float64(children[k])/wall[k].Seconds(), fmt.Sprintf("%dw-children/s", n))
		b.ReportMetric(float64(cpu[k].Nanoseconds())/float64(children[k]), fmt.Sprintf("%dw-cpu-ns/child", n))
		// A level's wall time sorting the pools (and waiting for the last
		// worker), and in its serial rest.
		nl := float64(b.N * levels)
		b.ReportMetric(1e3*sorting[k].Seconds()/nl, fmt.Sprintf("%dw-sort-ms/level", n))
		b.ReportMetric(1e3*(wall[k]-expand[k]-sorting[k]).Seconds()/nl, fmt.Sprintf("%dw-serial-ms/level", n))
		if k > 0 {
			// Per child: the runs' children are equal, but stay safe.
			r := (wall[0].Seconds() / float64(children[0])) / (wall[k].Seconds() / float64(children[k]))
			b.ReportMetric(r, fmt.Sprintf("%dw-speedup", n))
		}
	}
}

// workerCounts chooses BenchmarkBeamWorkers's worker counts.
var workerCounts = flag.String("beam-workers", "", "BenchmarkBeamWorkers's worker counts, comma-separated, the first the baseline (default: 1,2 and GOMAXPROCS where more)")

func benchCounts() ([]int, error) {
	if *workerCounts == "" {
		counts := []int{1, 2}
		if n := runtime.GOMAXPROCS(0); n > 2 {
			counts = append(counts, n)
		}
		return counts, nil
	}
	var counts []int
	for _, f := range strings.Split(*workerCounts, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > MaxWorkers {
			return nil, fmt.Errorf("-beam-workers: %q is not a worker count", f)
		}
		counts = append(counts, n)
	}
	return counts, nil
}

// searcherAt returns a searcher at the checkpoint in dir, ready for loop,
// its children counted from zero; it writes no checkpoint.
func searcherAt(cfg Config, dir string) (*searcher, error) {
	if err := setup(&cfg); err != nil {
		return nil, err
	}
	st, err := loadCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	st.Children = 0
	s := &searcher{cfg: cfg, r: cfg.Rules, rep: progress.Or(nil), st: st}
	if st.Key != s.key() {
		return nil, fmt.Errorf("checkpoint made with %s, not %s", st.Key, s.key())
	}
	s.tr.prefix = newPrefix(cfg.StartHistory)
	return s, nil
}
