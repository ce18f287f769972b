// The committed arena matches: every file's suite rebuilds to its ID, and
// every game's replay, played by the real game's rules from its start (with
// the AI's memory of the start), ends with the game's score and pieces.
package arena_test

import (
	"path/filepath"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

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
			if len(res.Games) != h.Starts*len(res.Standings.Arms) {
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
