// The committed long beam games: every line of games.jsonl replays, by the
// real game's rules from the empty well, to its score and pieces, and its
// log is in the folder.
package beams_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/beams"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

func TestGamesReplay(t *testing.T) {
	games, err := beams.All()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		n := i + 1
		keys, err := replaycodec.Decode(replaycodec.Base2048, g.Replay)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		game := hatetris.NewGame(hatetris.Standard(), hatetris.HATETRIS)
		if err := game.PressAll(keys); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if !game.Over || game.Score != g.Score || game.Placed() != g.Pieces {
			t.Fatalf("line %d (%s, width %d): the replay scores %d in %d pieces (over %v); the file says %d in %d",
				n, g.Evaluation, g.BeamWidth, game.Score, game.Placed(), game.Over, g.Score, g.Pieces)
		}
		log, err := os.ReadFile(filepath.FromSlash(g.Log))
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		// "--eval nnue --weights FILE" names the arm nnue:FILE too.
		cmd := strings.Replace(g.Command, "--eval nnue --weights ", "--eval nnue:", 1)
		if levels := strings.Count(string(log), "\nlevel ") + 1; levels < g.Pieces || !strings.Contains(cmd, g.Evaluation) {
			t.Fatalf("line %d: log %s has %d levels, fewer than the game's %d pieces, or the command does not name %s", n, g.Log, levels, g.Pieces, g.Evaluation)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"empty", "", "no games"},
		{"blank lines", "\n\n", "no games"},
		{"unknown field", `{"replay":"x","moves":3}`, "unknown field"},
		{"no replay", `{"score":3}`, "no replay"},
		{"negative cpu_from_level", `{"pieces":10,"replay":"x","cpu_from_level":-1}`, "cpu_from_level -1"},
		{"cpu_from_level past the game", `{"pieces":10,"replay":"x","cpu_from_level":11}`, "cpu_from_level 11"},
		{"huge cpu_from_level", `{"pieces":10,"replay":"x","cpu_from_level":99999999999999999999}`, "cpu_from_level"},
		{"not json", `score 3`, "line 1"},
		{"too long", `{"replay":"` + strings.Repeat("x", beams.MaxLine) + `"}`, "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := beams.Parse(strings.NewReader(tc.in), "f")
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err %v, want one naming %q", err, tc.err)
			}
		})
	}
	gs, err := beams.Parse(strings.NewReader("{\"score\":3,\"replay\":\"x\"}\n\n{\"replay\":\"y\"}\n"), "f")
	if err != nil || len(gs) != 2 || gs[0].Score != 3 || gs[1].Replay != "y" {
		t.Fatalf("got %+v, %v", gs, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"score":3,"replay":"x"}`))
	f.Add([]byte("{}\n{\"replay\":\"\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		gs, err := beams.Parse(strings.NewReader(string(b)), "f")
		if err == nil && len(gs) == 0 {
			t.Fatal("no error and no games")
		}
		for _, g := range gs {
			if g.Replay == "" {
				t.Fatal("a game without a replay accepted")
			}
		}
	})
}

// TestSuitePool: the games: suites' pool is the file's first SuiteGames
// games, whatever is added after them (a games: suite's wells never
// change: TestMatchesReplay in datasets/arena rebuilds every committed
// one).
func TestSuitePool(t *testing.T) {
	all, err := beams.All()
	if err != nil {
		t.Fatal(err)
	}
	pool, err := beams.SuitePool()
	if err != nil {
		t.Fatal(err)
	}
	if len(pool) != beams.SuiteGames || len(all) < len(pool) {
		t.Fatalf("pool of %d games from %d, want the first %d", len(pool), len(all), beams.SuiteGames)
	}
	for i := range pool {
		if pool[i] != all[i] {
			t.Fatalf("game %d of the pool is not the file's", i+1)
		}
	}
	if cap(pool) != len(pool) {
		t.Fatal("appending to the pool would write into All's games")
	}
}
