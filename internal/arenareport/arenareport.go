// Package arenareport prints a match's result as `hatelab arena` and
// `hatelab-beam arena` both do: the table with its verdicts, or one JSON
// object.
package arenareport

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/stats"
)

// JSON is the --json output of an arena command.
type JSON struct {
	Suite       string             `json:"suite"`
	SuiteSpec   string             `json:"suite_spec"`
	Starts      int                `json:"starts"`
	BeamWidth   int                `json:"beam_width"`
	Quiescence  bool               `json:"quiescence"`
	MaxPieces   int                `json:"max_pieces,omitempty"`
	Games       int                `json:"games"`
	Stopped     bool               `json:"stopped_by_sprt,omitempty"`
	Arms        []ArmJSON          `json:"arms"`
	Comparisons []stats.Comparison `json:"comparisons"`
}

// ArmJSON is one arm's line of JSON.
type ArmJSON struct {
	Arm   string  `json:"arm"`
	Eval  string  `json:"eval"`
	Games int     `json:"games"`
	Mean  float64 `json:"mean_score"`
}

// Summary returns the result of match m as JSON (intervals of no pair
// written 0, as JSON has no NaN).
func Summary(m *arena.Match, res *arena.Result) JSON {
	st := res.Standings
	out := JSON{Suite: res.Header.Suite, SuiteSpec: res.Header.SuiteSpec, Starts: res.Header.Starts,
		BeamWidth: m.BeamWidth, Quiescence: m.Quiescence, MaxPieces: m.MaxPieces, Games: st.Played(),
		Stopped: res.Stopped, Comparisons: res.Comparisons()}
	for i, a := range m.Arms {
		mean, n := st.Mean(i)
		out.Arms = append(out.Arms, ArmJSON{Arm: a.Spec, Eval: a.Eval.Name(), Games: n, Mean: mean})
	}
	for i := range out.Comparisons {
		c := &out.Comparisons[i]
		for _, v := range []*float64{&c.Diff.Lo, &c.Diff.Hi, &c.Diff.Estimate} {
			if math.IsNaN(*v) {
				*v = 0
			}
		}
	}
	return out
}

// Table prints the result of a match: a line of settings (its file's
// header), a table of the arms against the baseline, then the verdicts
// (stats.Comparison.Verdict). With several arms a column of intervals at the
// family's level stands beside each comparison's own (stats.Adjust), as
// Holm's p beside the p; after a sequential stop
// the table shows no fixed-sample p or interval. m is not read (nil is
// fine: `hatelab arena show` has only the file).
func Table(w io.Writer, m *arena.Match, res *arena.Result) error {
	st, h := res.Standings, res.Header
	fmt.Fprintf(w, "suite %s (ID %s, %d starts), beam width %d, quiescence %v\n", h.SuiteSpec, h.Suite, h.Starts, h.BeamWidth, h.Quiescence)
	cs := res.Comparisons()
	level := 0.95
	if len(cs) > 0 && cs[0].Diff.Level > 0 {
		level = cs[0].Diff.Level
	}
	pct := strconv.FormatFloat(100*level, 'g', 4, 64) + "%"
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	family := len(cs) > 1 && cs[0].FamilyDiff != nil && !res.Stopped
	fam, famPct := "", ""
	if family {
		famPct = strconv.FormatFloat(100*cs[0].FamilyDiff.Level, 'g', 4, 64) + "%"
		fam = "family interval\t"
	}
	fmt.Fprintf(tw, "arm\tgames\tmean\tdiff\t%s interval\t%swins\tlosses\tties\tWilcoxon p\tHolm p\t\n", pct, fam)
	mean0, n0 := st.Mean(0)
	fmt.Fprintf(tw, "%s\t%d\t%.2f\tbaseline\t\t%s\t\t\t\t\t\t\n", st.Arms[0], n0, mean0, map[bool]string{true: "\t"}[family])
	for i, c := range cs {
		mean, n := st.Mean(i + 1)
		iv, p, ph := fmt.Sprintf("[%+.2f, %+.2f]", c.Diff.Lo, c.Diff.Hi), stats.FormatP(c.P), stats.FormatP(c.PHolm)
		if c.Stopped {
			iv, p, ph = "sequential", "-", "-"
		}
		if family {
			iv += fmt.Sprintf("\t[%+.2f, %+.2f]", c.FamilyDiff.Lo, c.FamilyDiff.Hi)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%+.2f\t%s\t%d\t%d\t%d\t%s\t%s\t\n", c.Arm, n, mean, c.Diff.Estimate,
			iv, c.Wins, c.Losses, c.Ties, p, ph)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var lines []string
	for _, c := range cs {
		lines = append(lines, c.Verdict())
	}
	if res.Stopped {
		lines = append(lines, "the sequential test stopped the match before every game was played: its verdicts stand, fixed-sample p-values and intervals do not apply")
	}
	if len(cs) > 1 && !res.Stopped {
		lines = append(lines, fmt.Sprintf("p-values are Holm-adjusted over the %d comparisons with the baseline, and each family interval is at %s so that together they cover at %s (Bonferroni); the verdicts read both", len(cs), famPct, pct))
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}
