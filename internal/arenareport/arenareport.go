// Package arenareport prints a match's result as `hatelab arena` and
// `hatelab-beam arena` both do: the table with its verdicts, or one JSON
// object.
package arenareport

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/hatelab/hatelab/engine/arena"
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
	Comparisons []arena.Comparison `json:"comparisons"`
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
		Stopped: res.Stopped, Comparisons: st.Comparisons()}
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

// Table prints the result of match m: a line of settings, a table of the
// arms against the baseline, then the verdicts.
func Table(w io.Writer, m *arena.Match, res *arena.Result) error {
	st := res.Standings
	fmt.Fprintf(w, "suite %s (ID %s, %d starts), beam width %d, quiescence %v\n", res.Header.SuiteSpec, res.Header.Suite,
		res.Header.Starts, m.BeamWidth, m.Quiescence)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "arm\tgames\tmean\tdiff\t95% interval\twins\tlosses\tties\tWilcoxon p\tHolm p\t")
	mean0, n0 := st.Mean(0)
	fmt.Fprintf(tw, "%s\t%d\t%.2f\tbaseline\t\t\t\t\t\t\t\n", m.Arms[0].Spec, n0, mean0)
	for i, c := range st.Comparisons() {
		mean, n := st.Mean(i + 1)
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%+.2f\t[%+.2f, %+.2f]\t%d\t%d\t%d\t%s\t%s\t\n", c.Arm, n, mean, c.Diff.Estimate,
			c.Diff.Lo, c.Diff.Hi, c.Wins, c.Losses, c.Ties, arena.FormatP(c.P), arena.FormatP(c.PHolm))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var lines []string
	for _, c := range st.Comparisons() {
		lines = append(lines, c.Verdict())
	}
	if res.Stopped {
		lines = append(lines, "the sequential test stopped the match before every game was played")
	}
	if len(m.Arms) > 2 {
		lines = append(lines, "p-values are Holm-adjusted over the arms' comparisons with the baseline")
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}
