package arena

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
)

func TestGate(t *testing.T) {
	load := func(name string) *nnue.Network {
		n, err := nnue.Load(filepath.Join("..", "..", "datasets", "weights", name))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	gen0, gen2 := load("gen-00.hlnn"), load("gen-02-small.hlnn")
	s, err := ParseSuite("openings:4:8:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g := Gate{Suite: s, BeamWidth: 60, Quiescence: true, Dir: dir}
	keep, verdict, err := g.Judge(context.Background(), 1, "gen-00", gen0, gen0)
	if err != nil || !keep || !strings.Contains(verdict, "kept") {
		t.Fatalf("a network against itself: keep %v, %q, %v", keep, verdict, err)
	}
	keep, verdict, err = g.Judge(context.Background(), 2, "gen-01", gen2, gen0)
	if err != nil || keep || !strings.Contains(verdict, "rejected: generation 3 starts from gen-01") {
		t.Fatalf("generation 0 after gen-02-small: keep %v, %q, %v", keep, verdict, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gate-02.jsonl")); err != nil {
		t.Fatalf("the gate's games were not kept: %v", err)
	}
}
