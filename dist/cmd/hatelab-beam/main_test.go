package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build builds the binary once per test run.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hatelab-beam")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func run(bin, dir string, args ...string) (int, string, string) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		code = -1
	}
	return code, o.String(), e.String()
}

func TestCLI(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	// Bad input: one line on standard error, exit 2.
	for _, args := range [][]string{
		{"bfs", "--width", "3", "--height", "5", "--work", "w"},
		{"bfs", "--width", "5", "--height", "5"},
		{"bfs", "--engine", "spark"},
		{"bfs", "--runner", "universal", "--work", "w"},
		{"bfs", "--runner", "storm", "--work", "w"},
		{"bfs", "--rule", "nope"},
		{"beam", "--beam-width", "0", "--work", "w"},
		{"beam", "--beam-width", "10", "--eval", "nope", "--work", "w"},
		{"classic", "sweep", "--rows", "5-", "--out", "x.csv", "--work", "w"},
		{"nnue", "targets", "--samples", "missing.json", "--out", "t.json", "--work", "w"},
	} {
		code, _, stderr := run(bin, dir, args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hatelab-beam: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	// Beam and native give the same levels table.
	if code, _, stderr := run(bin, dir, "bfs", "--width", "6", "--height", "5", "--work", "w", "--out", "beam.csv"); code != 0 {
		t.Fatalf("beam bfs: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(bin, dir, "bfs", "--engine", "native", "--width", "6", "--height", "5", "--out", "native.csv"); code != 0 {
		t.Fatalf("native bfs: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "beam.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "native.csv"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("levels differ:\n%s\nwant\n%s", a, b)
	}
}
