package networks

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/lab"
)

func gen0(t *testing.T) *nnue.Network {
	n, err := nnue.Load(lab.RepoPath("datasets/weights/gen-00.hlnn"))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFilled(t *testing.T) {
	// top row 100, then empty, empty, bottom row 001
	p := 0b100_000_000_001
	if !Filled(p, 0, 0) || Filled(p, 1, 0) || !Filled(p, 2, 3) || Filled(p, 0, 3) {
		t.Fatal("Filled reads the pattern wrongly")
	}
}

func TestWindowsOrdered(t *testing.T) {
	n := gen0(t)
	liked, disliked, err := Windows(n, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(liked) != 5 || len(disliked) != 5 {
		t.Fatal("wrong counts")
	}
	for i := 1; i < 5; i++ {
		if liked[i].Weight > liked[i-1].Weight || disliked[i].Weight < disliked[i-1].Weight {
			t.Fatal("not ordered")
		}
	}
	if liked[4].Weight < disliked[4].Weight {
		t.Fatal("liked below disliked")
	}
	if svg := WindowStrip("liked", liked, 5); !strings.Contains(string(svg), "<svg") {
		t.Fatal("no svg")
	}
}

func TestSummarise(t *testing.T) {
	f := Summarise([]Point{{-1, -0.5}, {0, 0}, {1, 0.5}})
	if f.N != 3 || math.Abs(f.Corr-1) > 1e-12 || math.Abs(f.MSE-0.5/3) > 1e-12 {
		t.Fatalf("%+v", f)
	}
}

func TestBuildAndTrainTiny(t *testing.T) {
	n := gen0(t)
	ctx := context.Background()
	ds, err := Build(ctx, DataConfig{Net: n, MasterBeamWidth: 4, Samples: 40, TargetBeamWidth: 4, TargetPieces: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Samples) != 40 || len(ds.Targets) != 40 {
		t.Fatalf("%d samples", len(ds.Samples))
	}
	for _, x := range ds.Targets {
		if x < -1 || x > 1 {
			t.Fatalf("target %v", x)
		}
	}
	cache := filepath.Join(t.TempDir(), "ds.json")
	if _, err := Build(ctx, DataConfig{Net: n, MasterBeamWidth: 4, Samples: 40, TargetBeamWidth: 4, TargetPieces: 2, Seed: 1, Cache: cache}); err != nil {
		t.Fatal(err)
	}
	ds2, err := LoadDataset(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds2.Samples) != 40 || len(ds2.Samples[7].Feats) != len(ds.Samples[7].Feats) || ds2.Samples[7].Feats[3] != ds.Samples[7].Feats[3] {
		t.Fatal("cached samples differ")
	}
	for i := range ds.Targets {
		if ds.Targets[i] != ds2.Targets[i] || ds.Wells[i] != ds2.Wells[i] {
			t.Fatal("not deterministic")
		}
	}
	v := NewLossView("loss")
	res, err := train.Train(ctx, train.Config{Features: n.Features, Hidden: n.Hidden, Activation: n.Activation, Start: n,
		MaxEpochs: 2, Batch: 8, Seed: 1, OnEpoch: v.OnEpoch}, ds.Samples)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Epochs) != len(res.Epochs) {
		t.Fatal("loss view missed epochs")
	}
	if h, err := v.HTML(); err != nil || !strings.Contains(h, "data:image/png;base64,") {
		t.Fatal(err)
	}
	pts := Predictions(res.Net, ds.Samples)
	p, err := Scatter("fit", []string{"all"}, map[string][]Point{"all": pts})
	if err != nil || p == nil {
		t.Fatal(err)
	}
}

func TestSplit(t *testing.T) {
	s := make([]train.Sample, 10)
	for i := range s {
		s[i].Target = float32(i)
	}
	in, out := Split(s, 0.2, 1)
	if len(in) != 8 || len(out) != 2 {
		t.Fatal(len(in), len(out))
	}
	seen := map[float32]bool{}
	for _, x := range append(in, out...) {
		seen[x.Target] = true
	}
	if len(seen) != 10 {
		t.Fatal("not a partition")
	}
	in2, _ := Split(s, 0.2, 1)
	if in2[0].Target != in[0].Target {
		t.Fatal("not seeded")
	}
}

// TestGenerations reads the committed scale-run snapshot: its generations
// in order, each gate's comparisons as the report's gate line states them.
func TestGenerations(t *testing.T) {
	gs, err := Generations("datasets/weights/scale-run")
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) < 2 {
		t.Fatalf("%d generations", len(gs))
	}
	for i, g := range gs {
		if g.Report.Generation != i+1 || g.VsPrev == nil || g.VsHand == nil {
			t.Fatalf("generation %d: %+v", i+1, g)
		}
		for _, c := range []*arena.Comparison{g.VsPrev, g.VsHand} {
			want := fmt.Sprintf("vs %s: %+.2f lines", c.Baseline, c.Diff.Estimate)
			if !strings.Contains(g.Report.Gate, want) {
				t.Fatalf("generation %d: the gate line %q lacks %q", i+1, g.Report.Gate, want)
			}
		}
	}
	// A rejected generation's successor is judged against the same start
	// (the snapshot's generation 5 was rejected: 6 started from 4).
	if len(gs) >= 6 && (gs[4].Report.NextStart == "" || gs[5].VsPrev.Baseline != "gen-04") {
		t.Fatalf("generation 6 judged against %s (generation 5's next start %q)", gs[5].VsPrev.Baseline, gs[4].Report.NextStart)
	}
	tab := GenerationTable(gs)
	if len(tab.Rows) != len(gs) || !strings.Contains(tab.Rows[1][6], "+5.60") {
		t.Fatalf("table %+v", tab.Rows)
	}
	if _, err := Generations(t.TempDir()); err == nil {
		t.Fatal("an empty folder should be an error")
	}
}
