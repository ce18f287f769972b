package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalSpecsBothCLIs runs one list of evaluation specs through
// `hatelab beam --eval` and `hatelab-beam beam --eval` (engine/evalspec in
// both): each names the same evaluation in both (the first line on
// standard error), and each refused spec is refused by both, exit 2, in
// one line.
func TestEvalSpecsBothCLIs(t *testing.T) {
	beamBin := build(t)
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	hatelab := filepath.Join(t.TempDir(), "hatelab")
	build := exec.Command("go", "build", "-o", hatelab, "./cmd/hatelab")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build hatelab: %v\n%s", err, out)
	}
	weights := filepath.Join(root, "datasets", "weights")
	dir := t.TempDir()
	name := func(bin string, extra []string, spec []string) (int, string) {
		args := append(append([]string{"beam"}, extra...), "--beam-width", "2", "--max-pieces", "1", "--json")
		code, _, stderr := run(bin, dir, append(args, spec...)...)
		first, _, _ := strings.Cut(stderr, "\n")
		return code, first
	}
	for _, spec := range [][]string{
		{}, // the default: tuned
		{"--eval", "tuned"},
		{"--eval", "hand"},
		{"--eval", "score"},
		{"--eval", "hand+stack-height"},
		{"--eval", "tuned+sz-two-well"},
		{"--eval", "hand+sz-holes+sz-two-well"},
		{"--eval", "hand-holes"},
		{"--eval", "nnue"},
		{"--eval", "nnue:" + filepath.Join(weights, "gen-00.hlnn")},
		{"--eval", "nnue", "--weights", filepath.Join(weights, "gen-00.hlnn")},
		{"--eval", "weights:" + filepath.Join(weights, "tuned-03.json")},
		{"--weights", filepath.Join(weights, "dnf86.json")},
	} {
		c1, n1 := name(hatelab, nil, spec)
		c2, n2 := name(beamBin, []string{"--engine", "native"}, spec)
		if c1 != 0 || c2 != 0 || !strings.HasPrefix(n1, "evaluation ") || n1 != n2 {
			t.Errorf("%q: hatelab exit %d %q, hatelab-beam exit %d %q", spec, c1, n1, c2, n2)
		}
	}
	for _, spec := range [][]string{
		{"--eval", ""},
		{"--eval", "score@"},
		{"--eval", "tuned@w300"},
		{"--eval", "tuned-score"},
		{"--eval", "hand+sz-holes+sz-holes"},
		{"--eval", "nnue+sz-holes"},
		{"--eval", "tuned", "--weights", filepath.Join(weights, "dnf86.json")},
	} {
		c1, e1 := name(hatelab, nil, spec)
		c2, e2 := name(beamBin, []string{"--engine", "native"}, spec)
		if c1 != 2 || c2 != 2 || !strings.Contains(e1, "--eval") || !strings.Contains(e2, "--eval") {
			t.Errorf("%q: hatelab exit %d %q, hatelab-beam exit %d %q: want both refused (exit 2)", spec, c1, e1, c2, e2)
		}
	}
}
