package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// gen0Weights is the committed generation-0 network.
const gen0Weights = "../../datasets/weights/gen-00.hlnn"

// TestBeamNNUE: a beam with --eval nnue (the committed generation-0
// network, with quiescence) emits a replay that `hatelab replay` verifies.
func TestBeamNNUE(t *testing.T) {
	out, err := run(t, newBeamCmd(), "--json", "--width", "50", "--quiescence", "--eval", "nnue", "--weights", gen0Weights)
	if err != nil {
		t.Fatal(err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if res := verifyBeamReplay(t, lines[len(lines)-1]); res.PiecesPlaced < 10 {
		t.Fatalf("only %d pieces", res.PiecesPlaced)
	}
	for _, args := range [][]string{
		{"--eval", "nnue", "--weights", "beam.go"},
		{"--eval", "nnue", "--weights", gen0Weights, "--well-width", "8"},
	} {
		if _, err := run(t, newBeamCmd(), args...); err == nil || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%v: %v", args, err)
		}
	}
}

// TestNNUEFit0: a small fit writes a network that info describes and a
// beam runs.
func TestNNUEFit0(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.hlnn")
	out, err := run(t, newNNUECmd(), "fit0", "--json", "--out", path, "--beam-width", "30", "--max-pieces", "30", "--per-level", "8", "--hidden", "8")
	if err != nil {
		t.Fatal(err, out)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &rep); err != nil {
		t.Fatal(err, out)
	}
	if rep["samples"].(float64) < 100 {
		t.Fatalf("report %v", rep)
	}
	info, err := run(t, newNNUECmd(), "info", path)
	if err != nil || !strings.Contains(info, "shared 10x16 (F=5120, K=120) H8") || !strings.Contains(info, "hatelab nnue fit0") {
		t.Fatal(err, info)
	}
	if _, err := run(t, newBeamCmd(), "--width", "10", "--max-depth", "5", "--eval", "nnue", "--weights", path); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fit0"}, {"fit0", "--out", path, "--variant", "x"}, {"info", "nnue.go"}, {"info"}} {
		if _, err := run(t, newNNUECmd(), args...); err == nil {
			t.Fatalf("%v: no error", args)
		}
	}
}

// TestNNUECycle: a tiny generation through the CLI; run again on the same
// directory, it resumes (nothing left to do) and prints the same report.
func TestNNUECycle(t *testing.T) {
	dir := t.TempDir()
	args := []string{"cycle", "--quiet", "--dir", dir, "--start", gen0Weights, "--generations", "1", "--master-width", "20",
		"--master-pieces", "15", "--samples", "60", "--target-width", "8", "--target-pieces", "3", "--epochs", "2", "--batch", "16"}
	out, err := run(t, newNNUECmd(), args...)
	if err != nil || !strings.Contains(out, "generation 1: master score") {
		t.Fatal(err, out)
	}
	out2, err := run(t, newNNUECmd(), args...)
	if err != nil || out2 != out {
		t.Fatalf("resume: %v\n%s\nvs\n%s", err, out2, out)
	}
	if _, err := run(t, newNNUECmd(), "cycle", "--quiet", "--dir", t.TempDir(), "--samples", "5"); err == nil {
		t.Fatal("no start network: no error")
	}
}
