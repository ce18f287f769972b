package arena_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/stats"
)

// countedOnce are the committed matches whose suites repeat a start (the
// same well, score and memory: arena.Duplicates), each arm against the
// baseline (tuned where the match has it, else the sequential test's
// baseline), with every distinct start counted once: pairs, distinct
// pairs, the mean difference and the exact two-sided Wilcoxon p over the
// distinct pairs, and for a sequential match the declared test's verdict
// on the leading run of distinct pairs, with the pairs it used.
// datasets/arena/README.md, *Repeated starts*, reports them (a
// sensitivity reading: the matches' own statistics count every draw).
var countedOnce = []struct {
	file         string
	arm          int
	pairs, once  int
	mean, p      string
	verdict      string
	verdictPairs int
}{
	{"deep-confirm-w1000.jsonl", 1, 100, 98, "-3.53", "2e-05", "", 0},
	{"deep-confirm-w1000.jsonl", 2, 100, 98, "-4.33", "9e-06", "", 0},
	{"distill-static-big-screen-w1000.jsonl", 1, 30, 29, "-1.24", "0.1", "", 0},
	{"distill-static-ff-screen-w1000.jsonl", 1, 30, 28, "-0.64", "0.22", "", 0},
	{"distill-static-ff-screen-w1000.jsonl", 2, 30, 28, "-0.36", "0.27", "", 0},
	{"distill-sw-screen-w1000.jsonl", 1, 30, 29, "-1.48", "0.25", "", 0},
	{"hybrid-screen-w1000.jsonl", 1, 40, 39, "-4.10", "0.0014", "", 0},
	{"hybrid-screen-w1000.jsonl", 2, 40, 39, "+1.18", "0.12", "", 0},
	{"hybrid-screen-w1000.jsonl", 3, 40, 39, "+1.41", "0.086", "", 0},
	{"hybrid-screen-w1000.jsonl", 4, 40, 39, "+1.18", "0.099", "", 0},
	{"hybrid-screen-w1000.jsonl", 5, 40, 39, "+0.74", "0.17", "", 0},
	{"hybrid-screen-w1000.jsonl", 6, 40, 39, "+1.69", "0.06", "", 0},
	{"hybrid2-confirm-w1000.jsonl", 1, 100, 97, "+0.59", "0.37", "", 0},
	{"hybrid3-deep-w1000.jsonl", 1, 100, 98, "-5.79", "6.3e-09", "", 0},
	{"hybrid3-deep-w1000.jsonl", 2, 100, 98, "+0.13", "0.34", "", 0},
	{"teacher-512-records-sprt-w1000.jsonl", 1, 172, 166, "-0.25", "0.65", "continue", 166},
	{"teacher-big-records-sprt-w1000.jsonl", 1, 170, 167, "-0.25", "0.37", "continue", 167},
	{"teacher-gen3-records-sprt-w1000-tuned.jsonl", 1, 325, 308, "+1.50", "0.00044", "H1", 307},
	{"teacher-gen3-records-sprt-w1000.jsonl", 1, 415, 385, "+0.70", "0.078", "continue", 385},
	{"teacher-gen3-records-sprt-w10000-tuned.jsonl", 1, 98, 96, "+3.44", "0.00023", "H1", 92},
	{"teacher-gen4-records-sprt-w1000.jsonl", 1, 54, 53, "-1.21", "0.062", "continue", 53},
	{"teacher-records-sprt-w1000.jsonl", 1, 221, 213, "+1.49", "0.0026", "continue", 213},
	{"teacher-records-w1000.jsonl", 1, 100, 96, "+0.71", "0.18", "", 0},
	{"teacher20-screen-w1000.jsonl", 1, 30, 29, "-0.48", "0.73", "", 0},
	{"tuned-deep-records-w1000.jsonl", 1, 100, 99, "-1.09", "0.06", "", 0},
}

// TestDuplicateStarts checks, for every committed match, that a start
// repeating an earlier one was played exactly as the earlier start by
// every arm (arena.CountOnce refuses otherwise), and that counting each
// distinct start once gives countedOnce.
func TestDuplicateStarts(t *testing.T) {
	files, err := filepath.Glob("*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		res, err := arena.ReadMatchAny(f)
		if err != nil {
			t.Fatal(err)
		}
		base := res.Standings.Arms[0]
		var seq stats.Sequential
		if s, ok := sequential[f]; ok {
			base, seq = s.baseline, s.test
		}
		if slices.Contains(res.Standings.Arms, "tuned") {
			base = "tuned"
		}
		if res, err = arena.ReadMatch(f, base); err != nil {
			t.Fatal(err)
		}
		s, err := arena.ParseSuite(res.Header.SuiteSpec, nil)
		if err != nil {
			t.Fatal(err)
		}
		once, err := arena.CountOnce(res.Standings, s, seq)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for a, o := range once {
			if o.Distinct < o.Pairs {
				got = append(got, fmt.Sprintf("%s %d %d %d %+.2f %.2g %s %d", f, a+1, o.Pairs, o.Distinct, o.Mean, o.P, o.Verdict, o.VerdictPairs))
			}
		}
	}
	var want []string
	for _, c := range countedOnce {
		want = append(want, fmt.Sprintf("%s %d %d %d %s %s %s %d", c.file, c.arm, c.pairs, c.once, c.mean, c.p, c.verdict, c.verdictPairs))
	}
	if !slices.Equal(got, want) {
		t.Errorf("counted once:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
