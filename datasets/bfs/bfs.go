// Package bfs is the dataset of exhaustive small-well searches: summary.csv
// (one row per complete search), levels/ (one file per search: every
// level's states, children and best score) and games.jsonl (a longest and
// a highest-scoring game of many of them, rebuilt and verified). The schema
// is documented in README.md and in engine/bfs, which reads and writes
// these files; scripts/bfs-tables.sh regenerates them. The files are
// embedded, so loading them needs no path.
package bfs

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"

	search "github.com/hatelab/hatelab/engine/bfs"
)

//go:embed summary.csv games.jsonl levels/*.csv
var files embed.FS

// Files is the dataset as a file system: summary.csv, games.jsonl and
// levels/wW-hH-RULE.csv.
func Files() fs.FS { return files }

// Summary returns the rows of summary.csv.
func Summary() ([]search.Row, error) {
	b, err := files.ReadFile("summary.csv")
	if err != nil {
		return nil, err
	}
	return search.ReadSummary(bytes.NewReader(b))
}

// Games returns the rebuilt games of games.jsonl.
func Games() ([]search.GameRecord, error) {
	b, err := files.ReadFile("games.jsonl")
	if err != nil {
		return nil, err
	}
	return search.ReadGames(bytes.NewReader(b))
}

// LevelFile returns the per-level file of one search.
func LevelFile(width, height int, rule search.Rule) ([]byte, error) {
	b, err := files.ReadFile(fmt.Sprintf("levels/w%d-h%d-%s.csv", width, height, rule))
	if err != nil {
		return nil, fmt.Errorf("datasets/bfs: no level file for %dx%d %s", width, height, rule)
	}
	return b, nil
}

// Levels returns the levels of one search, read from its level file.
func Levels(width, height int, rule search.Rule) ([]search.Level, error) {
	b, err := LevelFile(width, height, rule)
	if err != nil {
		return nil, err
	}
	levels, err := search.ReadLevels(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets/bfs: %dx%d %s: %w", width, height, rule, err)
	}
	return levels, nil
}
