package cycle

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

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/rankcorr"
)

// TestHeldOutRanks: on a committed run, the generation's network ranks
// its held-out targets as its report says (the same wells; the int16
// network within rounding of the float one's valid Spearman); a hand-made
// evaluation's ranks are Spearman's over the same wells, counted here
// from the files; live wells are those with a target above -1.
func TestHeldOutRanks(t *testing.T) {
	const dir = "../../../datasets/weights/distill"
	var rep Report
	if !load(filepath.Join(dir, "gen-02.report.json"), &rep) {
		t.Fatal("no report")
	}
	ne, err := eval.LoadNNUE(filepath.Join(dir, "gen-02.hlnn"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := HeldOutRanks(dir, 2, nil, []eval.Evaluator{ne, tunedEval()})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Wells != rep.ValidSamples || math.Abs(rs[0].Spearman-rep.ValidSpearman) > 0.002 {
		t.Errorf("the generation's network: %+v, its report: %d wells, Spearman %v", rs[0], rep.ValidSamples, rep.ValidSpearman)
	}
	// tuned's ranks, counted from the files.
	r := hatetris.Standard()
	sf, err := samples.Read(filepath.Join(dir, "gen-02", "samples.bin"), r)
	if err != nil {
		t.Fatal(err)
	}
	var tf targetsFile
	if !load(filepath.Join(dir, "gen-02", "targets.json"), &tf) {
		t.Fatal("no targets")
	}
	w := tunedEval().NewWorker(r)
	var v, tg, lv, lt []float64
	buf := make([]int32, 0, ne.Quantized().Features().Active())
	for i := range sf.Wells {
		buf = ne.Quantized().Features().Append(buf[:0], sf.Wells[i][r.Bar:r.Depth])
		if !nnue.HeldOut(buf) {
			continue
		}
		x, y := w.Evaluate(&sf.Wells[i], 0, 0), float64(tf.Targets[i])
		v, tg = append(v, x), append(tg, y)
		if y != -1 {
			lv, lt = append(lv, x), append(lt, y)
		}
	}
	want := Ranks{Eval: tunedEval().Name(), Wells: len(v), Live: len(lv), Spearman: rankcorr.Spearman(v, tg), LiveSpearman: rankcorr.Spearman(lv, lt)}
	want.CellSpearman, want.CellWells = rs[1].CellSpearman, rs[1].CellWells // groupSpearman's own test covers them
	if rs[1] != want {
		t.Errorf("tuned: %+v, counted %+v", rs[1], want)
	}
	if want.CellWells == 0 || want.CellWells > want.Live || !(rs[1].CellSpearman >= -1 && rs[1].CellSpearman <= 1) {
		t.Errorf("tuned within equal cells: %v over %d of %d live wells", rs[1].CellSpearman, rs[1].CellWells, want.Live)
	}
	if want.Live == 0 || want.Live == want.Wells {
		t.Errorf("the run's held-out wells should have live and dead targets: %+v", want)
	}
}

// TestHeldOutRanksRefused: a missing generation, a network of another
// geometry or one that splits the wells otherwise than the generation's
// report, targets of other wells or outside [-1, 1], a targets file past its
// bound or not JSON, an evaluation of another geometry and too many
// evaluations are refused in one line naming the problem.
func TestHeldOutRanksRefused(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	// copy is the tiny run's generation 1 with one file replaced.
	copy := func(file string, b []byte) string {
		t.Helper()
		d := t.TempDir()
		for _, f := range []string{"gen-01.hlnn", "gen-01.report.json", "gen-01/samples.bin", "gen-01/targets.json"} {
			data, err := os.ReadFile(filepath.Join(c.Dir, f))
			if f == file {
				data, err = b, nil
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(d, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	var tf targetsFile
	if !load(filepath.Join(c.Dir, "gen-01", "targets.json"), &tf) {
		t.Fatal("no targets")
	}
	edited := func(edit func(*targetsFile)) []byte {
		e := tf
		e.Targets = slices.Clone(tf.Targets)
		edit(&e)
		b, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	report := func(edit func(*Report)) []byte {
		var r Report
		if !load(filepath.Join(c.Dir, "gen-01.report.json"), &r) {
			t.Fatal("no report")
		}
		edit(&r)
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	small, err := hatetris.NewRules(8, 20, 4)
	if err != nil {
		t.Fatal(err)
	}
	tuned := []eval.Evaluator{tunedEval()}
	many := make([]eval.Evaluator, MaxRanked+1)
	for i := range many {
		many[i] = tunedEval()
	}
	for _, tc := range []struct {
		name, dir string
		g         int
		r         *hatetris.Rules
		evals     []eval.Evaluator
		want      string
	}{
		{"no generation 2", c.Dir, 2, nil, tuned, "gen-02.hlnn: no such file"},
		{"another geometry", c.Dir, 1, small, []eval.Evaluator{networkEval(t, "gen-00.hlnn")}, "network is for 10x16 wells"},
		{"a network of another geometry", c.Dir, 1, small, tuned, "gen-01.hlnn is for 10x16 wells"},
		{"another split", copy("gen-01.report.json", report(func(r *Report) { r.ValidSamples++ })), 1, nil, tuned, "not the network this generation trained"},
		{"targets of other wells", copy("gen-01/targets.json", edited(func(e *targetsFile) { e.WellsHash++ })), 1, nil, tuned, "does not hold the targets"},
		{"a target outside [-1, 1]", copy("gen-01/targets.json", edited(func(e *targetsFile) { e.Targets[3] = 5 })), 1, nil, tuned, "target 3 is 5, outside [-1, 1]"},
		{"targets not JSON", copy("gen-01/targets.json", []byte("{")), 1, nil, tuned, "targets.json: unexpected end of JSON"},
		{"targets past the bound", copy("gen-01/targets.json", make([]byte, 4096+32*len(tf.Targets)+1)), 1, nil, tuned, fmt.Sprintf("targets.json is %d bytes, more than the %d bytes a targets file may be", 4096+32*len(tf.Targets)+1, 4096+32*len(tf.Targets))},
		{"too many evaluations", c.Dir, 1, nil, many, "at most 64"},
	} {
		_, err := HeldOutRanks(tc.dir, tc.g, tc.r, tc.evals)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", tc.name, err, tc.want)
		}
	}
	if rs, err := HeldOutRanks(c.Dir, 1, nil, tuned); err != nil || len(rs) != 1 || rs[0].Wells == 0 {
		t.Errorf("the tiny run's generation 1: %+v, %v", rs, err)
	}
}

// TestGroupSpearman: the groups' coefficients weighted by their sizes,
// over groups of at least CellGroup wells where one is defined.
func TestGroupSpearman(t *testing.T) {
	up := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i)
		}
		return v
	}
	down := func(n int) []float64 {
		v := up(n)
		slices.Reverse(v)
		return v
	}
	for _, tc := range []struct {
		name   string
		groups map[int]*[2][]float64
		rho    float64
		n      int
	}{
		{"none", map[int]*[2][]float64{}, math.NaN(), 0},
		{"one in order", map[int]*[2][]float64{4: {up(10), up(10)}}, 1, 10},
		{"weighted", map[int]*[2][]float64{4: {up(10), up(10)}, 8: {up(20), down(20)}}, -1.0 / 3, 30},
		{"small and constant groups left out", map[int]*[2][]float64{4: {up(10), up(10)}, 6: {up(9), down(9)}, 8: {make([]float64, 12), up(12)}}, 1, 10},
	} {
		rho, n := groupSpearman(tc.groups)
		if n != tc.n || !(math.Abs(rho-tc.rho) < 1e-12 || math.IsNaN(rho) && math.IsNaN(tc.rho)) {
			t.Errorf("%s: %v over %d, want %v over %d", tc.name, rho, n, tc.rho, tc.n)
		}
	}
}
