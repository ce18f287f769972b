package cycle

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/stats"
)

func TestGateJudge(t *testing.T) {
	load := func(name string) *nnue.Network {
		n, err := nnue.Load(filepath.Join("..", "..", "..", "datasets", "weights", name))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	gen0, gen2 := load("gen-00.hlnn"), load("gen-02-small.hlnn")
	s, err := arena.ParseSuite("openings:4:8:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g := Gate{Suite: s, BeamWidths: []int{60}, Quiescence: true, Dir: dir}
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
	// The zero baseline is hand (D&F's weights); evalspec.BestHand, the CLI's
	// default, is tuned: each verdict names its baseline, each match file
	// holds its games.
	tuned, err := arena.ParseArm(evalspec.BestHand, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		base       arena.Arm
		name, eval string
	}{
		{arena.Arm{}, "hand", "hand:dnf86["},
		{tuned, "tuned", "hand:tuned-03["},
	} {
		d := t.TempDir()
		g := Gate{Suite: s, BeamWidths: []int{20}, Quiescence: true, Baseline: tc.base, Dir: d}
		_, verdict, err := g.Judge(context.Background(), 1, "gen-00", gen0, gen0)
		if err != nil || !strings.Contains(verdict, "gen-01 vs "+tc.name) {
			t.Fatalf("baseline %q: %q, %v", tc.name, verdict, err)
		}
		m, err := arena.ReadMatch(filepath.Join(d, "gate-01.jsonl"), "gen-00")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, gm := range m.Games {
			found = found || gm.Arm == tc.name && strings.HasPrefix(gm.Eval, tc.eval)
		}
		if !found {
			t.Errorf("baseline %q: no game of eval %s in the gate's file", tc.name, tc.eval)
		}
	}
}

// TestGateWidths: a gate at two widths against lines alone keeps each
// width's games in its own file and names both in its verdict; its keep
// rule is the sign of the summed paired differences over both widths.
func TestGateWidths(t *testing.T) {
	gen0, err := nnue.Load(filepath.Join("..", "..", "..", "datasets", "weights", "gen-00.hlnn"))
	if err != nil {
		t.Fatal(err)
	}
	gen2, err := nnue.Load(filepath.Join("..", "..", "..", "datasets", "weights", "gen-02-small.hlnn"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := arena.ParseSuite("openings:3:8:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := arena.ParseArm("score", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g := Gate{Suite: s, BeamWidths: []int{20, 40}, Baseline: base, Quiescence: true, Dir: dir}
	keep, verdict, err := g.Judge(context.Background(), 3, "gen-02", gen0, gen2)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"beam width 20: gen-03 vs gen-02", "beam width 40: gen-03 vs gen-02", "gen-03 vs score"} {
		if !strings.Contains(verdict, want) {
			t.Errorf("verdict %q lacks %q", verdict, want)
		}
	}
	var sum float64
	for _, f := range []string{"gate-03.jsonl", "gate-03-w40.jsonl"} {
		m, err := arena.ReadMatch(filepath.Join(dir, f), "gen-02")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		st := m.Standings // arms in the order their games finished, the start first
		a := slices.Index(st.Arms, "gen-03")
		if len(st.Arms) != 3 || a < 1 || !slices.Contains(st.Arms, "score") {
			t.Fatalf("%s: arms %v", f, st.Arms)
		}
		c := stats.Compare("gen-03", "gen-02", st.Scores[a], st.Scores[0], 10, 1, 0.95, nil)
		if c.N != 3 {
			t.Fatalf("%s: %d pairs", f, c.N)
		}
		for _, d := range c.Diffs {
			sum += d
		}
	}
	if keep != (sum >= 0) {
		t.Errorf("keep %v with summed difference %g", keep, sum)
	}
	if _, _, err := (Gate{Suite: s}).Judge(context.Background(), 1, "gen-00", gen0, gen0); err == nil {
		t.Error("a gate without widths judged")
	}
}
