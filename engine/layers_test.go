package engine

import (
	"fmt"
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/hatelab/hatelab"

// tiers lists every engine package by tier (doc.go's first paragraph): a
// package imports engine packages of its own tier or lower ones only. A
// new package must be placed here.
var tiers = map[string]int{
	"engine": 1, "engine/hatetris": 1, "engine/replaycodec": 1, "engine/nnue": 1, "engine/progress": 1,
	"engine/fit": 1, "engine/rankcorr": 1, "engine/stats": 1,
	"engine/bfs": 2, "engine/beam": 2, "engine/eval": 2, "engine/evalspec": 2, "engine/flats": 2, "engine/classic": 2,
	"engine/arena": 3, "engine/arena/tune": 3, "engine/flats/experiment": 3, "engine/nnue/samples": 3,
	"engine/nnue/targets": 3, "engine/nnue/gen0": 3, "engine/nnue/train": 3, "engine/nnue/cycle": 3, "engine/agreement": 3,
}

// pkg is what the rules read of one package.
type pkg struct {
	path          string // relative to the module: engine/beam
	imports, deps []string
}

// forbidden are the prefixes no engine package may depend on, even
// indirectly: the notebooks' and the CLIs' code, the Beam module,
// plotting and GoNB.
var forbidden = []string{module + "/lab", module + "/cmd", module + "/dist", "gonum.org/v1/plot", "github.com/janpfeifer/gonb"}

// checkLayers returns every broken rule among pkgs.
func checkLayers(pkgs []pkg) []string {
	var bad []string
	for _, p := range pkgs {
		if !strings.HasPrefix(p.path, "engine") {
			continue
		}
		tier, ok := tiers[p.path]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s is in no tier (add it to tiers and to engine/doc.go)", p.path))
			continue
		}
		for _, d := range p.deps {
			for _, f := range forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					bad = append(bad, fmt.Sprintf("%s depends on %s", p.path, d))
				}
			}
		}
		for _, im := range p.imports {
			if strings.HasPrefix(im, "github.com/gomlx/") && p.path != "engine/nnue/train" {
				bad = append(bad, fmt.Sprintf("%s imports GoMLX (%s): only engine/nnue/train may", p.path, im))
			}
			rel, ok := strings.CutPrefix(im, module+"/")
			if !ok || !strings.HasPrefix(rel, "engine") {
				continue
			}
			if t, known := tiers[rel]; known && t > tier {
				bad = append(bad, fmt.Sprintf("%s (tier %d) imports %s (tier %d)", p.path, tier, rel, t))
			}
		}
	}
	return bad
}

// TestLayers holds the tiers over the module's packages as go list
// reports them.
func TestLayers(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \",\"}} {{join .Deps \",\"}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line+"  ", " ", 3)
		rel, _ := strings.CutPrefix(f[0], module+"/")
		pkgs = append(pkgs, pkg{rel, strings.Split(strings.TrimSpace(f[1]), ","), strings.Split(strings.TrimSpace(f[2]), ",")})
	}
	seen := 0
	for _, p := range pkgs {
		if _, ok := tiers[p.path]; ok {
			seen++
		}
	}
	if seen != len(tiers) {
		t.Errorf("go list found %d of the %d tiered packages: a package was moved or renamed", seen, len(tiers))
	}
	for _, b := range checkLayers(pkgs) {
		t.Error(b)
	}
}

// TestLayersCatch: the rules catch deliberate bad imports.
func TestLayersCatch(t *testing.T) {
	for _, tc := range []struct {
		p    pkg
		want string
	}{
		{pkg{"engine/beam", []string{module + "/engine/arena"}, nil}, "engine/beam (tier 2) imports engine/arena (tier 3)"},
		{pkg{"engine/hatetris", []string{module + "/engine/eval"}, nil}, "(tier 1) imports engine/eval (tier 2)"},
		{pkg{"engine/eval", nil, []string{module + "/lab"}}, "engine/eval depends on " + module + "/lab"},
		{pkg{"engine/arena", nil, []string{"gonum.org/v1/plot/plotter"}}, "depends on gonum.org/v1/plot/plotter"},
		{pkg{"engine/nnue/cycle", []string{"github.com/gomlx/gomlx/pkg/core/graph"}, nil}, "only engine/nnue/train may"},
		{pkg{"engine/newthing", nil, nil}, "engine/newthing is in no tier"},
	} {
		got := checkLayers([]pkg{tc.p})
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s: %v, want one error with %q", path.Base(tc.p.path), got, tc.want)
		}
	}
	if got := checkLayers([]pkg{{"engine/nnue/train", []string{"github.com/gomlx/gomlx/pkg/core/graph", module + "/engine/nnue"}, nil}}); len(got) != 0 {
		t.Errorf("train importing GoMLX and nnue: %v", got)
	}
}
