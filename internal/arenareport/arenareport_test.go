package arenareport

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// match returns a match of the given arms on empty:3 and a result whose
// games have the given scores (scores[a][s]; -1: not played).
func match(t *testing.T, arms string, scores [][]int) (*arena.Match, *arena.Result) {
	t.Helper()
	r := hatetris.Standard()
	s, err := arena.ParseSuite("empty:3", r)
	if err != nil {
		t.Fatal(err)
	}
	as, err := arena.ParseArms(arms, r)
	if err != nil {
		t.Fatal(err)
	}
	m := &arena.Match{Suite: s, Arms: as, BeamWidth: 20, Quiescence: true}
	var games []arena.Game
	for a, row := range scores {
		for st, v := range row {
			if v >= 0 {
				games = append(games, arena.Game{Arm: as[a].Spec, Start: st, Score: v})
			}
		}
	}
	return m, &arena.Result{Header: m.Header(), Games: games, Standings: m.Tally(games)}
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		arms   string
		scores [][]int
		want   []string // regular expressions, one a line, in order
	}{
		{"two arms: a win, a loss, a tie", "hand,score", [][]int{{10, 12, 14}, {11, 12, 13}}, []string{
			`^suite empty:3 \(ID \w+, 3 starts\), beam width 20, quiescence true$`,
			`^arm +games +mean +diff +95% interval +wins +losses +ties +Wilcoxon p +Holm p *$`,
			`^hand +3 +12\.00 +baseline *$`,
			`^score +3 +12\.00 +\+0\.00 +\[[-+]\d\.\d\d, [-+]\d\.\d\d\] +1 +1 +1 +\S+ +\S+ *$`,
			`^score `, // the verdict names the arm
		}},
		{"three arms: Holm's line", "hand,score,tuned", [][]int{{10, 12, 14}, {11, 13, 15}, {9, -1, 13}}, []string{
			`^suite `, `^arm `,
			`^hand +3 +12\.00 +baseline`,
			`^score +3 +13\.00 +\+1\.00 .* 3 +0 +0 `,
			`^tuned +2 +11\.00 +-1\.00 .* 0 +2 +0 `,
			`^score `, `^tuned `,
			`^p-values are Holm-adjusted`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, res := match(t, tc.arms, tc.scores)
			var b bytes.Buffer
			if err := Table(&b, m, res); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tc.want), b.String())
			}
			for i, re := range tc.want {
				if !regexp.MustCompile(re).MatchString(lines[i]) {
					t.Errorf("line %d %q does not match %q", i+1, lines[i], re)
				}
			}
		})
	}
}

// TestSummary: the JSON of a match with no pair yet (intervals NaN) is
// written, with zeros.
func TestSummary(t *testing.T) {
	m, res := match(t, "hand,score", [][]int{{10, 12, 14}, {-1, -1, -1}})
	s := Summary(m, res)
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if s.Games != 3 || len(s.Arms) != 2 || s.Arms[0].Mean != 12 || s.Arms[1].Games != 0 || s.Arms[0].Eval != m.Arms[0].Eval.Name() ||
		len(s.Comparisons) != 1 || s.Comparisons[0].Diff.Estimate != 0 || s.Suite != m.Suite.ID() {
		t.Fatalf("summary %+v", s)
	}
}
