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
func Progress(job string) progress.Reporter { return progressview.Auto(job) }

// Count formats a count briefly: 999, 1.2k, 3.4M, 5.6G.
func Count(n float64) string { return humanize.Count(n) }

// Clock formats a duration as 0:07, 3:25 or 1:02:03.
func Clock(d time.Duration) string { return humanize.Clock(d) }
