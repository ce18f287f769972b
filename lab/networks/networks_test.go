package networks

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
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

// gatedRun plays generation 1's gates of specs (SUITE[@wN], each at
// widths without @wN) in a temp folder, gen-02-small against gen-00 with
// "score" as the baseline, and writes its report (the scale run's first,
// with these gates' verdict) as the cycle does: the folder and the
// report.
func gatedRun(t *testing.T, specs []string, widths []int) (string, cycle.Report) {
	t.Helper()
	dir := t.TempDir()
	load := func(name string) *nnue.Network {
		n, err := nnue.Load(lab.RepoPath("datasets/weights/" + name))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	gs, err := cycle.ParseGates(specs, widths, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := arena.ParseArm("score", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range gs {
		gs[i].Baseline, gs[i].Dir = base, dir
	}
	v, err := gs.Judge(context.Background(), 1, "gen-00", load("gen-00.hlnn"), load("gen-02-small.hlnn"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(lab.RepoPath("datasets/weights/scale-run/gen-01.report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r cycle.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r.Gate, r.Gates, r.NextStart = v.Line, v.Gates, ""
	if !v.Keep {
		r.NextStart = filepath.Join(dir, "gen-00.hlnn")
	}
	writeReport(t, dir, r)
	return dir, r
}

func writeReport(t *testing.T, dir string, r cycle.Report) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen-01.report.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies a folder's files into a new temp folder.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	es, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// TestGenerationsGates: a generation's gate matches, read from a folder
// as the cycle leaves it, one gate at two widths or two gates (the second
// gate's file gate-01-g2-w10.jsonl): every gate's matches, in the
// cycle's gate order then the gate's widths, each naming its gate, suite
// and width, the table a column pair per gate; a report older than
// several gates (no gates list) reads as before; a folder without the
// matches has none, one with some but not all is an error.
func TestGenerationsGates(t *testing.T) {
	type want struct {
		gate      int
		suite     string
		beamWidth int
	}
	one, oneRep := gatedRun(t, []string{"openings:2:8:1"}, []int{30, 10})
	two, twoRep := gatedRun(t, []string{"openings:2:8:1", "games:1:1:20@w10"}, []int{30, 10})
	openings30, openings10, games10 := want{1, "openings:2:8:1", 30}, want{1, "openings:2:8:1", 10}, want{2, "games:1:1:20", 10}
	// The same folders with the report of a cycle older than several
	// gates (its gate line alone).
	oldReport := func(dir string, r cycle.Report) string {
		d := copyDir(t, dir)
		r.Gates = nil
		writeReport(t, d, r)
		return d
	}
	// The two gates' folder with the second gate failed (as the report
	// says; the table reads it there) and the generation rejected.
	failed := copyDir(t, two)
	fr := twoRep
	fr.Gates = slices.Clone(fr.Gates)
	fr.Gates[1].Pass, fr.NextStart = false, filepath.Join(failed, "gen-00.hlnn")
	writeReport(t, failed, fr)
	without := func(dir string, files ...string) string {
		d := copyDir(t, dir)
		for _, f := range files {
			if err := os.Remove(filepath.Join(d, f)); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	for _, tc := range []struct {
		name    string
		dir     string
		want    []want
		headers []string // the gate columns
		cells   []string // in the gate columns, in order
		err     string
	}{
		{name: "one gate, two widths", dir: one, want: []want{openings30, openings10},
			headers: []string{"gate: against its start", "gate: against the baseline"},
			cells:   []string{"width 30: gen-00: ", "; width 10: gen-00: ", "width 30: score: ", "; width 10: score: "}},
		{name: "one gate, an old report", dir: oldReport(one, oneRep), want: []want{openings30, openings10},
			headers: []string{"gate: against its start", "gate: against the baseline"},
			cells:   []string{"width 30: gen-00: ", "; width 10: gen-00: ", "width 30: score: ", "; width 10: score: "}},
		{name: "two gates", dir: two, want: []want{openings30, openings10, games10},
			headers: []string{"gate 1 (openings:2:8:1): against its start", "gate 1: against the baseline",
				"gate 2 (games:1:1:20): against its start", "gate 2: against the baseline"},
			cells: []string{"width 30: gen-00: ", "; width 10: gen-00: ", "width 30: score: ", "; width 10: score: ", "gen-00: ", "score: "}},
		{name: "two gates, the second failed", dir: failed, want: []want{openings30, openings10, games10},
			headers: []string{"gate 1 (openings:2:8:1): against its start", "gate 1: against the baseline",
				"gate 2 (games:1:1:20): against its start", "gate 2: against the baseline"},
			cells: []string{"width 30: gen-00: ", "; width 10: gen-00: ", "width 30: score: ", "; width 10: score: ", "gen-00: ", " (failed)", "score: "}},
		{name: "two gates, an old report", dir: oldReport(two, twoRep), want: []want{openings30, openings10},
			headers: []string{"gate: against its start", "gate: against the baseline"},
			cells:   []string{"width 30: gen-00: ", "; width 10: gen-00: ", "width 30: score: ", "; width 10: score: "}},
		{name: "no matches", dir: without(two, "gate-01.jsonl", "gate-01-w10.jsonl", "gate-01-g2-w10.jsonl")},
		{name: "the second gate's match missing", dir: without(two, "gate-01-g2-w10.jsonl"), err: "gate-01-g2-w10.jsonl: missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, err := Generations(tc.dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != 1 || len(gs[0].Gates) != len(tc.want) {
				t.Fatalf("%d generations, gates %+v", len(gs), gs[0].Gates)
			}
			rep := gs[0].Report
			for i, m := range gs[0].Gates {
				if (want{m.Gate, m.Suite, m.BeamWidth}) != tc.want[i] {
					t.Fatalf("match %d: gate %d, %s at width %d, want %+v", i, m.Gate, m.Suite, m.BeamWidth, tc.want[i])
				}
				if m.VsPrev.Baseline != "gen-00" || m.VsBase.Baseline != "score" || m.VsPrev.N == 0 || m.VsPrev.N != m.VsBase.N {
					t.Fatalf("match %d: %+v, %+v", i, m.VsPrev, m.VsBase)
				}
				if len(rep.Gates) > 0 && (m.Pass != rep.Gates[m.Gate-1].Pass || m.VsPrev.Diff.Estimate != rep.Gates[m.Gate-1].Widths[0].VsPrev.Diff.Estimate && m.BeamWidth == rep.Gates[m.Gate-1].Widths[0].BeamWidth) {
					t.Fatalf("match %d: pass %v, %+v; the report's gate: %+v", i, m.Pass, m.VsPrev.Diff, rep.Gates[m.Gate-1])
				}
			}
			tab := GenerationTable(gs)
			if got := tab.Headers[6:]; strings.Join(got, "|") != strings.Join(tc.headers, "|") {
				t.Fatalf("gate columns %q, want %q", got, tc.headers)
			}
			row := strings.Join(tab.Rows[0][6:], "|")
			at := 0
			for _, c := range tc.cells {
				i := strings.Index(row[at:], c)
				if i < 0 {
					t.Fatalf("gate cells %q lack %q after %d", row, c, at)
				}
				at += i + len(c)
			}
			// A failed gate says so; a cycle of one gate says rejected.
			for k, g := range rep.Gates {
				if len(tc.headers) > 2 && strings.HasSuffix(tab.Rows[0][6+2*k], " (failed)") == g.Pass {
					t.Fatalf("gate %d passed %v: %q", k+1, g.Pass, tab.Rows[0][6+2*k])
				}
			}
			if len(tc.headers) == 2 && strings.HasSuffix(tab.Rows[0][6], " (rejected)") != (rep.NextStart != "") {
				t.Fatalf("next start %q: %q", rep.NextStart, tab.Rows[0][6])
			}
		})
	}
	// The old layout reads the same from either report: one table.
	a, err := Generations(one)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generations(oldReport(one, oneRep))
	if err != nil {
		t.Fatal(err)
	}
	if ta, tb := GenerationTable(a), GenerationTable(b); fmt.Sprint(ta.Headers, ta.Rows) != fmt.Sprint(tb.Headers, tb.Rows) {
		t.Fatalf("a report with its gates %q, without %q", ta.Rows, tb.Rows)
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
