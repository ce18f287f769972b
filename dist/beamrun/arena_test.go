package beamrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
)

// arenaTestOptions is a small match: 6 openings, hand against tuned at
// width 20 with quiescence, 12 games.
func arenaTestOptions(out string) ArenaOptions {
	return ArenaOptions{Arms: "hand,tuned", Suite: "openings:6:8:1", WellWidth: 10, WellDepth: 20, Bar: 4,
		BeamWidth: 20, Quiescence: true, Out: out}
}

// matchRows reads a match file's header line and game lines, each game
// with its seconds (timing, the one field that varies) set to 0.
func matchRows(t *testing.T, path string) (string, []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var rows []string
	for _, l := range lines[1:] {
		var g arena.Game
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		g.Seconds = 0
		rows = append(rows, string(gameLine(t, g)))
	}
	return lines[0], rows
}

func gameLine(t *testing.T, g arena.Game) []byte {
	t.Helper()
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nativeRows plays the match with the engine's runner (arena.Match.Run,
// as hatelab arena does) into a file and returns its header, its rows
// (seconds 0) in suite order, arms in their order, and the result.
func nativeRows(t *testing.T) (string, []string, *arena.Result) {
	t.Helper()
	m, err := arenaTestOptions(filepath.Join(t.TempDir(), "native.jsonl")).Match()
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	header, rows := matchRows(t, m.Out)
	type game struct {
		arm   string
		start int
	}
	byGame := map[game]string{}
	for i, g := range res.Games {
		byGame[game{g.Arm, g.Start}] = rows[i]
	}
	var ordered []string
	for s := range m.Suite.Starts {
		for _, a := range m.Arms {
			ordered = append(ordered, byGame[game{a.Spec, s}])
		}
	}
	return header, ordered, res
}

// TestArenaMatchesNative: the Beam run writes the header and the rows of
// the engine's runner (the same games, byte for byte but the seconds) in
// suite order, and prints the same standings; it resumes from a file cut
// by a kill and from games finished in the work folder; a file of other
// settings is refused before any work.
func TestArenaMatchesNative(t *testing.T) {
	ctx := context.Background()
	wantHeader, want, wantRes := nativeRows(t)
	if len(want) != 12 {
		t.Fatalf("%d native games, want 12", len(want))
	}
	dir, work := t.TempDir(), t.TempDir()
	out := filepath.Join(dir, "beam.jsonl")
	_, res, err := Arena(ctx, arenaTestOptions(out), work, Runner{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	header, rows := matchRows(t, out)
	if header != wantHeader || !reflect.DeepEqual(rows, want) {
		t.Fatalf("Beam's file:\n%s\n%s\nwant\n%s\n%s", header, strings.Join(rows, "\n"), wantHeader, strings.Join(want, "\n"))
	}
	if got, w := res.Standings.Comparisons(), wantRes.Standings.Comparisons(); !reflect.DeepEqual(got, w) {
		t.Fatalf("standings %+v, want %+v", got, w)
	}
	if left, _ := filepath.Glob(filepath.Join(work, "*", "*")); len(left) != 0 {
		t.Errorf("game files left in the work folder: %v", left)
	}

	// A kill: the file cut in the middle of its 7th game, and the 10th
	// game finished in the work folder (its seconds marked, to tell that
	// it is read, not played again).
	full, _ := os.ReadFile(out)
	lines := strings.SplitAfter(string(full), "\n")
	cut := strings.Join(lines[:7], "") + lines[7][:len(lines[7])/2]
	if err := os.WriteFile(out, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := arenaTestOptions(out).Match()
	var tenth arena.Game
	json.Unmarshal([]byte(lines[10]), &tenth)
	tenth.Seconds = 1234
	b, _ := gameFile(m.Header(), tenth)
	job := pendingGames(m, nil, join(work, "arena-"+headerKey(m.Header())))[9]
	if err := writeFile(ctx, job.Out, b); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	if _, _, err := Arena(ctx, arenaTestOptions(out), work, Runner{}, &progress); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "6 games to play on Beam (6 games already in") {
		t.Errorf("progress %q: want 6 games to play, 6 in the file", progress.String())
	}
	if header, rows = matchRows(t, out); header != wantHeader || !reflect.DeepEqual(rows, want) {
		t.Fatalf("resumed file:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	resumed, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(resumed), strings.Join(lines[:7], "")) || !strings.Contains(string(resumed), `"seconds":1234,`) {
		t.Fatalf("the resumed file lost its games or played the finished one again:\n%s", resumed)
	}

	// Done: nothing to play, the file as it was.
	progress.Reset()
	if _, _, err := Arena(ctx, arenaTestOptions(out), work, Runner{}, &progress); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, resumed) || !strings.Contains(progress.String(), ": 0 games to play") {
		t.Fatalf("a finished match changed or played again (%q)", progress.String())
	}

	// Bad input: one line, the file untouched, no work done.
	notMatch := filepath.Join(dir, "notes.txt")
	os.WriteFile(notMatch, []byte("some notes\nwithout a newline at the end"), 0o644)
	for name, o := range map[string]ArenaOptions{
		"other width":   func() ArenaOptions { o := arenaTestOptions(out); o.BeamWidth = 21; return o }(),
		"not a match":   arenaTestOptions(notMatch),
		"one arm":       func() ArenaOptions { o := arenaTestOptions(""); o.Arms = "hand"; return o }(),
		"unknown arm":   func() ArenaOptions { o := arenaTestOptions(""); o.Arms = "hand,nope"; return o }(),
		"bad suite":     func() ArenaOptions { o := arenaTestOptions(""); o.Suite = "openings:x"; return o }(),
		"bad well":      func() ArenaOptions { o := arenaTestOptions(""); o.WellWidth = 3; return o }(),
		"folder out":    arenaTestOptions(dir),
		"no work":       arenaTestOptions(filepath.Join(dir, "new.jsonl")),
		"negative cuts": func() ArenaOptions { o := arenaTestOptions(""); o.MaxPieces = -1; return o }(),
	} {
		w := filepath.Join(dir, "work-"+strings.ReplaceAll(name, " ", "-"))
		if name == "no work" {
			w = ""
		}
		_, _, err := Arena(ctx, o, w, Runner{}, nil)
		if err == nil || !IsInput(err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v; want one line of bad input", name, err)
		}
		if _, err := os.Stat(w); w != "" && err == nil {
			t.Errorf("%s: a work folder was made", name)
		}
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, resumed) {
		t.Errorf("a refused run changed %s", out)
	}
	if b, _ := os.ReadFile(notMatch); string(b) != "some notes\nwithout a newline at the end" {
		t.Errorf("a refused run changed a file that is not a match file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.jsonl")); err == nil {
		t.Errorf("a refused run made its --out file")
	}
}
