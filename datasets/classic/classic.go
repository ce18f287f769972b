// Package classic is the classic-Tetris sweep dataset: games of tetr-ai's
// rules played by this repository's engine (engine/classic), one record per
// (agent, height, seed), with tetr-ai's documented seeds R*1000 ..
// R*1000+N-1 at height R on a 10-wide board. tetr-ai.csv holds tetr-ai
// v2.0 at heights 5..12 with 1000 seeds each (reproducing the README's
// table exactly); agents.csv holds the other agents; dellacherie-14.csv
// holds Dellacherie at height 14. Provenance and the
// commands that made them are in README.md.
package classic

import (
	"bytes"
	_ "embed"

	"github.com/hatelab/hatelab/engine/classic"
)

//go:embed tetr-ai.csv
var tetrAICSV []byte

//go:embed agents.csv
var agentsCSV []byte

//go:embed dellacherie-14.csv
var dellacherie14CSV []byte

// TetrAI returns the tetr-ai v2.0 records (heights 5..12, 1000 seeds each).
func TetrAI() ([]classic.Result, error) { return classic.ReadCSV(bytes.NewReader(tetrAICSV)) }

// Agents returns the records of the other agents (Dellacherie, BCTS, and the
// agent after Whitman, Kane and Burnette).
func Agents() ([]classic.Result, error) { return classic.ReadCSV(bytes.NewReader(agentsCSV)) }

// Dellacherie14 returns Dellacherie's 200 games at height 14 (seeds
// 14000..14199): an out-of-sample check of the fits made on heights 5..12.
func Dellacherie14() ([]classic.Result, error) {
	return classic.ReadCSV(bytes.NewReader(dellacherie14CSV))
}
