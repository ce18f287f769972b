package lab

import (
	"time"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab/progressview"
)

// Progress returns a progress.Reporter that draws a job's progress: an HTML
// bar updated in place in a notebook, a bar on a terminal, a plain line every
// 10 seconds in logs (see package progressview).
// In a notebook, a cell's bars share one output: a new bar replaces the
// finished ones, and the elapsed time of a live bar ticks once a second.
func Progress(job string) progress.Reporter {
	maybeQuickBanner()
	return progressview.Auto(job)
}

// Sweep returns the progress of a sweep of n searches (or games ...,
// named by unit): one outer bar counting the searches done and one inner
// bar for the current search, which disappears when it finishes. Pass
// sw.Next(name) as each search's progress reporter, sw.Skip(name) for one
// that needs no work, and call sw.Finish() at the end (defer it).
func Sweep(job string, n int, unit string) *progressview.Sweep {
	maybeQuickBanner()
	return progressview.NewSweep(job, n, unit)
}

// Count formats a count briefly: 999, 1.2k, 3.4M, 5.6G.
func Count(n float64) string { return humanize.Count(n) }

// Clock formats a duration as 0:07, 3:25 or 1:02:03.
func Clock(d time.Duration) string { return humanize.Clock(d) }
