// The committed arena matches: every file's suite rebuilds to its ID, every
// match is finished (or stopped where its sequential test decided, or
// closed undecided as its README says), and
// every game's replay, played by the real game's rules from its start (with
// the AI's memory of the start), ends with the game's score and pieces.
package arena_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
	"github.com/hatelab/hatelab/engine/stats"
)

// h3 is the third generation's sum (datasets/weights/teacher/README.md),
// the baseline of every candidate's deep gate since, and h3Gate their
// declared test (H0 0, H1 +1 line, α = β = 0.05).
const h3 = "nnue:datasets/weights/teacher/gen-03.hlnn+h:0.0017377:tuned"

var h3Gate = stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05}

// hs is HS, H3's network at 1/1.41421 of its weight, the baseline of the
// deep gates since its own (datasets/weights/teacher-scale/README.md),
// with the same declared test.
const hs = "nnue:datasets/weights/teacher/gen-03.hlnn+h:0.0024575:tuned"

// sequential are the committed matches a sequential test stopped, with
// their baseline and test as declared (a match file does not record them):
// each must be one its test had decided when it stopped, and its
// verdict is the one the READMEs report.
var sequential = map[string]struct {
	baseline string
	test     stats.Sequential
	verdict  string
}{
	// datasets/weights/teacher/README.md, match 3.
	"teacher-records-sprt-w1000.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05},
		"the sequential test stopped the match after 219 pairs, accepting mean +1 lines against mean +0 lines: better"},
	// datasets/weights/teacher/README.md, generation 3's deep gate.
	"teacher-gen3-records-sprt-w1000.jsonl": {"nnue:datasets/weights/teacher/gen-02.hlnn+h:0.00176563:tuned",
		stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05},
		"the sequential test stopped the match after 413 pairs, accepting mean +1 lines against mean +0 lines: better"},
	// datasets/weights/teacher/README.md, match 6.
	"teacher-gen3-records-sprt-w1000-tuned.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05},
		"the sequential test stopped the match after 324 pairs, accepting mean +1 lines against mean +0 lines: better"},
	// datasets/weights/teacher/README.md, match 8.
	"teacher-gen3-records-sprt-w10000-tuned.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 2, Alpha: 0.01, Beta: 0.05},
		"the sequential test stopped the match after 94 pairs, accepting mean +2 lines against mean +0 lines: better"},
	// datasets/weights/teacher/README.md, generation 4's deep gate (failed).
	"teacher-gen4-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 54 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher-big/README.md, HB's deep gate (failed).
	"teacher-big-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 169 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher-512/README.md, H512's deep gate (failed).
	"teacher-512-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 171 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher/README.md, match 11: match 6 again, on distinct starts.
	"teacher-gen3-distinct-records-sprt-w1000-tuned.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05},
		"the sequential test stopped the match after 203 pairs, accepting mean +1 lines against mean +0 lines: better"},
	// datasets/weights/teacher/README.md, match 12: match 8 again on distinct starts.
	"teacher-gen3-distinct-records-sprt-w10000-tuned.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 2, Alpha: 0.01, Beta: 0.05},
		"the sequential test stopped the match after 32 pairs, accepting mean +2 lines against mean +0 lines: better"},
	// datasets/weights/teacher-long/README.md, HL's deep gate (failed), on distinct starts.
	"teacher-long-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 500 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher-wide/README.md, HW's deep gate (failed), on distinct starts.
	"teacher-wide-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 129 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher-positional/README.md, HP's deep gate (failed), on distinct starts.
	"teacher-positional-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 39 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/teacher-scale/README.md, HS's deep gate (passed), on distinct starts.
	"teacher-scale-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 245 pairs, accepting mean +1 lines against mean +0 lines: better"},
	// datasets/weights/teacher-hs/README.md, HH's deep gate against HS (failed), on distinct starts.
	"teacher-hs-records-sprt-w1000.jsonl": {hs, h3Gate,
		"the sequential test stopped the match after 34 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
	// datasets/weights/soup/README.md, S3's deep gate (failed), on distinct starts.
	"soup-records-sprt-w1000.jsonl": {h3, h3Gate,
		"the sequential test stopped the match after 138 pairs, accepting mean +0 lines against mean +1 lines: no gain of that size"},
}

// closed are the committed sequential matches closed by a decision
// written in their README before their test decided: each must still be
// undecided, with the games the README reports (its verdict is none).
var closed = map[string]struct {
	baseline string
	test     stats.Sequential
	games    int
}{
	// datasets/weights/teacher/README.md, match 4: closed at 40 pairs
	// after match 8 decided.
	"teacher-records-sprt-w10000.jsonl": {"tuned", stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05}, 80},
}

func TestMatchesReplay(t *testing.T) {
	files, err := filepath.Glob("*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no match files")
	}
	suites := map[string]*arena.Suite{}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			if _, err := arena.ReadMatch(f, ""); err == nil {
				t.Fatal("a match without its baseline was read")
			}
			res, err := arena.ReadMatchAny(f)
			if err != nil {
				t.Fatal(err)
			}
			h := res.Header
			s, ok := suites[h.SuiteSpec]
			if !ok {
				if s, err = arena.ParseSuite(h.SuiteSpec, nil); err != nil {
					t.Fatal(err)
				}
				suites[h.SuiteSpec] = s
			}
			if s.ID() != h.Suite || len(s.Starts) != h.Starts {
				t.Fatalf("suite %s rebuilds to ID %s, the file says %s", h.SuiteSpec, s.ID(), h.Suite)
			}
			if seq, ok := sequential[f]; ok {
				if res, err = arena.ReadMatch(f, seq.baseline); err != nil {
					t.Fatal(err)
				}
				if !res.WithSequential(seq.test).Stopped {
					t.Fatalf("%d games: its sequential test has not decided every arm", len(res.Games))
				}
				if v := res.Comparisons()[0].Verdict(); !strings.Contains(v, seq.verdict) {
					t.Fatalf("its sequential verdict %q, the READMEs say %q", v, seq.verdict)
				}
			} else if c, ok := closed[f]; ok {
				if res, err = arena.ReadMatch(f, c.baseline); err != nil {
					t.Fatal(err)
				}
				if res.WithSequential(c.test).Stopped || len(res.Games) != c.games {
					t.Fatalf("%d games, stopped %v: the README closes it undecided with %d", len(res.Games), res.Stopped, c.games)
				}
			} else if len(res.Games) != h.Starts*len(res.Standings.Arms) {
				t.Fatalf("%d games for %d starts and %d arms: the match is not finished", len(res.Games), h.Starts, len(res.Standings.Arms))
			}
			for _, g := range res.Games {
				st := &s.Starts[g.Start]
				keys, err := replaycodec.Decode(replaycodec.Base2048, g.Replay)
				if err != nil {
					t.Fatalf("%s start %d: %v", g.Arm, g.Start, err)
				}
				game := hatetris.NewGameAfter(hatetris.Standard(), hatetris.HATETRIS, st.Well, st.Score, st.History)
				if err := game.PressAll(keys); err != nil {
					t.Fatalf("%s start %d: %v", g.Arm, g.Start, err)
				}
				if !game.Over || game.Score != g.Score || game.Placed() != g.Pieces {
					t.Fatalf("%s start %d: the replay scores %d in %d pieces (over %v); the file says %d in %d",
						g.Arm, g.Start, game.Score, game.Placed(), game.Over, g.Score, g.Pieces)
				}
			}
		})
	}
}
