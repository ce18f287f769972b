package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
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
	args := []string{"cycle", "--quiet", "--dir", dir, "--start", gen0Weights, "--generations", "1", "--master-beam-width", "20",
		"--master-pieces", "15", "--samples", "60", "--target-beam-width", "8", "--target-pieces", "3", "--epochs", "2", "--batch", "16"}
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

// TestNNUECycleOldNames: a folder made before issue 27 renamed the beam
// widths (cycle.json keyed master-width, target-width) and run with the
// old flags (deprecated aliases) resumes to the same report; the new
// flags on it too; a changed value is refused naming the new flag.
func TestNNUECycleOldNames(t *testing.T) {
	dir := t.TempDir()
	common := []string{"cycle", "--quiet", "--dir", dir, "--start", gen0Weights, "--generations", "1",
		"--master-pieces", "15", "--samples", "60", "--target-pieces", "3", "--epochs", "2", "--batch", "16"}
	args := func(names ...string) []string { return append(append([]string{}, common...), names...) }
	out, err := run(t, newNNUECmd(), args("--master-beam-width", "20", "--target-beam-width", "8", "--gate-beam-widths", "5")...)
	if err != nil {
		t.Fatal(err, out)
	}
	path := filepath.Join(dir, "cycle.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.NewReplacer(`"master-beam-width"`, `"master-width"`, `"target-beam-width"`, `"target-width"`).Replace(string(b))
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"old flags", args("--master-width", "20", "--target-width", "8", "--gate-width", "5"), ""},
		{"new flags", args("--master-beam-width", "20", "--target-beam-width", "8"), ""},
		{"old flag, other value", args("--master-width", "20", "--target-width", "9"), "--target-beam-width 9 differs from the 8"},
		{"new flag, other value", args("--master-beam-width", "30", "--target-beam-width", "8"), "--master-beam-width 30 differs from the 20"},
		{"old flag, leading zero", args("--master-width", "020"), `invalid argument "020" for "--master-width" flag: leading zeros`},
	} {
		got, err := run(t, newNNUECmd(), tc.args...)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		var kept []string
		for _, l := range strings.SplitAfter(got, "\n") {
			if !strings.HasPrefix(l, "Flag --") {
				kept = append(kept, l)
			}
		}
		if err != nil || strings.Join(kept, "") != out {
			t.Errorf("%s: %v\n%s\nwant\n%s", tc.name, err, got, out)
		}
		if strings.Contains(tc.name, "old") && !strings.Contains(got, "Flag --master-width has been deprecated, use --master-beam-width") {
			t.Errorf("%s: no deprecation note in %q", tc.name, got)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != old {
		t.Errorf("cycle.json rewritten: %s", after)
	}
}

// TestNNUECycleGateFlags: the gate's flags are checked before any work,
// each error naming its flag; nothing is written in the run's folder.
func TestNNUECycleGateFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--gate-beam-widths", "0"}, "--gate-beam-widths 0: want 1 to"},
		{[]string{"--gate-beam-widths", "1000,010"}, "leading zeros"},
		{[]string{"--gate-beam-widths", "1000,10000,1000"}, "--gate-beam-widths: 1000 given twice"},
		{[]string{"--gate-beam-widths", "99999999999999999999"}, "out of range"},
		{[]string{"--gate-beam-width", "1000,"}, "not a decimal integer"},
		{[]string{"--gate-baseline", "score@w300"}, "--gate-baseline \"score@w300\": no @ settings"},
		{[]string{"--gate-baseline", "nothing"}, "--gate-baseline:"},
		{[]string{"--gate-suite", "openings:0:8:1"}, "--gate-suite:"},
		{[]string{"--gate-suite", "records:20:1"}, `--gate-suite: gate "records:20:1": record wells are the deep test set, never a gate: use a games: suite`},
		{[]string{"--gate-suite", "openings:20:8:101", "--gate-suite", "records:20:1@w1000"}, `gate "records:20:1@w1000": record wells are the deep test set`},
		{[]string{"--gate-suite", "games:20:7:20@w0"}, `--gate-suite: gate "games:20:7:20@w0": setting "@w0": want @wN`},
		{[]string{"--gate-suite", "games:20:7:20@w01000"}, `setting "@w01000": want @wN with N from 1 to`},
		{[]string{"--gate-suite", "games:20:7:20@noq"}, `unknown setting "@noq" (want @wN, one beam width)`},
		{[]string{"--gate-suite", "games:20:7:20@w1000@w10000"}, `gate "games:20:7:20@w1000@w10000": two beam widths: a gate plays at one @wN`},
		{[]string{"--gate-suite", "openings:20:8:101", "--gate-suite", "openings:20:8:101@w1000"}, `suite openings:20:8:101 at beam width 1000 is already gate "openings:20:8:101"`},
		{[]string{"--gate-suite", "openings:20:8:101@w1000", "--gate-beam-widths", "10000"}, "--gate-beam-widths: no gate plays at them (every --gate-suite has its @wN)"},
		{[]string{"--gate-suite", "openings:20:8:101@w1000", "--gate-width", "10000"}, "--gate-beam-widths: no gate plays at them"},
		{[]string{"--gate-suite", "games:20:7:100000"}, `gate "games:20:7:100000": suite`},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		args := append([]string{"cycle", "--quiet", "--dir", dir, "--start", gen0Weights, "--samples", "60", "--batch", "16", "--gate"}, tc.args...)
		_, err := run(t, newNNUECmd(), args...)
		var rt runtimeError
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") || errors.As(err, &rt) {
			t.Errorf("%v: %v, want one line (exit 2) with %q", tc.args, err, tc.wantErr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: the run's folder was made", tc.args)
		}
	}
}

// TestNNUECycleGateBaseline: without --gate-baseline the gate's other arm
// is tuned (the best hand-made evaluation in the arena, tuned-03.json's
// weights); hand and score, the baselines of older runs, still name D&F's
// weights and lines alone.
func TestNNUECycleGateBaseline(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		spec, eval string
	}{
		{nil, "tuned", "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]"},
		{[]string{"--gate-baseline", "hand"}, "hand", "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5]"},
		{[]string{"--gate-baseline", "score"}, "score", "hand:dnf86-score-only[0 0 0 0 0 0 -332.2211 0.5]"},
		{[]string{"--gate-baseline", "weights:../../datasets/weights/tuned-03.json"}, "weights:../../datasets/weights/tuned-03.json", "hand:tuned-03["},
	} {
		cmd := newNNUECycleCmd()
		if err := cmd.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("gate-baseline")
		gs, err := newGates([]string{"openings:2:8:101"}, f.Value.String(), []int{10}, false, "")
		if err != nil || len(gs) != 1 {
			t.Fatalf("%v: %v", tc.args, err)
		}
		g := gs[0]
		if g.Baseline.Spec != tc.spec || !strings.HasPrefix(g.Baseline.Eval.Name(), tc.eval) {
			t.Errorf("%v: baseline %s (%s), want %s (%s)", tc.args, g.Baseline.Spec, g.Baseline.Eval.Name(), tc.spec, tc.eval)
		}
		if tc.args == nil && (f.DefValue != "tuned" || !strings.Contains(f.Usage, "tuned: the best hand-made evaluation in the arena")) {
			t.Errorf("--gate-baseline: default %q, help %q", f.DefValue, f.Usage)
		}
	}
}

// TestNNUECycleGates: --gate-suite, repeated, makes one gate each; a
// suite without @wN plays at --gate-beam-widths (one gate summed over
// them, as a single --gate-suite always did), one with @wN at that width
// alone.
func TestNNUECycleGates(t *testing.T) {
	for _, tc := range []struct {
		suites    []string
		widths    []int
		widthsSet bool
		want      []string
	}{
		{[]string{"openings:20:8:101"}, []int{1000}, false, []string{"openings:20:8:101 [1000] gate-04.jsonl"}},
		{[]string{"openings:20:8:101"}, []int{1000, 10000}, true, []string{"openings:20:8:101 [1000 10000] gate-04.jsonl gate-04-w10000.jsonl"}},
		{[]string{"openings:20:8:101", "games:20:7:20@w1000", "games:20:7:20@w10000"}, []int{1000}, false, []string{
			"openings:20:8:101 [1000] gate-04.jsonl", "games:20:7:20 [1000] gate-04-g2-w1000.jsonl", "games:20:7:20 [10000] gate-04-g3-w10000.jsonl"}},
		{[]string{"games:20:7:20@w10000", "openings:20:8:101"}, []int{1000, 10000}, true, []string{
			"games:20:7:20 [10000] gate-04.jsonl", "openings:20:8:101 [1000 10000] gate-04-g2-w1000.jsonl gate-04-g2-w10000.jsonl"}},
	} {
		gs, err := newGates(tc.suites, "tuned", tc.widths, tc.widthsSet, "run")
		if err != nil || len(gs) != len(tc.want) {
			t.Fatalf("%q: %d gates, %v", tc.suites, len(gs), err)
		}
		for k, g := range gs {
			got := fmt.Sprint(g.Suite.Spec, " ", g.BeamWidths)
			for i, w := range g.BeamWidths {
				got += " " + cycle.GateFile(4, k, i, w)
			}
			if got != tc.want[k] || g.Baseline.Spec != "tuned" || g.Dir != "run" || !g.Quiescence {
				t.Errorf("%q: gate %d: %s (baseline %s, dir %s), want %s", tc.suites, k+1, got, g.Baseline.Spec, g.Dir, tc.want[k])
			}
		}
	}
	// A tiny cycle gated on an opening and a deep well: each gate in the
	// summary and the JSON report, the same when it resumes.
	dir := t.TempDir()
	args := []string{"cycle", "--quiet", "--dir", dir, "--start", gen0Weights, "--generations", "1", "--master-beam-width", "20",
		"--master-pieces", "15", "--samples", "60", "--target-beam-width", "8", "--target-pieces", "3", "--epochs", "2", "--batch", "16",
		"--gate", "--gate-baseline", "score", "--gate-suite", "openings:1:8:1@w5", "--gate-suite", "games:1:1:20@w5"}
	out, err := run(t, newNNUECmd(), args...)
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{"\n  gate 1 of 2, openings:1:8:1 (", ") at beam width 5: ", "\n    beam width 5: gen-01 vs gen-00: ", "; gen-01 vs score: ",
		"\n  gate 2 of 2, games:1:1:20 (", "\n  gate: "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if out2, err := run(t, newNNUECmd(), args...); err != nil || out2 != out {
		t.Fatalf("resume: %v\n%s\nvs\n%s", err, out2, out)
	}
	js, err := run(t, newNNUECmd(), append(args, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var reps []cycle.Report
	if err := json.Unmarshal([]byte(js), &reps); err != nil || len(reps) != 1 || len(reps[0].Gates) != 2 || reps[0].Gates[1].Suite != "games:1:1:20" ||
		(reps[0].NextStart == "") != (reps[0].Gates[0].Pass && reps[0].Gates[1].Pass) {
		t.Fatalf("%v: %s", err, js)
	}
}

// TestNNUEMerge: the mean of a network with itself is a network of twice
// the hidden units with the same values, which the beam plays the same
// game with; a given score weight is recorded.
func TestNNUEMerge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.hlnn")
	out, err := run(t, newNNUECmd(), "merge", "--out", path, "--name", "twice", "--score-weight", "0.25", gen0Weights, gen0Weights)
	if err != nil || !strings.Contains(out, "H64") {
		t.Fatalf("%q: %v", out, err)
	}
	m, err := nnue.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	g0, err := nnue.Load(gen0Weights)
	if err != nil {
		t.Fatal(err)
	}
	if m.Hidden != 2*g0.Hidden || m.ScoreWeight != 0.25 || m.Header.Name != "twice" || !strings.Contains(m.Header.Provenance, "score weight set to 0.25") {
		t.Fatalf("merged: hidden %d, score weight %g, header %+v", m.Hidden, m.ScoreWeight, m.Header)
	}
	rows := make([]uint16, 16)
	for i := range 200 {
		rows[15-i%16] |= uint16(1 << (i * 7 % 10))
		if a, b := m.Evaluate(rows), g0.Evaluate(rows); math.Abs(a-b) > 1e-5 {
			t.Fatalf("rows %v: merged %g, gen-00 %g", rows, a, b)
		}
	}
	// The same network at half weight twice, without the score weight: the
	// same beam game as gen-00's.
	path2 := filepath.Join(dir, "m2.hlnn")
	if _, err := run(t, newNNUECmd(), "merge", "--out", path2, gen0Weights, gen0Weights); err != nil {
		t.Fatal(err)
	}
	a, err := run(t, newBeamCmd(), "--json", "--beam-width", "20", "--max-pieces", "30", "--eval", "nnue", "--weights", path2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(t, newBeamCmd(), "--json", "--beam-width", "20", "--max-pieces", "30", "--eval", "nnue", "--weights", gen0Weights)
	if err != nil {
		t.Fatal(err)
	}
	var ga, gb struct{ Keys string }
	last := func(out string) []byte {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return []byte(lines[len(lines)-1])
	}
	if err := json.Unmarshal(last(a), &ga); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(last(b), &gb); err != nil {
		t.Fatal(err)
	}
	if ga.Keys == "" || ga.Keys != gb.Keys {
		t.Fatalf("merged network's game %q, gen-00's %q", ga.Keys, gb.Keys)
	}
}

// TestNNUEMergeRescale: a merge whose int16 error bound would pass the
// engine's is rescaled as a whole (output weights, bias and score weight
// by one factor s < 1), which keeps every ranking: gen-00 merged with
// itself at weights k, k (k gen-00 in float, s k after the rescale) plays
// gen-00's beam game, with the score weight s 2k times gen-00's, and the
// bound under 0.95; below the threshold nothing is rescaled.
func TestNNUEMergeRescale(t *testing.T) {
	dir := t.TempDir()
	g0, err := nnue.Load(gen0Weights)
	if err != nil {
		t.Fatal(err)
	}
	game := func(weights string) string {
		t.Helper()
		out, err := run(t, newBeamCmd(), "--json", "--beam-width", "20", "--max-pieces", "40", "--eval", "nnue", "--weights", weights)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var g struct{ Keys string }
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &g); err != nil || g.Keys == "" {
			t.Fatalf("%q: %v", lines[len(lines)-1], err)
		}
		return g.Keys
	}
	want := game(gen0Weights)
	for _, tc := range []struct {
		k       float64
		rescale bool
	}{{1, false}, {3, false}, {8, true}, {40, true}} {
		path := filepath.Join(dir, "m.hlnn")
		kw := strconv.FormatFloat(tc.k, 'g', -1, 64)
		if _, err := run(t, newNNUECmd(), "merge", "--out", path, "--weights", kw+","+kw, gen0Weights, gen0Weights); err != nil {
			t.Fatal(err)
		}
		m, err := nnue.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		q, err := nnue.Quantize(m, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		s := m.ScoreWeight / (2 * tc.k * g0.ScoreWeight)
		scaled := strings.Contains(m.Header.Provenance, "for the int16 error bound")
		if scaled != tc.rescale || tc.rescale && !(s < 1 && q.ErrorBound() <= 0.95) || !tc.rescale && math.Abs(s-1) > 1e-12 {
			t.Errorf("k %g: rescaled %v (s %.6g, error bound %.4g), want %v", tc.k, scaled, s, q.ErrorBound(), tc.rescale)
		}
		if d := math.Abs(float64(m.B2) - s*2*tc.k*float64(g0.B2)); d > 1e-6*math.Abs(float64(m.B2)) {
			t.Errorf("k %g: B2 %g, want %g", tc.k, m.B2, s*2*tc.k*float64(g0.B2))
		}
		if got := game(path); got != want {
			t.Errorf("k %g (s %.6g): game %q, gen-00's %q", tc.k, s, got, want)
		}
	}
}

// TestNNUESoup: the command writes nnue.Soup of the networks it reads
// (the mean by default; --weights and --name recorded), and a soup of a
// network with itself is that network: the same beam game.
func TestNNUESoup(t *testing.T) {
	dir := t.TempDir()
	a, b := "../../datasets/weights/teacher/gen-03.hlnn", "../../datasets/weights/teacher/gen-04.hlnn"
	for _, tc := range []struct {
		weights []float64
		args    []string
	}{
		{[]float64{0.5, 0.5}, nil},
		{[]float64{0.25, 0.75}, []string{"--weights", "0.25,0.75"}},
	} {
		path := filepath.Join(dir, "s.hlnn")
		out, err := run(t, newNNUECmd(), append(append([]string{"soup", "--out", path, "--name", "two"}, tc.args...), a, b)...)
		if err != nil || !strings.Contains(out, "H32") {
			t.Fatalf("%q: %v", out, err)
		}
		s, err := nnue.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		na, _ := nnue.Load(a)
		nb, _ := nnue.Load(b)
		want, err := nnue.Soup([]*nnue.Network{na, nb}, tc.weights)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.W1, want.W1) || !slices.Equal(s.B1, want.B1) || !slices.Equal(s.W2, want.W2) || s.B2 != want.B2 {
			t.Fatalf("weights %v: the file is not nnue.Soup of the networks", tc.weights)
		}
		if s.Header.Name != "two" || !strings.Contains(s.Header.Provenance, fmt.Sprintf("%g x %s (crc %08x)", tc.weights[1], b, nb.Header.CRC32)) {
			t.Fatalf("header %+v", s.Header)
		}
	}
	// Weights that sum to 1 only up to rounding are a mean.
	if _, err := run(t, newNNUECmd(), "soup", "--out", filepath.Join(dir, "r.hlnn"), "--weights", "0.1,0.2,0.7", a, b, a); err != nil {
		t.Fatalf("--weights 0.1,0.2,0.7: %v", err)
	}
	self := filepath.Join(dir, "self.hlnn")
	if _, err := run(t, newNNUECmd(), "soup", "--out", self, gen0Weights, gen0Weights); err != nil {
		t.Fatal(err)
	}
	game := func(weights string) string {
		out, err := run(t, newBeamCmd(), "--json", "--beam-width", "20", "--max-pieces", "30", "--eval", "nnue", "--weights", weights)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var g struct{ Keys string }
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &g); err != nil {
			t.Fatal(err)
		}
		return g.Keys
	}
	if ga, gb := game(self), game(gen0Weights); ga == "" || ga != gb {
		t.Fatalf("soup of gen-00 with itself played %q, gen-00 %q", ga, gb)
	}
}
