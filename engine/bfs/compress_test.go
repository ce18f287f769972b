package bfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCompressTables: with compressed levels, every committed table whose
// peak level is small (peak up to 200 k states, 46 tables up to 10x5's,
// 7x7's and 5x10's 600-770 k states expanded) reproduces its level file
// (datasets/bfs/levels/*.csv) byte for byte, and the stored peak level
// takes fewer bytes than 8 a state. Every other table sorts its levels
// with the 20-bit buckets of levels past a million keys (wideBucketsPast
// lowered to 1024 keys), so both sorts reproduce the tables; the tables
// with peaks of 0.6 to 2 M states (tags bfslarge, compress_large_test.go)
// repeat the same code on more keys.
func TestCompressTables(t *testing.T) {
	compressTables(t, 0, 200_000)
}

// compressTables runs the comparison on the committed tables whose peak
// level lies in (from, to] states.
func compressTables(t *testing.T, from, to int64) {
	rows, err := ReadSummaryFile(filepath.Join(datasetDir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int64) { wideBucketsPast = v }(wideBucketsPast)
	ran, wide := 0, 0
	for _, r := range rows {
		if r.PeakStates <= from || r.PeakStates > to || r.Unbounded {
			continue
		}
		want, err := os.ReadFile(filepath.Join(datasetDir, "levels", levelFileName(r)))
		if err != nil {
			t.Fatal(err)
		}
		wideBucketsPast = 1 << 20
		if ran%2 == 1 {
			wideBucketsPast = 1 << 10
			if r.PeakStates > 1<<10 {
				wide++
			}
		}
		res, err := Search(context.Background(), Options{Width: r.Width, Height: r.Height, Rule: r.Rule, Compress: true})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteLevels(&got, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%dx%d %v (wide buckets past %d keys): compressed levels give another level file", r.Width, r.Height, r.Rule, wideBucketsPast)
		}
		if res.PeakStates > 1000 && res.PeakStoredBytes >= 8*res.PeakStates {
			t.Errorf("%dx%d: the compressed peak level takes %d bytes for %d states", r.Width, r.Height, res.PeakStoredBytes, res.PeakStates)
		}
		ran++
	}
	if ran == 0 || to > 1<<10 && wide == 0 {
		t.Fatalf("%d tables reproduced, %d of them with wide buckets", ran, wide)
	}
	t.Logf("%d tables reproduced, %d of them with wide buckets", ran, wide)
}

// TestCompressWorkers: compressed levels give the same result for any
// number of workers, and a loop (width 4) is found as without them.
func TestCompressWorkers(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		rule Rule
	}{{4, 6, RuleQntm}, {8, 5, RuleClearAboveBar}, {9, 5, RuleQntm}} {
		want, err := Search(context.Background(), Options{Width: tc.w, Height: tc.h, Rule: tc.rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3, 7} {
			got, err := Search(context.Background(), Options{Width: tc.w, Height: tc.h, Rule: tc.rule, Workers: workers, Compress: true})
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, "compressed", got, want)
			if got.Period != want.Period || got.PeriodStart != want.PeriodStart || got.LoopPieces != want.LoopPieces {
				t.Fatalf("%dx%d: loop %d/%d/%d, want %d/%d/%d", tc.w, tc.h, got.Period, got.PeriodStart, got.LoopPieces, want.Period, want.PeriodStart, want.LoopPieces)
			}
		}
	}
}

// TestCompressDisk: compressed disk mode (sorted runs spilled past a tiny
// budget, merged into the next level) gives the committed level files
// byte for byte, for several worker counts, and resumes from its
// checkpoints. 10x5 with a 64 KiB budget spills some 250 runs a worker at
// its peak level, so compactRuns merges runs of tier 1 into tier 2. 7x7
// sorts its runs (some 200 k keys a worker at its peak) with the 20-bit
// buckets of runs past a million keys (wideBucketsPast lowered to 1024),
// as 8x7's do (2 M keys a run with 2 workers) at 10 M states expanded.
func TestCompressDisk(t *testing.T) {
	defer func(v int64) { wideBucketsPast = v }(wideBucketsPast)
	for _, tc := range []struct {
		w, h, workers int
		rule          Rule
		budget        int64
		wideBuckets   bool
	}{{4, 7, 2, RuleQntm, 1 << 16, false}, {8, 5, 3, RuleClearAboveBar, 1 << 16, false}, {9, 5, 1, RuleQntm, 1 << 17, false},
		{10, 5, 2, RuleQntm, 1 << 16, false}, {7, 7, 5, RuleQntm, 0, true}} {
		name := fmt.Sprintf("w%d-h%d-%s.csv", tc.w, tc.h, tc.rule)
		wideBucketsPast = 1 << 20
		if tc.wideBuckets {
			wideBucketsPast = 1 << 10
		}
		want, err := os.ReadFile(filepath.Join(datasetDir, "levels", name))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		opt := Options{Width: tc.w, Height: tc.h, Rule: tc.rule, Workers: tc.workers, Compress: true,
			SpillDir: filepath.Join(dir, "spill"), MemoryBudget: tc.budget, Checkpoint: filepath.Join(dir, "ck")}
		// Stopped after 3, then 6 levels, then run to the end.
		for _, stop := range []int{3, 6, 0} {
			o := opt
			o.MaxLevels = stop
			res, err := Search(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if stop > 0 {
				if !res.Truncated {
					t.Fatalf("%s: not stopped at level %d", name, stop)
				}
				continue
			}
			var got bytes.Buffer
			if err := WriteLevels(&got, res); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%s: compressed disk mode gives another level file:\n%s", name, got.String())
			}
		}
	}
}

// TestCompressDamagedFrontier: a compressed frontier file with a byte
// changed, or cut short, is refused on resume (ErrInput), in memory and in
// disk mode; a checkpoint of one mode is refused by the other.
func TestCompressDamagedFrontier(t *testing.T) {
	for _, disk := range []bool{false, true} {
		for _, damage := range []string{"flip", "truncate", "other mode"} {
			dir := t.TempDir()
			opt := Options{Width: 8, Height: 5, Compress: true, Checkpoint: filepath.Join(dir, "ck"), MaxLevels: 6}
			if disk {
				opt.SpillDir = filepath.Join(dir, "spill")
			}
			if _, err := Search(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(opt.Checkpoint, "frontier-00006.run")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			switch damage {
			case "flip":
				b[len(b)/2] ^= 4
			case "truncate":
				b = b[:len(b)-9]
			case "other mode":
				opt.Compress = false
				opt.SpillDir = ""
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			opt.MaxLevels = 0
			_, err = Search(context.Background(), opt)
			if !errors.Is(err, ErrInput) {
				t.Errorf("disk %v, %s: resumed: %v", disk, damage, err)
			}
		}
	}
}
