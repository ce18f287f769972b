package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

// TestNNUEPositional: the positional copy of generation 0 loads with
// positional features and the same value on wells of a random game; an
// input that is already positional, --out one of the inputs and a target
// that is not a weights file are refused in one line, exit 2.
func TestNNUEPositional(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.hlnn")
	if code, _, stderr := runCLI(t, "nnue", "positional", "--out", out, gen0Weights); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	n, err := nnue.Load(gen0Weights)
	if err != nil {
		t.Fatal(err)
	}
	p, err := nnue.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Features.Variant() != nnue.Positional || p.Header.Name != n.Header.Name+"-positional" {
		t.Fatalf("features %s, name %q", p.Features, p.Header.Name)
	}
	r := hatetris.Standard()
	g := hatetris.NewGenerator(r)
	w := hatetris.Well{}
	var buf []hatetris.Outcome
	for i := 0; i < 40; i++ {
		rows := w[r.Bar:r.Depth]
		if a, b := p.Evaluate(rows), n.Evaluate(rows); a != b {
			t.Fatalf("move %d: positional %v, shared %v", i, a, b)
		}
		_, buf = g.Move(&w, hatetris.Mild, nil, buf[:0])
		if len(buf) == 0 || buf[0].GameOver {
			break
		}
		w = buf[len(buf)/2].Well
	}
	// A network without a name lends its file's name to the copy.
	fs, err := nnue.NewFeatureSet(nnue.Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	anon, err := nnue.NewNetwork(fs, 4, nnue.HardTanh)
	if err != nil {
		t.Fatal(err)
	}
	anonPath, anonOut := filepath.Join(dir, "anon.hlnn"), filepath.Join(dir, "anon-p.hlnn")
	if err := nnue.Save(anonPath, anon); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "nnue", "positional", "--out", anonOut, anonPath); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if a, err := nnue.Load(anonOut); err != nil {
		t.Fatal(err)
	} else if a.Header.Name != "anon-positional" {
		t.Fatalf("copy of a network without a name is named %q, want anon-positional", a.Header.Name)
	}
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCLI(t, []cliCase{
		{"no --out", []string{"nnue", "positional", gen0Weights}, 2, "--out FILE is required"},
		{"no network", []string{"nnue", "positional", "--out", filepath.Join(dir, "q.hlnn")}, 2, "accepts 1 arg(s), received 0"},
		{"--out the input", []string{"nnue", "positional", "--out", out, out}, 2, "is one of the networks copied"},
		{"positional already", []string{"nnue", "positional", "--out", filepath.Join(dir, "q.hlnn"), out}, 2, "want shared"},
		{"--out a text file", []string{"nnue", "positional", "--out", text, gen0Weights}, 2, "is not a weights file"},
		{"missing input", []string{"nnue", "positional", "--out", filepath.Join(dir, "q.hlnn"), filepath.Join(dir, "none.hlnn")}, 2, "none.hlnn"},
	})
	if got, _ := os.ReadFile(text); string(got) != "mine\n" {
		t.Fatal("the text file was replaced")
	}
	if _, err := os.Stat(filepath.Join(dir, "q.hlnn")); !os.IsNotExist(err) {
		t.Fatal("a refused run wrote q.hlnn")
	}
}
