package arena

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/lab"
)

// CountedOnce shows a match read with every distinct start counted once
// (engine/arena.CountOnce): records: and games: suites can repeat a start,
// which every arm plays exactly as its first time and the match's
// statistics count again. Per arm against the baseline: the pairs played,
// the distinct ones, the mean difference and exact Wilcoxon p over the
// distinct pairs and, with seq (the sequential test the match was played
// with), the test's verdict on the leading run of distinct pairs with the
// pairs it read and its log-likelihood ratio. The suite is rebuilt from
// the match file's header (a games: suite's file read as its spec names it).
func CountedOnce(res *Result, seq stats.Sequential) (*lab.Table, error) {
	s, err := arena.ParseSuite(res.Header.SuiteSpec, nil)
	if err != nil {
		return nil, err
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
		t.Add(o.Arm, o.Pairs, o.Distinct, fmt.Sprintf("%+.2f", o.Mean), pValue(o.P), verdict, after, llr)
	}
	t.Title = fmt.Sprintf("%s (suite %s), each distinct start counted once", res.Header.SuiteSpec, res.Header.Suite)
	for i := 1; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	return t, nil
}
