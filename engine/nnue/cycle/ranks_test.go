package cycle

import (
	"context"
	"math"
	"os"
	"path/filepath"
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
	if rs[1] != want {
		t.Errorf("tuned: %+v, counted %+v", rs[1], want)
	}
	if want.Live == 0 || want.Live == want.Wells {
		t.Errorf("the run's held-out wells should have live and dead targets: %+v", want)
	}
}

// TestHeldOutRanksRefused: a missing generation, targets of other wells
// and an evaluation of another geometry are refused in one line naming
// the problem.
func TestHeldOutRanksRefused(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	tp := filepath.Join(c.Dir, "gen-01", "targets.json")
	var tf targetsFile
	if !load(tp, &tf) {
		t.Fatal("no targets")
	}
	tf.WellsHash++
	other := t.TempDir()
	for _, f := range []string{"gen-01.hlnn", "gen-01/samples.bin"} {
		os.MkdirAll(filepath.Join(other, "gen-01"), 0o755)
		b, _ := os.ReadFile(filepath.Join(c.Dir, f))
		os.WriteFile(filepath.Join(other, f), b, 0o644)
	}
	if err := store(filepath.Join(other, "gen-01", "targets.json"), &tf); err != nil {
		t.Fatal(err)
	}
	small, _ := hatetris.NewRules(8, 20, 4)
	for _, tc := range []struct {
		name, dir string
		g         int
		r         *hatetris.Rules
		want      string
	}{
		{"no generation 2", c.Dir, 2, nil, "gen-02.hlnn"},
		{"targets of other wells", other, 1, nil, "does not hold the targets"},
		{"another geometry", c.Dir, 1, small, "network is for 10x16 wells"},
	} {
		_, err := HeldOutRanks(tc.dir, tc.g, tc.r, []eval.Evaluator{tunedEval(), mustNNUE(t, filepath.Join(c.Dir, "gen-01.hlnn"))})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", tc.name, err, tc.want)
		}
	}
	if rs, err := HeldOutRanks(c.Dir, 1, nil, []eval.Evaluator{tunedEval()}); err != nil || len(rs) != 1 || rs[0].Wells == 0 {
		t.Errorf("the tiny run's generation 1: %+v, %v", rs, err)
	}
}

func mustNNUE(t *testing.T, path string) eval.Evaluator {
	t.Helper()
	e, err := eval.LoadNNUE(path)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
