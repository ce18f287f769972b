package main

import (
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

// TestExtrapolatePeak: the two fits bracket the peak of 10x7 (141 M states
// at level 11, datasets/bfs) from its levels 0..9 and 0..10.
func TestExtrapolatePeak(t *testing.T) {
	levels := []float64{1, 17, 204, 2254, 19764, 140459, 812368, 3774512, 14094352, 41917357, 93860701}
	for _, tc := range []struct {
		upTo int
	}{{10}, {11}} {
		S := levels[:tc.upTo]
		lo, at := extrapolatePeak(S, false)
		hi, _ := extrapolatePeak(S, true)
		if !(lo <= 141212710*1.05 && hi >= 141212710*0.95 && lo <= hi) || at < 10 || at > 12 {
			t.Errorf("levels 0..%d: %.3g..%.3g at level %d, want a bracket of 1.41e8 near level 11", tc.upTo-1, lo, hi, at)
		}
	}
	// Too few levels, or levels already shrinking: the largest seen.
	if p, at := extrapolatePeak([]float64{1, 5, 20}, false); p != 20 || at != 2 {
		t.Errorf("3 levels: %g at %d", p, at)
	}
	if p, _ := extrapolatePeak([]float64{1, 10, 100, 1000, 20000, 500000}, true); !math.IsInf(p, 1) {
		t.Errorf("accelerating growth: %g, want no prediction", p)
	}
}

// TestBFSEstimate: --estimate of a small well ends the search and is
// exact; the line names the peak.
func TestBFSEstimate(t *testing.T) {
	code, out, errOut := runCLI(t, "bfs", "--well-width", "8", "--height", "5", "--estimate")
	if code != 0 || !strings.Contains(out, "exact") || !strings.Contains(out, "peak about 1.24e+04 states") ||
		!strings.Contains(out, " GiB of memory; available ") || !strings.Contains(out, " GiB of disk") { // sizes divided by 2^30
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	e := &bfsEstimate{Peak: 1e12, MemBytes: 42e12, DiskBytes: 28e12}
	if err := estimateFits(bfs.Options{Width: 10, Height: 8}, e, 1<<34, 0); err == nil || !strings.Contains(err.Error(), "--spill-dir") {
		t.Errorf("no refusal: %v", err)
	}
	if err := estimateFits(bfs.Options{Width: 10, Height: 8, SpillDir: "x"}, e, 1<<34, 1<<30); err == nil || !strings.Contains(err.Error(), "more than --disk-budget 1.0 GiB") {
		t.Errorf("no disk refusal: %v", err)
	}
}

// TestEstimateSpread: a bracket wider than maxEstimateSpread is refused
// with one line, not printed as a prediction.
func TestEstimateSpread(t *testing.T) {
	e := &bfsEstimate{Levels: 6, LastStates: 17010, Low: 2.77e23, High: 1.16e39, Peak: 1.79e31}
	if err := estimateUsable(e); err == nil || !strings.Contains(err.Error(), "do not pin the peak down") {
		t.Fatalf("spread 1e16: %v", err)
	}
	e = &bfsEstimate{Levels: 10, LastStates: 41917357, Low: 1.15e8, High: 3.62e8, Peak: 2.04e8}
	if err := estimateUsable(e); err != nil {
		t.Fatalf("10x7's bracket: %v", err)
	}
}
