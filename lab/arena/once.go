package arena

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/lab"
)

// CountedOnce shows a match read with every distinct start counted once
// (engine/arena.CountOnce), a sensitivity reading: a suite drawn with
// replacement can repeat a start, which every arm plays exactly as its
// first time; the match's statistics count each draw, as its design says,
// and this reading weights each distinct start once instead. Per arm
// against the baseline: the pairs played, the distinct ones, the mean
// difference over the distinct pairs and its exact Wilcoxon p (none for a
// sequential match: seq, the test it was played with) or the test's
// verdict on the leading run of distinct pairs with the pairs it read and
// its log-likelihood ratio. The suite is rebuilt from the match file's
// header (a games: suite's file read as its spec names it) and must have
// the file's ID.
func CountedOnce(res *Result, seq stats.Sequential) (*lab.Table, error) {
	s, err := arena.ParseSuite(res.Header.SuiteSpec, nil)
	if err != nil {
		return nil, err
	}
	if s.ID() != res.Header.Suite || len(s.Starts) != res.Header.Starts {
		return nil, fmt.Errorf("arena: suite %s rebuilds to ID %s with %d starts, the match file says %s with %d (other rules, or a games file that changed)",
			res.Header.SuiteSpec, s.ID(), len(s.Starts), res.Header.Suite, res.Header.Starts)
	}
	once, err := arena.CountOnce(res.Standings, s, seq)
	if err != nil {
		return nil, err
	}
	t := lab.NewTable("arm", "pairs", "distinct", "difference", "Wilcoxon p", "sequential test", "after", "LLR")
	for _, o := range once {
		verdict, after, llr := "", "", ""
		if o.Verdict != "" {
			verdict, after, llr = o.Verdict, fmt.Sprint(o.VerdictPairs), fmt.Sprintf("%+.2f", o.LLR)
		}
		p := pValue(o.P)
		if seq != nil { // a sequential match: no fixed-sample p applies to its games
			p = "–"
		}
		t.Add(o.Arm, o.Pairs, o.Distinct, fmt.Sprintf("%+.2f", o.Mean), p, verdict, after, llr)
	}
	t.Title = fmt.Sprintf("%s (suite %s), each distinct start counted once", res.Header.SuiteSpec, res.Header.Suite)
	for i := 1; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	return t, nil
}
