package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
)

// TestNNUERandom: the random network is written byte for byte the same
// for a seed, differs for another, loads and quantises; bad flags and a
// target that is not a weights file are refused in one line, exit 2.
func TestNNUERandom(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.hlnn"), filepath.Join(dir, "b.hlnn"), filepath.Join(dir, "c.hlnn")
	for _, args := range [][]string{{"--out", a}, {"--out", b}, {"--out", c, "--seed", "2"}} {
		if code, _, stderr := runCLI(t, append([]string{"nnue", "random"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	bc, _ := os.ReadFile(c)
	if !bytes.Equal(ba, bb) || bytes.Equal(ba, bc) {
		t.Fatal("same seed should give the same bytes, another seed other bytes")
	}
	n, err := nnue.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nnue.Quantize(n, 0, 0); err != nil || n.Hidden != 32 {
		t.Fatalf("hidden %d, quantize: %v", n.Hidden, err)
	}
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("mine\n"), 0o644)
	checkCLI(t, []cliCase{
		{"no --out", []string{"nnue", "random"}, 2, "--out FILE is required"},
		{"--hidden 0", []string{"nnue", "random", "--out", a, "--hidden", "0"}, 2, "--hidden 0"},
		{"--variant", []string{"nnue", "random", "--out", a, "--variant", "diagonal"}, 2, "--variant"},
		{"--out a text file", []string{"nnue", "random", "--out", text}, 2, "is not a weights file"},
	})
	if got, _ := os.ReadFile(text); string(got) != "mine\n" {
		t.Fatal("the text file was replaced")
	}
}
