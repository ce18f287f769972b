package networks

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/stats"
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
		if g.Report.Generation != i+1 || len(g.Gates) != 1 || g.Gates[0].BeamWidth != 1000 || g.Gates[0].VsBase.Baseline != "hand" {
			t.Fatalf("generation %d: %+v", i+1, g)
		}
		for _, c := range []*stats.Comparison{g.Gates[0].VsPrev, g.Gates[0].VsBase} {
			want := fmt.Sprintf("vs %s: %+.2f lines", c.Baseline, c.Diff.Estimate)
			if !strings.Contains(g.Report.Gate, want) {
				t.Fatalf("generation %d: the gate line %q lacks %q", i+1, g.Report.Gate, want)
			}
		}
	}
	// A rejected generation's successor is judged against the same start
	// (the snapshot's generation 5 was rejected: 6 started from 4).
	if len(gs) >= 6 && (gs[4].Report.NextStart == "" || gs[5].Gates[0].VsPrev.Baseline != "gen-04") {
		t.Fatalf("generation 6 judged against %s (generation 5's next start %q)", gs[5].Gates[0].VsPrev.Baseline, gs[4].Report.NextStart)
	}
	tab := GenerationTable(gs)
	if len(tab.Rows) != len(gs) || !strings.Contains(tab.Rows[1][6], "+5.60") {
		t.Fatalf("table %+v", tab.Rows)
	}
	if _, err := Generations(t.TempDir()); err == nil {
		t.Fatal("an empty folder should be an error")
	}
}

// TestGenerationsWidths: a generation gated at two widths against lines
// alone reads both matches, the first width first, and the table names
// each width and the baseline.
func TestGenerationsWidths(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(lab.RepoPath("datasets/weights/scale-run/gen-01.report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen-01.report.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(name string) *nnue.Network {
		n, err := nnue.Load(lab.RepoPath("datasets/weights/" + name))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	s, err := arena.ParseSuite("openings:2:8:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := arena.ParseArm("score", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := cycle.Gate{Suite: s, BeamWidths: []int{30, 10}, Baseline: base, Quiescence: true, Dir: dir}
	if _, _, err := g.Judge(context.Background(), 1, "gen-00", load("gen-00.hlnn"), load("gen-02-small.hlnn")); err != nil {
		t.Fatal(err)
	}
	gs, err := Generations(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || len(gs[0].Gates) != 2 || gs[0].Gates[0].BeamWidth != 30 || gs[0].Gates[1].BeamWidth != 10 {
		t.Fatalf("%+v", gs)
	}
	for _, m := range gs[0].Gates {
		if m.VsPrev.Baseline != "gen-00" || m.VsBase.Baseline != "score" || m.VsPrev.N != 2 || m.VsBase.N != 2 {
			t.Fatalf("width %d: %+v, %+v", m.BeamWidth, m.VsPrev, m.VsBase)
		}
	}
	row := GenerationTable(gs).Rows[0]
	if !strings.Contains(row[6], "width 30: gen-00: ") || !strings.Contains(row[6], "; width 10: gen-00: ") || !strings.Contains(row[7], "width 10: score: ") {
		t.Fatalf("row %q", row)
	}
}

// TestGenerationsUngated: a run without gates (the openings run) reads
// its reports, and its table has no gate columns.
func TestGenerationsUngated(t *testing.T) {
	gs, err := Generations("datasets/weights/openings-run")
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) < 6 {
		t.Fatalf("%d generations", len(gs))
	}
	tab := GenerationTable(gs)
	if len(tab.Headers) != 6 || len(tab.Rows) != len(gs) || len(tab.Rows[0]) != 6 {
		t.Fatalf("table %q: %d rows of %d cells", tab.Headers, len(tab.Rows), len(tab.Rows[0]))
	}
	if r := gs[0].Report; r.Gate != "" || len(gs[0].Gates) != 0 || !strings.Contains(tab.Rows[0][1], fmt.Sprintf("%d lines", r.MasterScore)) {
		t.Fatalf("generation 1: %+v, row %q", r, tab.Rows[0])
	}
}

func TestPText(t *testing.T) {
	for p, want := range map[float64]string{0.28: "p = 0.28", 0.0015: "p = 0.0015", 4.6e-5: "p = 4.6·10⁻⁵", 1.3e-10: "p = 1.3·10⁻¹⁰", 7e-16: "p < 10⁻¹²"} {
		if got := pText(p); got != want {
			t.Errorf("pText(%g) = %q, want %q", p, got, want)
		}
	}
}
