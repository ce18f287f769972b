// Package beams is the lab's own long beam games: every game of games.jsonl
// in this directory is one `hatelab beam` run from the empty well of the real
// game's 10x20 well (its evaluation, width, score, pieces, the command and
// log that made it, and its Base2048 replay; provenance in README.md). All
// parses the committed file; Parse reads a file of the same form.
//
// These games are the lab's source of deep wells (the arena's games: suites,
// the NNUE cycle's --master-deep): wells of games a hundred lines long that
// no world-record replay provides to training.
package beams

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
)

//go:embed games.jsonl
var gamesJSONL []byte

// Game is one line of a games file.
type Game struct {
	Evaluation string  `json:"evaluation"`
	BeamWidth  int     `json:"beam_width"`
	Quiescence bool    `json:"quiescence"`
	Score      int     `json:"score"`
	Pieces     int     `json:"pieces"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	Children   int64   `json:"children"`
	PeakRSSMB  int     `json:"peak_rss_mb"`
	// CPUFromLevel, when not 0, says that CPUSeconds and PeakRSSMB cover
	// only the levels from this one on: an earlier part of the search (a
	// run stopped before /usr/bin/time reported, then resumed) was not
	// measured.
	CPUFromLevel int `json:"cpu_from_level,omitempty"`
	// Log is the run's log, relative to this directory.
	Log     string `json:"log"`
	Command string `json:"command"`
	// Replay is the game's keys from the empty well in Base2048
	// (replaycodec.Base2048).
	Replay string `json:"replay"`
}

// MaxLine bounds one line of a games file.
const MaxLine = 1 << 20

// All parses the committed games.jsonl.
func All() ([]Game, error) { return Parse(bytes.NewReader(gamesJSONL), "games.jsonl") }

// SuiteGames is how many of games.jsonl's games, its first, the arena's
// games: suites draw from (and with them the NNUE cycle's deep master
// beams): the games every committed games: match and deep run used, but
// for datasets/weights/deep-run, made when the file held seven. A game
// added after them is in no suite, so that a suite's wells never change.
const SuiteGames = 9

// SuitePool is the first SuiteGames games of All (all of them in a file
// that holds fewer, as an earlier one did): the pool of the arena's games:
// suites.
func SuitePool() ([]Game, error) {
	gs, err := All()
	if err != nil {
		return nil, err
	}
	n := min(len(gs), SuiteGames)
	return gs[:n:n], nil
}

// Parse reads a games file (JSONL, one Game a line; unknown fields, an empty
// replay or a line over MaxLine refused), naming it name in errors.
func Parse(r io.Reader, name string) ([]Game, error) {
	var out []Game
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), MaxLine)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var g Game
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", name, line, err)
		}
		if g.Replay == "" {
			return nil, fmt.Errorf("%s line %d: no replay", name, line)
		}
		if g.CPUFromLevel < 0 || g.CPUFromLevel > g.Pieces {
			return nil, fmt.Errorf("%s line %d: cpu_from_level %d outside the game's levels 1..%d", name, line, g.CPUFromLevel, g.Pieces)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no games", name)
	}
	return out, nil
}
