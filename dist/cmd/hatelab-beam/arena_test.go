package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
)

// TestArenaCLI: bad input is one line and exit 2 before any work; the
// Beam run prints what the native one (hatelab arena's runner) prints,
// table and JSON, writes the same games, and resumes from the native
// one's file (and the native one from its).
func TestArenaCLI(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	match := []string{"arena", "--arms", "hand,tuned", "--suite", "openings:6:8:1", "--beam-width", "20", "--quiescence"}
	if code, _, stderr := run(bin, dir, append(match, "--engine", "native", "--out", "other.jsonl", "--beam-width", "21")...); code != 0 {
		t.Fatalf("native arena: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"arena", "--work", "w"},
		{"arena", "--arms", "hand", "--work", "w"},
		{"arena", "--arms", "hand,hand", "--work", "w"},
		{"arena", "--arms", "hand,nope", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--suite", "openings:x", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--beam-width", "0", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--max-pieces", "-1", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--workers", "-1", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--well-width", "3", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--out", "folder", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--out", "notes.txt", "--work", "w"},
		{"arena", "--arms", "hand,tuned", "--out", "missing/m.jsonl", "--work", "w"},
		append(match, "--out", "other.jsonl", "--work", "w"),
		append(match, "--out", "m.jsonl"),
	} {
		code, _, stderr := run(bin, dir, args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hatelab-beam: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	for _, name := range []string{"w", "m.jsonl", "missing"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("bad input made %s: the checks came after the work", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "notes\n" {
		t.Errorf("a refused run changed notes.txt: %q", b)
	}

	outputs := map[string][2]string{}
	for _, engine := range []string{"beam", "native"} {
		var got [2]string
		for i, format := range []string{"", "--json"} {
			args := append(slices.Clone(match), "--engine", engine, "--out", engine+".jsonl", "--work", "w")
			if format != "" {
				args = append(args, format) // the second run: every game in the file already
			}
			code, stdout, stderr := run(bin, dir, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			got[i] = stdout
		}
		outputs[engine] = got
	}
	if b, n := outputs["beam"], outputs["native"]; b != n || !strings.Contains(b[0], "Wilcoxon p") || !strings.HasPrefix(b[1], `{"suite"`) {
		t.Fatalf("Beam printed\n%s%s\nnative\n%s%s", b[0], b[1], n[0], n[1])
	}
	// Each reads the other's file: nothing left to play, the same JSON.
	for engine, file := range map[string]string{"beam": "native.jsonl", "native": "beam.jsonl"} {
		code, stdout, stderr := run(bin, dir, append(slices.Clone(match), "--engine", engine, "--out", file, "--work", "w", "--json")...)
		if code != 0 || stdout != outputs[engine][1] {
			t.Errorf("%s on %s: exit %d (%s), printed\n%s\nwant\n%s", engine, file, code, stderr, stdout, outputs[engine][1])
		}
	}
	games := map[string][]arena.Game{}
	for _, engine := range []string{"beam", "native"} {
		res, err := arena.ReadMatchAny(filepath.Join(dir, engine+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range res.Games {
			g.Seconds = 0
			games[engine] = append(games[engine], g)
		}
		slices.SortFunc(games[engine], func(a, b arena.Game) int { return strings.Compare(key(a), key(b)) })
	}
	if len(games["beam"]) != 12 || !slices.Equal(games["beam"], games["native"]) {
		t.Fatalf("Beam's games %+v\nnative's %+v", games["beam"], games["native"])
	}
}

func key(g arena.Game) string {
	b, _ := json.Marshal(g)
	return string(b)
}
