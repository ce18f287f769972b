// The committed long beam games: every line of games.jsonl replays, by the
// real game's rules from the empty well, to its score and pieces, and its
// log is in the folder.
package beams_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

type game struct {
	Evaluation string  `json:"evaluation"`
	BeamWidth  int     `json:"beam_width"`
	Quiescence bool    `json:"quiescence"`
	Score      int     `json:"score"`
	Pieces     int     `json:"pieces"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	Children   int64   `json:"children"`
	PeakRSSMB  int     `json:"peak_rss_mb"`
	Log        string  `json:"log"`
	Command    string  `json:"command"`
	Replay     string  `json:"replay"`
}

func TestGamesReplay(t *testing.T) {
	f, err := os.Open("games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var g game
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
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
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no games")
	}
}
