package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	bfsdata "github.com/hatelab/hatelab/datasets/bfs"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// The memory check of `hatelab bfs`: before a search in memory mode, its
// peak resident memory is estimated from the committed summary table
// (datasets/bfs/summary.csv: the measured peak RSS of every size
// searched so far in memory mode) and, for a size not in it,
// extrapolated from the tallest known well of the same width, each further
// row multiplying the memory by the growth of the peak states over that
// well's last row (at least 2). A
// search whose estimate exceeds the memory the process may take (the least
// of MemAvailable and its limits: cgroup, RLIMIT_AS) is refused with one line suggesting disk
// mode (--spill-dir); in disk mode the --mem-budget must fit instead.
// --max-levels (a truncated search) and --history skip the check.

// estimateRSS returns the estimated peak RSS in bytes of a memory-mode
// search of a width x height well under rule, and whether the size is in
// the table (exact measurement) rather than extrapolated; 0 when nothing
// is known about the width.
func estimateRSS(width, height int, rule bfs.Rule) (bytes float64, measured bool) {
	rows, err := bfsdata.Summary()
	if err != nil {
		return 0, false
	}
	peak := map[int]bfs.Row{}
	for _, r := range rows {
		if r.Width != width || (r.Rule != rule && r.Rule != bfs.RuleQntm) || !memoryModeRow(r) {
			continue
		}
		if old, ok := peak[r.Height]; ok && old.Rule == rule {
			continue // this rule's own row wins
		}
		peak[r.Height] = r
	}
	if r, ok := peak[height]; ok {
		return float64(r.PeakRSS), true
	}
	top := -1
	for h := range peak {
		if h > top {
			top = h
		}
	}
	if top < 0 || top > height {
		return 0, false
	}
	growth := 2.0
	if prev, ok := peak[top-1]; ok && prev.PeakStates > 0 {
		growth = max(growth, float64(peak[top].PeakStates)/float64(prev.PeakStates))
	}
	b := float64(peak[top].PeakRSS)
	for h := top; h < height; h++ {
		b *= growth
	}
	return b, false
}

// memoryModeRow reports whether r's peak RSS can be a memory-mode
// measurement: memory mode holds the peak level as 8-byte words and its
// children besides (every memory-mode row of datasets/bfs used at least
// 27 bytes a peak state), so a row under 16 bytes a peak state was searched
// in (compressed) disk mode, like 10x8 (2.3) and 5x16 (6.8), and says
// nothing about memory mode.
func memoryModeRow(r bfs.Row) bool {
	return r.PeakRSS >= 16*r.PeakStates
}

// availableMemory is the memory this process may still take: the least
// of MemAvailable and what its limits leave (its cgroups' memory.max or
// memory.limit_in_bytes, RLIMIT_AS; see internal/memlimit), in bytes
// (0: unknown), and the bound that gave it.
func availableMemory() (float64, string) {
	l, ok := memlimit.Headroom()
	if !ok {
		return 0, ""
	}
	// 0 is "unknown" to the checks: a limit already reached is 1 byte.
	return float64(max(l.Bytes, 1)), l.Name
}

// memoryCheck refuses a search that cannot fit in memory (see above).
// avail is the available memory in bytes (0: unknown, no check).
func memoryCheck(opt bfs.Options, avail float64) error {
	return memoryCheckFrom(opt, avail, "MemAvailable")
}

// memoryCheckFrom is memoryCheck with the bound that gave avail (its
// message names it).
func memoryCheckFrom(opt bfs.Options, avail float64, source string) error {
	if avail <= 0 || opt.MaxLevels > 0 || resumesFinished(opt.Checkpoint) {
		return nil
	}
	gb := func(b float64) string { return strconv.FormatFloat(b/(1<<30), 'f', 1, 64) + " GiB" }
	if opt.SpillDir != "" {
		if budget := float64(opt.MemoryBudget); budget > avail {
			return fmt.Errorf("bfs: --mem-budget %d MiB is more than the %s of memory available (%s)", opt.MemoryBudget>>20, gb(avail), source)
		}
		return nil
	}
	est, measured := estimateRSS(opt.Width, opt.Height, opt.Rule)
	if est <= avail {
		return nil
	}
	how := "extrapolated from the smaller wells of datasets/bfs"
	if measured {
		how = "measured, datasets/bfs"
	}
	return fmt.Errorf("bfs: a %dx%d search needs about %s of memory (%s), %s available (%s): use disk mode (--spill-dir DIR, with enough disk), or a smaller well",
		opt.Width, opt.Height, gb(est), how, gb(avail), source)
}

// resumesFinished reports whether dir holds the checkpoint of a finished
// search (printing its result needs no memory).
func resumesFinished(dir string) bool {
	if dir == "" {
		return false
	}
	b, err := boundedfile.ReadFile(filepath.Join(dir, "checkpoint.json"), 1<<20, "checkpoint")
	if err != nil {
		return false
	}
	var ck struct{ Done bool }
	return json.Unmarshal(b, &ck) == nil && ck.Done
}
