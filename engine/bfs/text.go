package bfs

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// WriteText writes res as `hatelab bfs` and `hatelab-beam bfs` print it:
// the levels (level, states, children, best score) as a right-aligned
// table, then one line: the score and length (">= " when MaxLevels
// truncated the search, "unbounded" with the proven loop), the peak
// states and level, the wall and CPU seconds and the peak RSS.
func WriteText(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tstates\tchildren\tbest score\t")
	for _, l := range res.Levels {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", l.Level, l.States, l.Children, l.BestScore)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	score, length := strconv.Itoa(res.Score), strconv.Itoa(res.Length)
	switch {
	case res.Unbounded && res.LoopPieces > 0:
		score, length = fmt.Sprintf("unbounded (a %d-piece loop clearing %d lines, proven at level %d)", res.LoopPieces, res.LoopLines, res.LoopDepth), "unbounded"
	case res.Unbounded:
		score, length = fmt.Sprintf("unbounded (level %d repeats level %d: the levels cycle forever)", res.PeriodStart+res.Period, res.PeriodStart), "unbounded"
	case res.Truncated:
		score, length = ">= "+score, ">= "+length
	}
	_, err := fmt.Fprintf(w, "%dx%d %s: score %s, length %s, peak %d states (level %d); %.2f s (%.2f s CPU), peak RSS %.0f MiB\n",
		res.Width, res.Height, res.Rule, score, length, res.PeakStates, res.PeakLevel, res.Seconds, res.CPUSeconds, float64(res.PeakRSS)/(1<<20))
	return err
}
