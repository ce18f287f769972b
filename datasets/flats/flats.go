// Package flats is the dataset of line-transition tables (flats, package
// engine/flats) committed in this folder, embedded so that the CLI and the
// notebooks need no files at run time: records.json (the 20 world-record
// replays) and bfs-10x5-optimal.json (every highest-scoring game of the
// exhaustive 10x5 well). README.md gives each file's provenance and the
// exact command that regenerates it.
//
// The package shares its name with engine/flats, whose Table it returns:
// import it under another name, e.g.
//
//	flatsdata "github.com/hatelab/hatelab/datasets/flats"
package flats

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
)

//go:embed records.json bfs-10x5-optimal.json
var files embed.FS

// Names lists the committed tables, by file name.
var Names = []string{"records.json", "bfs-10x5-optimal.json"}

// Table parses the committed table of the given file name.
func Table(name string) (*flats.Table, error) {
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("datasets/flats: no table %q", name)
	}
	t, err := flats.ParseTable(data)
	if err != nil {
		return nil, fmt.Errorf("datasets/flats/%s: %v", name, err)
	}
	return t, nil
}

// Records returns records.json: the flats of the 20 world-record replays
// (10x20, 15,024 moves).
func Records() (*flats.Table, error) { return Table("records.json") }

// BFS10x5Optimal returns bfs-10x5-optimal.json: the flats of every
// highest-scoring game of the 10x5 well from the empty well (exact counts).
func BFS10x5Optimal() (*flats.Table, error) { return Table("bfs-10x5-optimal.json") }

// Results lists the committed experiment results, by file name.
var Results = []string{"experiment.json"}

//go:embed experiment.json
var experimentJSON []byte

// Experiment returns experiment.json: the results of the G-term
// experiment (`hatelab flats experiment`, engine/experiment.Run),
// with their command line as provenance.
func Experiment() (*experiment.Results, error) {
	var e experiment.Results
	if err := json.Unmarshal(experimentJSON, &e); err != nil {
		return nil, fmt.Errorf("datasets/flats/experiment.json: %v", err)
	}
	if e.Format != experiment.Format {
		return nil, fmt.Errorf("datasets/flats/experiment.json: format %q, want %q", e.Format, experiment.Format)
	}
	if err := e.Config.Validate(); err != nil {
		return nil, fmt.Errorf("datasets/flats/experiment.json: %v", err)
	}
	return &e, nil
}
