package beam

import (
	"encoding/json"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/testvectors"
)

// TestLoopRuleOnVectors follows every game of the small-well vectors
// (testdata/random_games_small.jsonl.gz, a copy of the hatetris package's
// vectors: 308 games on wells 4 to 8 wide, 34 loop-rule moves, all on
// 4-wide wells, some where every piece repeats a well) through the beam's
// ancestry and path history, and rebuilds each game from its path.
func TestLoopRuleOnVectors(t *testing.T) {
	games, loops := 0, 0
	testvectors.EachLine(t, "testdata/random_games_small.jsonl.gz", func(line []byte) {
		var v struct {
			Width, Depth, Bar int
			ReplayKeys        string `json:"replay_keys"`
			FinalScore        int    `json:"final_score"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		r := mustRules(t, v.Width, v.Depth, v.Bar)
		if v.Depth-v.Bar > rowsMax {
			return
		}
		g, err := hatetris.Play(r, hatetris.HATETRIS, v.ReplayKeys)
		if err != nil {
			t.Fatal(err)
		}
		if g.Score != v.FinalScore || !g.Over {
			t.Fatalf("game %d: vector replays to %d", games, g.Score)
		}
		path := followGame(t, r, g)
		res, err := Rebuild(r, &hatetris.Well{}, 0, path)
		if err != nil {
			t.Fatalf("game %d: %v", games, err)
		}
		if res.Score != g.Score || res.Pieces != g.Placed() || res.LoopChanges != len(g.LoopChanges) {
			t.Fatalf("game %d: rebuilt %d in %d, vector %d in %d", games, res.Score, res.Pieces, g.Score, g.Placed())
		}
		games++
		loops += len(g.LoopChanges)
	})
	if games < 300 || loops < 30 {
		t.Fatalf("%d games, %d loop-rule moves", games, loops)
	}
	t.Logf("%d games, %d loop-rule moves", games, loops)
}
