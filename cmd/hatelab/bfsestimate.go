package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/hatelab/hatelab/engine/bfs"
)

// `hatelab bfs --estimate`: the first levels of the search are run
// (compressed, for at most a few seconds) and the growth of the level
// sizes is extrapolated to the peak. The growth ratio r(d) = states(d+1) /
// states(d) falls level after level; two fits of its last three values
// bracket the peak: r falling linearly (which tends to underestimate it:
// 10x7 from levels 0..9 gives 115 M for 141 M) and log r falling linearly
// (which overestimates it: 362 M). The estimate is their geometric mean.
// Memory and disk follow from the peak with the costs measured on 10x7
// (see estimateCosts).

// Bytes a state of the peak level costs. Memory mode (plain or
// compressed): the level being expanded, the next one and the children
// buffers around the peak, 5.85 GB for 10x7's 141 M states (41.4 B) in
// datasets/bfs, rounded up. Disk mode: both levels and the spilled
// children on disk (8 B each: about 3.5 words a peak state), in memory
// --mem-budget.
const (
	memBytesPerPeakState  = 42
	diskBytesPerPeakState = 28
)

// maxEstimateSpread is the widest bracket (high / low fit) --estimate
// reports as a prediction: tall thin wells run only a few small levels in
// the time allowed, and their fits can differ by 10^15 (5x16 from levels
// 0..5).
const maxEstimateSpread = 1000

// maxEstimateRSS stops --estimate's levels once the process holds this
// much: a well of millions of partitions (11x8) costs memory per partition
// touched, and the estimate should not cost what it predicts.
const maxEstimateRSS = 768 << 20

// bfsEstimate is the prediction of --estimate.
type bfsEstimate struct {
	Levels          int   // levels run (0..Levels-1)
	LastStates      int64 // states of the last level run
	Exact           bool  // the search ended within the levels run
	Peak, Low, High float64
	PeakLevel       int
	MemBytes        float64 // memory mode
	DiskBytes       float64 // disk mode (on disk)
	Seconds         float64
}

// estimateSearch runs the first levels of opt's search and extrapolates.
func estimateSearch(ctx context.Context, opt bfs.Options) (*bfsEstimate, error) {
	start := time.Now()
	opt.Compress, opt.Checkpoint, opt.LevelDir, opt.KeepEvery, opt.Progress = opt.SpillDir == "", "", "", 0, nil
	var res *bfs.Result
	for L := 4; ; L++ {
		opt.MaxLevels = L
		t0 := time.Now()
		r, err := bfs.Search(ctx, opt)
		if err != nil {
			return nil, err
		}
		res = r
		last := r.Levels[len(r.Levels)-1].States
		if !r.Truncated || time.Since(t0) > 8*time.Second || last > 20_000_000 || L >= 64 || time.Since(start) > 40*time.Second ||
			r.PeakRSS > maxEstimateRSS {
			break
		}
	}
	e := &bfsEstimate{Levels: len(res.Levels), LastStates: res.Levels[len(res.Levels)-1].States, Seconds: time.Since(start).Seconds()}
	if !res.Truncated {
		e.Exact, e.Peak, e.Low, e.High, e.PeakLevel = true, float64(res.PeakStates), float64(res.PeakStates), float64(res.PeakStates), res.PeakLevel
	} else {
		var S []float64
		for _, l := range res.Levels {
			S = append(S, float64(l.States))
		}
		e.Low, e.PeakLevel = extrapolatePeak(S, false)
		e.High, _ = extrapolatePeak(S, true)
		e.Peak = math.Sqrt(e.Low * e.High)
	}
	e.MemBytes = memBytesPerPeakState * e.Peak
	e.DiskBytes = diskBytesPerPeakState * e.Peak
	return e, nil
}

// extrapolatePeak fits the last three growth ratios of the level sizes S
// (r linear in the level, or log r when logRatio) and follows the fit
// until the levels stop growing; it returns the largest level so
// predicted and its number. Levels still too small (fewer than 4 ratios)
// give the largest level seen.
func extrapolatePeak(S []float64, logRatio bool) (float64, int) {
	d := len(S) - 1
	peak, at := 0.0, 0
	for i, s := range S {
		if s > peak {
			peak, at = s, i
		}
	}
	if d < 4 || S[d] < S[d-1] {
		return peak, at
	}
	f := func(r float64) float64 {
		if logRatio {
			return math.Log(r)
		}
		return r - 1
	}
	// Least squares over (d-3, f(r(d-3))), .., (d-1, f(r(d-1))).
	var xs, ys []float64
	for i := d - 3; i < d; i++ {
		xs, ys = append(xs, float64(i)), append(ys, f(S[i+1]/S[i]))
	}
	mx, my := (xs[0]+xs[1]+xs[2])/3, (ys[0]+ys[1]+ys[2])/3
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	slope := num / den
	if slope >= 0 {
		return math.Inf(1), -1 // still accelerating: no prediction
	}
	s := S[d]
	for i := d; i < d+200; i++ {
		y := my + slope*(float64(i)-mx)
		if y <= 0 {
			return s, i
		}
		if logRatio {
			s *= math.Exp(y)
		} else {
			s *= 1 + y
		}
	}
	return s, d + 200
}

// printEstimate prints e; avail is the memory available (0: unknown).
func printEstimate(w io.Writer, opt bfs.Options, e *bfsEstimate, avail float64) error {
	gb := func(b float64) string { return fmt.Sprintf("%.3g GiB", b/(1<<30)) }
	how := fmt.Sprintf("extrapolated from levels 0..%d (%d states at level %d; %.1f s)", e.Levels-1, e.LastStates, e.Levels-1, e.Seconds)
	if e.Exact {
		how = fmt.Sprintf("exact: the search ended at level %d (%.1f s)", e.Levels-1, e.Seconds)
	}
	_, err := fmt.Fprintf(w, "%dx%d %s estimate, %s:\n  peak about %.3g states (%.3g..%.3g) near level %d\n  memory mode (--compress or not): about %s of memory; available %s\n  disk mode (--spill-dir): about %s of disk, memory --mem-budget plus a partition per worker\n",
		opt.Width, opt.Height, opt.Rule, how, e.Peak, e.Low, e.High, e.PeakLevel, gb(e.MemBytes), gb(avail), gb(e.DiskBytes))
	return err
}

// estimateUsable is nil when e is a prediction worth printing: not one of
// levels that still accelerate, nor a bracket wider than
// maxEstimateSpread.
func estimateUsable(e *bfsEstimate) error {
	if math.IsInf(e.Peak, 1) {
		return fmt.Errorf("bfs: --estimate: the levels still grow faster and faster after %d levels: no prediction (try a smaller well)", e.Levels)
	}
	if !e.Exact && e.High > maxEstimateSpread*e.Low {
		return fmt.Errorf("bfs: --estimate: levels 0..%d (%d states at the last) do not pin the peak down: the two fits give %.3g and %.3g states; no prediction (run further with --max-levels, or see the tables of the smaller heights)", e.Levels-1, e.LastStates, e.Low, e.High)
	}
	return nil
}

// estimateFits is the refusal of --estimate: nil when the search is
// expected to fit (memory mode in the available memory, disk mode in the
// --disk-budget if one is given).
func estimateFits(opt bfs.Options, e *bfsEstimate, avail float64, diskBudget int64) error {
	gb := func(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }
	if err := estimateUsable(e); err != nil {
		return err
	}
	if opt.SpillDir != "" {
		if diskBudget > 0 && e.DiskBytes > float64(diskBudget) {
			return fmt.Errorf("bfs: a %dx%d search needs about %s of disk, more than --disk-budget %s", opt.Width, opt.Height, gb(e.DiskBytes), gb(float64(diskBudget)))
		}
		return nil
	}
	if avail > 0 && e.MemBytes > avail {
		return fmt.Errorf("bfs: a %dx%d search needs about %s of memory, %s available: use disk mode (--spill-dir DIR), or a smaller well", opt.Width, opt.Height, gb(e.MemBytes), gb(avail))
	}
	return nil
}
