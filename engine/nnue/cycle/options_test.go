package cycle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/targets"
)

// TestCheck: every bad setting is refused in one line naming its flag.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	good := tinyConfig(t, dir)
	for _, tc := range []struct {
		flag string
		edit func(c *Config)
	}{
		{"--dir", func(c *Config) { c.Dir = "" }},
		{"--dir", func(c *Config) { c.Dir = file }},
		{"--generations", func(c *Config) { c.Generations = 0 }},
		{"--generations", func(c *Config) { c.Generations = 100 }},
		{"--master-beam-width", func(c *Config) { c.MasterBeamWidth = 1 << 24 }},
		{"--master-beam-width", func(c *Config) { c.MasterBeamWidth = -5 }},
		{"--master-pieces", func(c *Config) { c.MasterPieces = -1 }},
		{"--samples", func(c *Config) { c.Samples = 1 }},
		{"--samples", func(c *Config) { c.Samples = 31 }},
		{"--target-beam-width", func(c *Config) { c.TargetBeamWidth = -1 }},
		{"--target-pieces", func(c *Config) { c.TargetPieces = -1 }},
		{"--batch", func(c *Config) { c.Train.Batch = -1 }},
		{"--epochs", func(c *Config) { c.Train.MaxEpochs = -3 }},
		{"--lr", func(c *Config) { c.Train.LearningRate = math.NaN() }},
		{"--lr", func(c *Config) { c.Train.LearningRate = math.Inf(1) }},
		{"--lr", func(c *Config) { c.Train.LearningRate = -0.1 }},
		{"--target-scale", func(c *Config) { c.TargetScale = "log" }},
		{"--collapse", func(c *Config) { c.Collapse = 1.5 }},
		{"--children", func(c *Config) { c.Children = 1.01 }},
		{"--master-openings", func(c *Config) { c.MasterOpenings = -1 }},
		{"--master-openings", func(c *Config) { c.MasterOpenings = MaxMasterOpenings + 1 }},
		{"--master-deep", func(c *Config) { c.MasterDeep = -1 }},
		{"--master-deep", func(c *Config) { c.MasterDeep = MaxMasterOpenings + 1 }},
		{"--master-deep-min", func(c *Config) { c.MasterDeep, c.MasterDeepMin = 1, -1 }},
		{"--master-deep-min", func(c *Config) { c.MasterDeepMin = 20 }},                                        // without --master-deep
		{"--master-deep-games", func(c *Config) { c.MasterDeepGames = "../../../datasets/beams/games.jsonl" }}, // without --master-deep
		{"--master-deep-games", func(c *Config) { c.MasterDeep, c.MasterDeepGames = 3, filepath.Join(dir, "no-such.jsonl") }},
		{"--master-deep-games", func(c *Config) { c.MasterDeep, c.MasterDeepGames = 3, file }}, // no games in it
		{"--master-deep-games", func(c *Config) { // no well at that many lines
			c.MasterDeep, c.MasterDeepMin, c.MasterDeepGames = 3, 100000, "../../../datasets/beams/games.jsonl"
		}},
		{"--seed", func(c *Config) { c.MasterDeep, c.Seed = 3, maxOpeningsSeed+1 }},
		{"--children", func(c *Config) { c.Children = math.NaN() }},
		{"--seed", func(c *Config) { c.MasterOpenings, c.Seed = 1, math.MaxUint64-999 }}, // generation 1's openings seed would wrap to 1
		{"--seed", func(c *Config) { c.MasterOpenings, c.Seed = 3, maxOpeningsSeed+1 }},
		{"--children", func(c *Config) { c.Children = -0.5 }},
		{"--collapse", func(c *Config) { c.Collapse = math.NaN() }},
		{"--shift-check", func(c *Config) { c.ShiftCheck = -1 }},
		{"--workers", func(c *Config) { c.Workers = -1 }},
		{"--start", func(c *Config) { c.Rules, _ = hatetris.NewRules(8, 20, 4) }},
		{"--teacher", func(c *Config) { c.TeacherSpec = "tuned" }},
		{"--teacher", func(c *Config) { c.Teacher = tunedEval() }},                                     // an evaluation without its spec
		{"--target-scale fitted", func(c *Config) { c.Teacher, c.TeacherSpec = tunedEval(), "tuned" }}, // tanh of tuned's values
		{"--teacher", func(c *Config) { c.TargetRule, c.TargetScale = targets.Residual, "fitted" }},    // residual without a teacher
		{"--target-scale fitted", func(c *Config) { c.Teacher, c.TeacherSpec, c.TargetRule = tunedEval(), "tuned", targets.Residual }},
		{"--keep-score-weight", func(c *Config) {
			c.Teacher, c.TeacherSpec, c.TargetRule, c.TargetScale, c.KeepScoreWeight = tunedEval(), "tuned", targets.Residual, "fitted", true
		}},
		{"--keep-score-weight", func(c *Config) { // a teacher whose line is worth 0: nothing to keep
			c.Teacher, c.TeacherSpec, c.TargetScale, c.KeepScoreWeight = networkEval(t, "openings-run/gen-06.hlnn"), "nnue", "fitted", true
		}},
		{"--gate", func(c *Config) {
			c.Teacher, c.TeacherSpec, c.TargetRule, c.TargetScale = tunedEval(), "tuned", targets.Residual, "fitted"
			c.Gate = func(context.Context, int, string, *nnue.Network, *nnue.Network) (Verdict, error) {
				return Verdict{}, nil
			}
		}},
		{"--shift-check", func(c *Config) {
			c.Teacher, c.TeacherSpec, c.TargetScale, c.ShiftCheck = tunedEval(), "tuned", "fitted", 10
		}},
		{"--target-rule", func(c *Config) { c.TargetRule = targets.Static + 1 }},
		{"--target-rule static needs --teacher", func(c *Config) { c.TargetRule, c.TargetScale = targets.Static, "fitted" }},
	} {
		c := good
		tc.edit(&c)
		err := c.Check()
		if err == nil || !strings.Contains(err.Error(), tc.flag) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming it", tc.flag, err)
		}
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%s: Run accepted it", tc.flag)
		}
	}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("refused runs left %d entries in the folder", len(ents))
	}
}

// TestSettingsMismatch: a folder is refused to a run with other settings,
// naming the flag (S2: the old stage files were reused with the new
// flags); Generations and Workers may change, and --start must be the
// folder's generation 0.
func TestSettingsMismatch(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag string
		edit func(c *Config)
	}{
		{"--master-beam-width", func(c *Config) { c.MasterBeamWidth = 21 }},
		{"--master-pieces", func(c *Config) { c.MasterPieces = 19 }},
		{"--samples", func(c *Config) { c.Samples = 90 }},
		{"--target-beam-width", func(c *Config) { c.TargetBeamWidth = 9 }},
		{"--target-pieces", func(c *Config) { c.TargetPieces = 4 }},
		{"--target-rule", func(c *Config) { c.TargetRule = targets.DNF }},
		{"--seed", func(c *Config) { c.Seed = 2 }},
		{"--epochs", func(c *Config) { c.Train.MaxEpochs = 3 }},
		{"--rank-weight", func(c *Config) { c.Train.RankWeight = 1 }},
		{"--children", func(c *Config) { c.Children = 0.5 }},
		{"--master-openings", func(c *Config) { c.MasterOpenings = 2 }},
		{"--no-quiescence", func(c *Config) { c.NoQuiescence = true }},
		{"--start", func(c *Config) { c.Start.B2 += 0.5 }},
	} {
		d := c
		s := *c.Start
		d.Start = &s
		tc.edit(&d)
		_, err := Run(context.Background(), d)
		if err == nil || !strings.Contains(err.Error(), tc.flag) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming it", tc.flag, err)
		}
	}
	d := c
	d.Workers, d.Start = 1, nil
	if _, err := Run(context.Background(), d); err != nil {
		t.Fatalf("other workers, no --start: %v", err)
	}
	// A folder of an older version (no cycle.json) whose samples were made
	// with another master width.
	os.Remove(filepath.Join(c.Dir, "cycle.json"))
	os.Remove(filepath.Join(c.Dir, "gen-01.report.json"))
	d = c
	d.MasterBeamWidth = 25
	if _, err := Run(context.Background(), d); err == nil || !strings.Contains(err.Error(), "samples.bin") {
		t.Fatalf("old folder, other master width: %v", err)
	}
}

// TestStratified: a stratified sample of a beam covers every stratum
// (depth band, stack height) the beam's kept wells fall in, as evenly as
// N allows (no stratum gets more than the quota q + 1 while another was
// cut), with distinct wells, the same on every run (seeded); the stage
// (Sample with Stratify) draws the same wells.
func TestStratified(t *testing.T) {
	r := hatetris.Standard()
	ev := eval.NewHand(eval.DefaultWeights())
	const n = 60
	var first []hatetris.Well
	for run := 0; run < 2; run++ {
		st := NewStratified(n, r, 7)
		seen := map[Stratum]int{}
		if _, err := beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: 30, MaxPieces: 45, Eval: ev, Workers: 1,
			OnKept: func(level int, wells []hatetris.Well, scores []int) error {
				for i := range wells {
					seen[Stratum{(level - 1) / DepthBand, r.Height(&wells[i])}]++
				}
				return st.OnKept(level, wells, scores)
			}}); err != nil {
			t.Fatal(err)
		}
		ws := st.Wells()
		if len(seen) < 5 || len(ws) != n || len(samples.Distinct(ws)) != n {
			t.Fatalf("%d strata, %d wells (%d distinct), want %d", len(seen), len(ws), len(samples.Distinct(ws)), n)
		}
		q := st.Quotas()
		most, least := 0, n
		for i, k := range st.Strata() {
			if q[i] == 0 {
				t.Fatalf("stratum %+v (%d kept wells) not drawn", k, seen[k])
			}
			if q[i] < len(st.strata[k].Wells) {
				least = min(least, q[i])
			}
			most = max(most, q[i])
		}
		if len(st.Strata()) != len(seen) || most > least+1 {
			t.Fatalf("%d strata sampled of %d; quotas %v", len(st.Strata()), len(seen), q)
		}
		if run == 0 {
			first = ws
		} else if !slices.Equal(first, ws) {
			t.Fatal("not seeded")
		}
	}
	sf, err := Sample(context.Background(), SampleConfig{Rules: r, Eval: ev, BeamWidth: 30, Pieces: 45, Samples: n, Seed: 7, Stratify: true, Workers: 1})
	if err != nil || !slices.Equal(sf.Wells, first) {
		t.Fatalf("the stage draws other wells: %v", err)
	}
	// Quotas on known strata: sizes 1, 5, 20 and N = 12 give 1, 5, 6;
	// N = 8 gives 1, 4, 3 (q = 3, one left over to the first larger).
	st := NewStratified(12, r, 1)
	var w hatetris.Well
	add := func(level, height, count int) {
		for i := 0; i < count; i++ {
			w[r.Depth-1] = uint16(i + 1)
			for y := r.Depth - height; y < r.Depth-1; y++ {
				w[y] = 1
			}
			st.OnKept(level, []hatetris.Well{w}, nil)
			st.OnKept(level, []hatetris.Well{w}, nil) // repeated: counted once
			for y := range w {
				w[y] = 0
			}
		}
	}
	add(1, 2, 1)
	add(15, 3, 5)
	add(25, 4, 20)
	if q := st.Quotas(); len(q) != 3 || q[0] != 1 || q[1] != 5 || q[2] != 6 {
		t.Fatalf("quotas %v, want [1 5 6]", q)
	}
	if got := len(st.Wells()); got != 12 {
		t.Fatalf("%d wells, want 12", got)
	}
	st.N = 8
	if q := st.Quotas(); q[0] != 1 || q[1] != 4 || q[2] != 3 {
		t.Fatalf("quotas %v, want [1 4 3]", q)
	}
	for i, k := range st.Strata() {
		if want := (Stratum{[]int{0, 1, 2}[i], []int{2, 3, 4}[i]}); k != want {
			t.Fatalf("stratum %d is %+v, want %+v", i, k, want)
		}
	}
}

// TestCollapseGuard: Crowding measures the largest share in one tenth of
// [-1, 1]; a generation whose targets crowd past Collapse fails before
// training, naming the flag, and passes once the guard allows it.
func TestCollapseGuard(t *testing.T) {
	collapsed := make([]float32, 100)
	for i := range collapsed {
		collapsed[i] = 0.91 + float32(i%9)*0.01 // all in [0.9, 1)
	}
	collapsed[0], collapsed[1] = -1, 0
	spread := make([]float32, 100)
	for i := range spread {
		spread[i] = -1 + 2*float32(i)/99
	}
	for _, tc := range []struct {
		name string
		ts   []float32
		want float64
	}{{"collapsed", collapsed, 0.98}, {"spread", spread, 0.1}, {"none", nil, 0}} {
		if got := Crowding(histogram(tc.ts)); math.Abs(got-tc.want) > 0.011 {
			t.Errorf("%s: crowding %v, want %v", tc.name, got, tc.want)
		}
	}
	c := tinyConfig(t, t.TempDir())
	c.Generations, c.Collapse = 1, 0.2
	_, err := Run(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "--collapse") || !strings.Contains(err.Error(), "collapsed") {
		t.Fatalf("crowded targets: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "gen-01.hlnn")); err == nil {
		t.Fatal("a collapsed generation was trained")
	}
	c.Collapse = 0.9
	reps, err := Run(context.Background(), c)
	if err != nil || reps[0].TargetCrowding <= 0.2 || reps[0].TargetCrowding > 0.9 {
		t.Fatalf("%v: %+v", err, reps)
	}
}

// TestOptionsRun: a tiny generation with every data option (stratified
// samples, D&F's rule, the fitted scale, the shift check) runs, records
// its settings in the report and the network's provenance, and spreads
// its targets no worse than tanh of the value does.
func TestOptionsRun(t *testing.T) {
	base := tinyConfig(t, t.TempDir())
	base.Generations = 1
	plain, err := Run(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	c := tinyConfig(t, t.TempDir())
	c.Generations, c.Stratify, c.TargetRule, c.TargetScale, c.ShiftCheck = 1, true, targets.DNF, "fitted", 40
	reps, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	r := reps[0]
	if r.TargetRule != "dnf" || r.TargetScale != "fitted" || r.ScaleSpread <= 0 || r.Shift == nil || r.Shift.Wells < 1 ||
		math.IsNaN(r.Shift.MSE) || r.Shift.MSE > 4 || r.Shift.ValidMSE > 4 {
		t.Fatalf("report %+v shift %+v", r, r.Shift)
	}
	if r.TargetCrowding > plain[0].TargetCrowding+0.05 {
		t.Fatalf("fitted targets crowd %v, tanh's %v", r.TargetCrowding, plain[0].TargetCrowding)
	}
	t.Logf("crowding: tanh %.3f, fitted+dnf %.3f; histograms %v / %v; shift %+v", plain[0].TargetCrowding, r.TargetCrowding,
		plain[0].TargetHistogram, r.TargetHistogram, *r.Shift)
	if n, err := nnueLoad(r.Network); err != nil || !strings.Contains(n, "stratified") || !strings.Contains(n, "target rule dnf, scale fitted") {
		t.Fatalf("provenance %q: %v", n, err)
	}
}

// TestReportChecked: a report read back that does not describe its
// generation's network (edited by hand: another generation number or
// checksum) is made again from the stages' files.
func TestReportChecked(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	want, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.Dir, "gen-01.report.json")
	b, _ := os.ReadFile(path)
	for _, edit := range []func(r *Report){
		func(r *Report) { r.Generation, r.MasterScore = 7, 999 },
		func(r *Report) { r.NetworkCRC, r.MasterScore = r.NetworkCRC^1, 999 },
		func(r *Report) { r.Network, r.MasterScore = "elsewhere.hlnn", 999 },
	} {
		var r Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		edit(&r)
		if err := store(path, &r); err != nil {
			t.Fatal(err)
		}
		got, err := Run(context.Background(), c)
		if err != nil || got[0].MasterScore != want[0].MasterScore || got[0].NetworkCRC != want[0].NetworkCRC || got[0].NetworkCRC == 0 {
			t.Fatalf("%v: %+v, want %+v", err, got, want)
		}
	}
}

// TestGate: a gate that rejects generation 1 leaves its network in
// gen-01.hlnn, records the verdict, and generation 2 starts from gen-00.
func TestGate(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	var judged []int
	c.Gate = func(_ context.Context, g int, prevName string, prev, next *nnue.Network) (Verdict, error) {
		judged = append(judged, g)
		if next.Header.CRC32 == 0 {
			t.Errorf("generation %d: the gate gets a network without its file's checksum", g)
		}
		if prevName != prev.Header.Name {
			t.Errorf("generation %d: the start is named %q, its network %q", g, prevName, prev.Header.Name)
		}
		return Verdict{Keep: g != 1, Line: fmt.Sprintf("gen %d vs %s: %v", g, prevName, g != 1)}, nil
	}
	reps, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(judged) != 2 || reps[0].Gate != "gen 1 vs gen-00: false" || reps[0].NextStart != genPath(c.Dir, 0) || reps[1].NextStart != "" ||
		reps[1].Gate != "gen 2 vs gen-00: true" {
		t.Fatalf("judged %v; reports %q %q, %q %q", judged, reps[0].Gate, reps[0].NextStart, reps[1].Gate, reps[1].NextStart)
	}
	for _, r := range reps {
		if n, err := nnue.Load(r.Network); err != nil || n.Header.CRC32 != r.NetworkCRC {
			t.Fatalf("generation %d: file checksum %v, report's %08x", r.Generation, err, r.NetworkCRC)
		}
	}
	if p, err := nnueLoad(reps[1].Network); err != nil || !strings.Contains(p, "generation 2 from gen-00") {
		t.Fatalf("generation 2's provenance %q: %v", p, err)
	}
}

// TestOldSettingsKeys: a cycle.json of an older version, keyed by the
// flags' former names (--master-width, --target-width, as
// datasets/weights/scale-run/cycle.json is), reads as the same settings;
// a file giving both names with different values, or an unknown key, is
// refused.
func TestOldSettingsKeys(t *testing.T) {
	const scaleRun = `{"rules":"10x20 bar 4","master-width":10000,"master-pieces":0,"no-quiescence":false,"samples":50000,"stratify":false,"target-width":256,"target-pieces":10,"target-rule":"best","target-scale":"tanh","shift-check":0,"epochs":20,"batch":256,"lr":0.001,"patience":3,"clamp":1,"train-seed":0,"seed":1}`
	newKeys := strings.NewReplacer(`"master-width"`, `"master-beam-width"`, `"target-width"`, `"target-beam-width"`).Replace(scaleRun)
	for _, tc := range []struct {
		name, json     string
		master, target int
		wantErr        string
	}{
		{"old keys", scaleRun, 10000, 256, ""},
		{"new keys", newKeys, 10000, 256, ""},
		{"both, equal", strings.Replace(scaleRun, `"seed":1}`, `"seed":1,"master-beam-width":10000}`, 1), 10000, 256, ""},
		{"both, different", strings.Replace(scaleRun, `"seed":1}`, `"seed":1,"master-beam-width":500}`, 1), 0, 0, `"master-width" 10000 (its former name) differ`},
		{"unknown key", strings.Replace(scaleRun, `"seed":1}`, `"seed":1,"gate-width":5}`, 1), 0, 0, `unknown field "gate-width"`},
	} {
		s, err := readSettings([]byte(tc.json))
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || s.MasterBeamWidth != tc.master || s.TargetBeamWidth != tc.target || s.Samples != 50000 || s.Rules != "10x20 bar 4" {
			t.Errorf("%s: %+v, %v; want master %d, target %d", tc.name, s, err, tc.master, tc.target)
		}
	}
	committed, err := os.ReadFile("../../../datasets/weights/scale-run/cycle.json")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := readSettings(committed); err != nil || s.MasterBeamWidth != 10000 || s.TargetBeamWidth != 256 {
		t.Errorf("datasets/weights/scale-run/cycle.json: %+v, %v", s, err)
	}
}

// TestResumeOldSettingsFolder: a folder whose cycle.json has the old keys
// is resumed by this version with the same settings, and a run with
// another beam width is refused naming the new flag.
func TestResumeOldSettingsFolder(t *testing.T) {
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	first, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.Dir, "cycle.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.NewReplacer(`"master-beam-width"`, `"master-width"`, `"target-beam-width"`, `"target-width"`).Replace(string(b))
	if old == string(b) || !strings.Contains(old, `"master-width":20`) || !strings.Contains(old, `"target-width":8`) {
		t.Fatalf("cycle.json %s: not keyed by the new names", b)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Run(context.Background(), c)
	if err != nil || len(again) != 1 || again[0].Network != first[0].Network || again[0].NetworkCRC != first[0].NetworkCRC {
		t.Fatalf("resume of an old-keyed folder: %v, %v", again, err)
	}
	d := c
	d.TargetBeamWidth = 9
	if _, err := Run(context.Background(), d); err == nil || !strings.HasPrefix(err.Error(), "--target-beam-width 9 differs from the 8") {
		t.Errorf("other target beam width on an old-keyed folder: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != old {
		t.Errorf("cycle.json was rewritten: %s", got)
	}
}

// TestKeepScoreWeight: with KeepScoreWeight a trained network carries its
// start's score weight (tanh targets: the same number; fitted targets: divided
// by the fitted scale's spread; with a teacher, the teacher's value of a
// line, and nothing else changes) and says so in its provenance; without it
// the weight is 0; the option is a setting a resumed folder must repeat.
func TestKeepScoreWeight(t *testing.T) {
	for _, tc := range []struct {
		scale   string
		keep    bool
		rule    targets.Rule
		teacher bool
	}{{"tanh", false, targets.Best, false}, {"tanh", true, targets.Best, false}, {"fitted", true, targets.Best, false},
		{"fitted", true, targets.Lines, false}, {"fitted", true, targets.Best, true}} {
		c := tinyConfig(t, t.TempDir())
		c.Generations, c.TargetScale, c.KeepScoreWeight, c.TargetRule = 1, tc.scale, tc.keep, tc.rule
		if tc.teacher {
			c.Teacher, c.TeacherSpec = tunedEval(), "tuned"
		}
		sw := c.Start.ScoreWeight
		if sw <= 0 {
			t.Fatalf("start's score weight %v: the test needs a positive one", sw)
		}
		reps, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		net, err := nnue.Load(reps[0].Network)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		switch {
		case tc.keep && tc.scale == "tanh":
			want = sw
		case tc.keep:
			if reps[0].ScaleSpread <= 0 {
				t.Fatalf("fitted run without a spread: %+v", reps[0])
			}
			want = sw / reps[0].ScaleSpread
			if tc.rule == targets.Lines {
				want = 1 / reps[0].ScaleSpread // a line cleared is one line of the targets
			}
			if tc.teacher {
				want = -eval.TunedWeights().Score / reps[0].ScaleSpread // tuned's value of a line
			}
		}
		if math.Abs(net.ScoreWeight-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%s keep %v teacher %v: score weight %v, want %v", tc.scale, tc.keep, tc.teacher, net.ScoreWeight, want)
		}
		if got := strings.Contains(net.Header.Provenance, "score weight kept"); got != tc.keep {
			t.Errorf("%s keep %v: provenance %q", tc.scale, tc.keep, net.Header.Provenance)
		}
		if got := strings.Contains(net.Header.Provenance, "the teacher's line"); got != tc.teacher {
			t.Errorf("teacher %v: provenance %q", tc.teacher, net.Header.Provenance)
		}
		if tc.teacher {
			// The same run without the option trains the same network: only
			// the score weight (and the provenance that says it) differ.
			d := c
			d.Dir, d.KeepScoreWeight = t.TempDir(), false
			rd, err := Run(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			other, err := nnue.Load(rd[0].Network)
			if err != nil {
				t.Fatal(err)
			}
			if other.ScoreWeight != 0 {
				t.Errorf("without the option: score weight %v", other.ScoreWeight)
			}
			other.ScoreWeight, other.Header.Provenance, other.Header.CRC32 = net.ScoreWeight, net.Header.Provenance, net.Header.CRC32
			a, errA := nnue.Marshal(net)
			b, errB := nnue.Marshal(other)
			if errA != nil || errB != nil || !slices.Equal(a, b) {
				t.Errorf("the option changed more than the score weight (%v, %v)", errA, errB)
			}
		}
		if tc.keep {
			d := c
			d.KeepScoreWeight = false
			if _, err := Run(context.Background(), d); err == nil || !strings.Contains(err.Error(), "--keep-score-weight") {
				t.Errorf("resumed without the option: %v, want an error naming --keep-score-weight", err)
			}
		}
	}
}

// TestSpearmanUndefined: a report's correlations are 0 where Spearman's is
// undefined (a lines run whose targets are all equal once failed to write
// its report: JSON has no NaN).
func TestSpearmanUndefined(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
		want float64
	}{
		{"constant targets", []float64{1, 2, 3, 4}, []float64{0.5, 0.5, 0.5, 0.5}, 0},
		{"two wells", []float64{1, 2}, []float64{1, 2}, 0},
		{"same order", []float64{1, 2, 3, 4}, []float64{-1, 0, 0.5, 1}, 1},
		{"reversed", []float64{1, 2, 3}, []float64{3, 2, 1}, -1},
	} {
		if got := spearman(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTrainingSetGroups: a training sample's group is its well's number of
// filled cells.
func TestTrainingSetGroups(t *testing.T) {
	r := hatetris.Standard()
	var a, b hatetris.Well
	a[r.Depth-1] = 0b1111101111
	b[r.Depth-1], b[r.Depth-2] = 0b1111111110, 0b0000000011
	fs, err := nnue.NewFeatureSet(nnue.Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	set := TrainingSet(fs, r, []hatetris.Well{a, b, {}}, []float32{0.5, -1, 0})
	for i, want := range []int32{9, 11, 0} {
		if set[i].Group != want {
			t.Errorf("well %d: group %d, want %d", i, set[i].Group, want)
		}
	}
}

// TestWithChildren: share 0 leaves the wells as they are; share 1
// replaces every well with a live outcome of the piece HATETRIS (without
// the loop rule) sends there, or keeps a well no placement survives;
// share 0.5 replaces about half; the draw is seeded (the same twice, not
// the same with another stream); a run with Children says so in its
// samples' provenance and draws other wells than one without.
func TestWithChildren(t *testing.T) {
	r := hatetris.Standard()
	res, err := beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: 30, MaxPieces: 40, Eval: eval.NewHand(eval.TunedWeights())})
	if err != nil {
		t.Fatal(err)
	}
	src := slices.Clone(res.Wells) // the empty well first
	full := src[len(src)-2]
	for y := r.Bar; y < r.Depth; y++ { // a well no piece can enter alive
		full[y] = uint16(1<<r.Width-1) &^ (1 << (y % r.Width))
	}
	src = append(src, full)
	cp := func() []hatetris.Well { return slices.Clone(src) }
	if got := WithChildren(cp(), r, 0, 1, 1); !slices.Equal(got, src) {
		t.Fatal("share 0 changed the wells")
	}
	g := hatetris.NewGenerator(r)
	all := WithChildren(cp(), r, 1, 1, 1)
	var buf []hatetris.Outcome
	for i := range src {
		_, buf = g.Move(&src[i], hatetris.Mild, nil, buf[:0])
		live := false
		ok := false
		for _, o := range buf {
			if !o.GameOver {
				live = true
				ok = ok || o.Well == all[i]
			}
		}
		if !live && all[i] != src[i] {
			t.Fatalf("well %d: no live child, yet replaced", i)
		}
		if live && !ok {
			t.Fatalf("well %d: replaced by a well that is not one of its live children", i)
		}
	}
	if all[len(all)-1] != full {
		t.Fatal("the full well was replaced")
	}
	half := WithChildren(cp(), r, 0.5, 1, 1)
	changed := 0
	for i := range src {
		if half[i] != src[i] {
			changed++
		}
	}
	if changed < len(src)/4 || changed > 3*len(src)/4 {
		t.Fatalf("share 0.5 replaced %d of %d wells", changed, len(src))
	}
	if again := WithChildren(cp(), r, 0.5, 1, 1); !slices.Equal(again, half) {
		t.Fatal("the same seed drew other children")
	}
	if other := WithChildren(cp(), r, 0.5, 1, 2); slices.Equal(other, half) {
		t.Fatal("another stream drew the same children")
	}

	base := tinyConfig(t, t.TempDir())
	base.Generations = 1
	if _, err := Run(context.Background(), base); err != nil {
		t.Fatal(err)
	}
	c := tinyConfig(t, t.TempDir())
	c.Generations, c.Children = 1, 0.5
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	a, err := samples.Read(filepath.Join(base.Dir, "gen-01", "samples.bin"), r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := samples.Read(filepath.Join(c.Dir, "gen-01", "samples.bin"), r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Provenance, "a share 0.5 of them replaced by a random child") || strings.Contains(a.Provenance, "child") {
		t.Fatalf("provenances %q and %q", a.Provenance, b.Provenance)
	}
	if slices.Equal(a.Wells, b.Wells) {
		t.Fatal("children drew the same wells as none")
	}
}

// TestMasterOpenings: with MasterOpenings the master stage runs one beam
// from each seeded opening and samples them all: the samples are the
// reservoir of exactly those beams' kept wells (played here again), the
// totals are theirs, the provenance names the openings, and a second
// generation plays other openings.
func TestMasterOpenings(t *testing.T) {
	r := hatetris.Standard()
	c := tinyConfig(t, t.TempDir())
	c.Generations, c.MasterOpenings = 2, 3
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	ev, err := eval.NewNNUE(c.Start)
	if err != nil {
		t.Fatal(err)
	}
	opens, err := arena.Openings(r, 3, OpeningPieces, MasterOpeningSeed(c.Seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	rv := NewReservoir(c.Samples, c.Seed, 1)
	score, pieces := 0, 0
	for _, o := range opens {
		res, err := beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: c.MasterBeamWidth, MaxPieces: c.MasterPieces, Quiescence: true,
			Eval: ev, Start: &o.Well, StartScore: o.Score, StartHistory: o.History, OnKept: rv.OnKept})
		if err != nil {
			t.Fatal(err)
		}
		score += res.Score
		pieces += res.Pieces
	}
	sf, err := samples.Read(filepath.Join(c.Dir, "gen-01", "samples.bin"), r)
	if err != nil {
		t.Fatal(err)
	}
	if want := samples.Distinct(rv.Wells); !slices.Equal(sf.Wells, want) || sf.Score != score || sf.Pieces != pieces {
		t.Fatalf("samples: %d wells, score %d, pieces %d; want %d wells, %d, %d", len(sf.Wells), sf.Score, sf.Pieces, len(want), score, pieces)
	}
	if want := fmt.Sprintf("master beams from openings:3:8:%d, each width 20", MasterOpeningSeed(c.Seed, 1)); !strings.Contains(sf.Provenance, want) {
		t.Fatalf("provenance %q, want %q in it", sf.Provenance, want)
	}
	sf2, err := samples.Read(filepath.Join(c.Dir, "gen-02", "samples.bin"), r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sf2.Provenance, fmt.Sprintf("openings:3:8:%d", MasterOpeningSeed(c.Seed, 2))) {
		t.Fatalf("generation 2's provenance %q", sf2.Provenance)
	}
}

// TestMasterOpeningSeed: the openings' seeds never wrap round uint64 to a
// small (test suite's) seed: the largest cycle seed Check accepts with
// --master-openings gives seeds above 1,000,000 in every generation, the
// next one is refused, and without --master-openings any seed goes.
func TestMasterOpeningSeed(t *testing.T) {
	good := tinyConfig(t, t.TempDir())
	for _, tc := range []struct {
		seed     uint64
		openings int
		ok       bool
	}{
		{0, 1, true}, {1, 1, true}, {maxOpeningsSeed, 1, true}, {maxOpeningsSeed + 1, 1, false},
		{math.MaxUint64 - 999, 1, false}, {math.MaxUint64, 0, true},
	} {
		c := good
		c.Seed, c.MasterOpenings = tc.seed, tc.openings
		if err := c.Check(); (err == nil) != tc.ok {
			t.Errorf("seed %d, %d openings: %v, want ok %v", tc.seed, tc.openings, err, tc.ok)
		}
		if !tc.ok || tc.openings == 0 {
			continue
		}
		for _, g := range []int{1, MaxGenerations} {
			if s := MasterOpeningSeed(tc.seed, g); s < 1_000_000 || s != 1_000_000+1_000*tc.seed+uint64(g) || s-uint64(g) != 1_000_000+1_000*tc.seed {
				t.Errorf("seed %d generation %d: openings seed %d", tc.seed, g, s)
			}
		}
	}
	if MasterOpeningSeed(math.MaxUint64-999, 1) != 1 {
		t.Fatal("the wrap this test guards against is not the one computed")
	}
}

// TestSettingsNewKeys: the settings added with omitempty JSON keys
// (children, master-openings) are named by their flag alone in a
// mismatch, are absent from the cycle.json of a folder made without them
// (byte for byte the file an older version wrote), and an older
// cycle.json without them reads as 0.
func TestSettingsNewKeys(t *testing.T) {
	for _, tc := range []struct {
		edit func(s *Settings)
		want string
	}{
		{func(s *Settings) { s.Children = 0.5 }, "--children 0.5 differs from the 0 this folder was made with: use the same value or another --dir"},
		{func(s *Settings) { s.MasterOpenings = 7 }, "--master-openings 7 differs from the 0 this folder was made with: use the same value or another --dir"},
		{func(s *Settings) { s.Samples = 9 }, "--samples 9 differs from the 80 this folder was made with: use the same value or another --dir"},
	} {
		c := tinyConfig(t, "")
		c.Rules = hatetris.Standard()
		was := settings(c)
		now := was
		tc.edit(&now)
		if err := now.Diff(was); err == nil || err.Error() != tc.want {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	c := tinyConfig(t, t.TempDir())
	c.Generations = 1
	first, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, "cycle.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "children") || strings.Contains(string(b), "master-openings") {
		t.Fatalf("cycle.json of a folder made without the new flags names them: %s", b)
	}
	again, err := Run(context.Background(), c)
	if err != nil || len(again) != 1 || again[0].NetworkCRC != first[0].NetworkCRC {
		t.Fatalf("resume: %v, %v", again, err)
	}
	committed, err := os.ReadFile("../../../datasets/weights/scale-run/cycle.json")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := readSettings(committed); err != nil || s.Children != 0 || s.MasterOpenings != 0 {
		t.Fatalf("scale-run cycle.json: %+v, %v", s, err)
	}
}

// TestSampleOpeningsWorkers: the master stage with openings and children
// draws the same wells, totals and plain score whatever the worker count,
// and nil rules are the standard ones (WithChildren too).
func TestSampleOpeningsWorkers(t *testing.T) {
	ev := eval.NewHand(eval.TunedWeights())
	var runs []*samples.File
	for _, tc := range []struct {
		workers int
		rules   *hatetris.Rules
	}{{1, hatetris.Standard()}, {3, hatetris.Standard()}, {2, nil}} {
		sf, err := Sample(context.Background(), SampleConfig{Rules: tc.rules, Eval: ev, BeamWidth: 12, Pieces: 15, Quiescence: true, Samples: 60, Seed: 4, Stream: 1,
			Children: 0.5, Distinct: true, Plain: true, Openings: 3, OpeningPieces: OpeningPieces, OpeningSeed: MasterOpeningSeed(4, 1), Workers: tc.workers})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, sf)
	}
	a := runs[0]
	if a.Sampled != 60 || len(a.Wells) < 30 || a.Pieces < 3*15 {
		t.Fatalf("sampled %d, %d distinct wells, %d pieces; want 60, at least 30, at least 45 (3 beams of 15, quiescence and all)", a.Sampled, len(a.Wells), a.Pieces)
	}
	for i, b := range runs[1:] {
		if !slices.Equal(a.Wells, b.Wells) || a.Score != b.Score || a.Pieces != b.Pieces || a.Plain != b.Plain || a.Sampled != b.Sampled {
			t.Errorf("run %d: %d wells, score %d, pieces %d, plain %d; run 1: %d, %d, %d, %d", i+2, len(b.Wells), b.Score, b.Pieces, b.Plain, len(a.Wells), a.Score, a.Pieces, a.Plain)
		}
	}
	ws := randomWells(t)
	if x, y := WithChildren(slices.Clone(ws), nil, 0.7, 3, 3), WithChildren(slices.Clone(ws), hatetris.Standard(), 0.7, 3, 3); !slices.Equal(x, y) || slices.Equal(x, ws) {
		t.Fatal("WithChildren with nil rules is not the standard rules' (or changed nothing)")
	}
	if got := WithChildren(nil, nil, 1, 1, 1); len(got) != 0 {
		t.Fatalf("no wells: %v", got)
	}
}

// TestMasterDeepGames: --master-deep-games draws the deep master wells
// from all the games of a file (games:N:SEED:MIN:FILE), names the file in
// the samples' provenance, and records its content's hash in the
// folder's settings, so that another file of the same name is refused.
func TestMasterDeepGames(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.jsonl")
	b, err := os.ReadFile("../../../datasets/beams/games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(games, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c := tinyConfig(t, filepath.Join(dir, "run"))
	c.MasterDeep, c.MasterDeepMin, c.MasterDeepGames = 3, 120, games
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	want := DeepSuite(3, c.Seed, 1, 120) + ":" + games
	if got := deepSpec(c, 1); got != want {
		t.Fatalf("deep suite %q, want %q", got, want)
	}
	suite, err := arena.ParseSuite(want, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range suite.Starts {
		if st.Score < 120 { // past every game of the arena's pool (the longest made 116)
			t.Fatalf("start %q at %d lines", st.Label, st.Score)
		}
	}
	c.Rules = hatetris.Standard() // as Run sets it
	x := &gen{cfg: c, g: 1, ev: networkEval(t, "gen-00.hlnn").(*eval.NNUE)}
	if p := x.provenance(); !strings.Contains(p, want+", record wells dropped") {
		t.Fatalf("provenance %q does not name %q", p, want)
	}
	s := settings(c)
	if !strings.HasPrefix(s.MasterDeepGames, games+" (sha256 ") {
		t.Fatalf("setting %q", s.MasterDeepGames)
	}
	if err := os.WriteFile(games, b[:len(b)/2+bytes.IndexByte(b[len(b)/2:], '\n')+1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := settings(c).Diff(s); err == nil || !strings.Contains(err.Error(), "--master-deep-games") {
		t.Fatalf("a file of other games: %v, want --master-deep-games refused", err)
	}
}

// randomWells are the kept wells of a small hand-evaluation beam.
func randomWells(t *testing.T) []hatetris.Well {
	res, err := beam.Run(context.Background(), beam.Config{Rules: hatetris.Standard(), BeamWidth: 10, MaxPieces: 25, Eval: eval.NewHand(eval.TunedWeights())})
	if err != nil {
		t.Fatal(err)
	}
	return res.Wells
}

// TestSampleDeep: master beams from the deep suite's starts, after the
// openings', the same on any number of workers; no sampled well is a
// world-record well; a records: suite is refused as master starts.
func TestSampleDeep(t *testing.T) {
	ev := eval.NewHand(eval.TunedWeights())
	deep := DeepSuite(3, 4, 1, 20)
	if deep != fmt.Sprintf("games:3:%d:20", MasterOpeningSeed(4, 1)) {
		t.Fatalf("DeepSuite = %q", deep)
	}
	var runs []*samples.File
	for _, workers := range []int{1, 2} {
		sf, err := Sample(context.Background(), SampleConfig{Eval: ev, BeamWidth: 12, Pieces: 15, Quiescence: true, Samples: 200, Seed: 4, Stream: 1,
			Distinct: true, Openings: 2, OpeningPieces: OpeningPieces, OpeningSeed: MasterOpeningSeed(4, 1), Deep: deep, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, sf)
	}
	a, b := runs[0], runs[1]
	if !slices.Equal(a.Wells, b.Wells) || a.Score != b.Score || a.Pieces != b.Pieces {
		t.Fatal("the deep sample depends on the number of workers")
	}
	suite, err := arena.ParseSuite(deep, nil)
	if err != nil {
		t.Fatal(err)
	}
	minScore := 0
	for _, s := range suite.Starts {
		minScore += s.Score
	}
	if a.Score < minScore || a.Pieces < 2 {
		t.Fatalf("master score %d below the deep starts' %d (pieces %d)", a.Score, minScore, a.Pieces)
	}
	recs, err := arena.RecordWells()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range a.Wells {
		if recs[w] {
			t.Fatal("a world-record well sampled")
		}
	}
	if got, _ := dropRecordWells([]hatetris.Well{suite.Starts[0].Well, {}}); len(got) != 1 || got[0] != suite.Starts[0].Well {
		t.Fatalf("dropRecordWells kept %d wells (the empty well is a record spawn)", len(got))
	}
	if _, err := Sample(context.Background(), SampleConfig{Eval: ev, BeamWidth: 12, Pieces: 5, Samples: 20, Deep: "records:2:1"}); err == nil || !strings.Contains(err.Error(), "games:") {
		t.Fatalf("records as master starts: %v", err)
	}
}

func tunedEval() eval.Evaluator { return eval.NewHand(eval.TunedWeights()) }

// networkEval is a committed network of datasets/weights as an evaluation.
func networkEval(t *testing.T, name string) eval.Evaluator {
	t.Helper()
	e, err := eval.LoadNNUE("../../../datasets/weights/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestTeacher: with a teacher the master and target beams are the
// teacher's, not the start network's: the samples' provenance names it,
// the targets are those of the teacher's target beams (under Residual,
// its best value minus its own value of each well, squashed with the
// fitted scale; under Static its own value, no beam), the trained network's provenance names the teacher and
// the hybrid weight 1 / spread, and the teacher is a setting a resumed
// folder must repeat.
func TestTeacher(t *testing.T) {
	for _, rule := range []targets.Rule{targets.Best, targets.Residual, targets.Static} {
		c := tinyConfig(t, t.TempDir())
		c.Generations, c.TargetScale, c.TargetRule = 1, "fitted", rule
		c.Teacher, c.TeacherSpec = tunedEval(), "tuned"
		reps, sf := runGen1(t, c)
		if !strings.Contains(sf.Provenance, "teacher tuned") || strings.Contains(sf.Provenance, "network ") {
			t.Errorf("%v: samples' provenance %q does not name the teacher alone", rule, sf.Provenance)
		}
		// The master beam is the teacher's: the same samples as a run
		// whose start network is another one.
		d := tinyConfig(t, t.TempDir())
		d.Generations, d.TargetScale, d.TargetRule, d.Teacher, d.TeacherSpec = 1, "fitted", rule, c.Teacher, c.TeacherSpec
		var err error
		if d.Start, err = nnue.Load("../../../datasets/weights/gen-00-tuned.hlnn"); err != nil {
			t.Fatal(err)
		}
		_, sd := runGen1(t, d)
		if len(sf.Wells) == 0 || !slices.Equal(sf.Wells, sd.Wells) || sf.Provenance != sd.Provenance {
			t.Errorf("%v: the samples depend on the start network (%d and %d wells)", rule, len(sf.Wells), len(sd.Wells))
		}
		var tf targetsFile
		if !load(filepath.Join(c.Dir, "gen-01", "targets.json"), &tf) {
			t.Fatal("no targets.json")
		}
		outs, err := targets.Outcomes(context.Background(), targets.Config{Eval: c.Teacher, BeamWidth: c.TargetBeamWidth, Pieces: c.TargetPieces, Rule: rule, Workers: 2}, sf.Wells)
		if err != nil {
			t.Fatal(err)
		}
		squash, center, spread := targets.FittedSquash(outs, c.TargetPieces)
		if center != tf.Center || spread != tf.Scale {
			t.Errorf("%v: fitted centre %v spread %v, the teacher's outcomes give %v %v", rule, tf.Center, tf.Scale, center, spread)
		}
		for i, o := range outs {
			if want := rule.Target(o, c.TargetPieces, squash); tf.Targets[i] != want {
				t.Fatalf("%v: well %d: target %v, the teacher's beam gives %v", rule, i, tf.Targets[i], want)
			}
		}
		net, err := nnue.Load(reps[0].Network)
		if err != nil {
			t.Fatal(err)
		}
		hint := fmt.Sprintf("nnue:FILE+h:%.6g:tuned", 1/tf.Scale)
		if !strings.Contains(net.Header.Provenance, "teacher tuned") || strings.Contains(net.Header.Provenance, hint) != (rule == targets.Residual) {
			t.Errorf("%v: provenance %q (the hybrid %s only for residual)", rule, net.Header.Provenance, hint)
		}
		if rule == targets.Residual {
			// The hint plays: its value is the network's plus W times the teacher's.
			hy, err := evalspec.Parse(strings.Replace(hint, "FILE", reps[0].Network, 1), "", nil)
			if err != nil {
				t.Fatalf("the provenance's hybrid does not parse: %v", err)
			}
			ne, err := eval.NewNNUE(net)
			if err != nil {
				t.Fatal(err)
			}
			r := hatetris.Standard()
			hw, nw, tw := hy.NewWorker(r), ne.NewWorker(r), c.Teacher.NewWorker(r)
			w, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(hint, "nnue:FILE+h:"), ":tuned"), 64)
			for i := range sf.Wells[:20] {
				for _, score := range []int{0, 7} {
					got, want := hw.Evaluate(&sf.Wells[i], score, 0), nw.Evaluate(&sf.Wells[i], score, 0)+w*tw.Evaluate(&sf.Wells[i], score, 0)
					if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Fatalf("well %d score %d: the hybrid's value %v, network + %g teacher %v", i, score, got, w, want)
					}
				}
			}
		}
		e := c
		e.Teacher, e.TeacherSpec = eval.NewHand(eval.DefaultWeights()), "hand"
		if _, err := Run(context.Background(), e); err == nil || !strings.Contains(err.Error(), "--teacher") {
			t.Errorf("%v: resumed with another teacher: %v, want an error naming --teacher", rule, err)
		}
		// The same spec with other content (an edited weights file) is refused too.
		ww := eval.TunedWeights()
		ww.Holes++
		e.Teacher, e.TeacherSpec = eval.NewHand(ww), "tuned"
		if _, err := Run(context.Background(), e); err == nil || !strings.Contains(err.Error(), "--teacher") {
			t.Errorf("%v: resumed with a teacher of the same spec and other weights: %v, want an error naming --teacher", rule, err)
		}
	}
}

// runGen1 runs the cycle c and reads its first generation's samples.
func runGen1(t *testing.T, c Config) ([]Report, *samples.File) {
	t.Helper()
	reps, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	sf, err := samples.Read(filepath.Join(c.Dir, "gen-01", "samples.bin"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return reps, sf
}

// TestHybridTeacher: a residual run whose teacher is a hybrid NET+h:W:HAND
// learns what the hybrid's search adds to its hand-made part (each target
// the hybrid's beam's best value minus W times HAND's value of the start
// well, squashed), and its provenance says to play it as
// nnue:FILE+h:W/s:HAND, in the teacher's network's place.
func TestHybridTeacher(t *testing.T) {
	const spec = "nnue:../../../datasets/weights/teacher/gen-03.hlnn+h:0.002:tuned"
	teacher, err := evalspec.Parse(spec, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	const w = 0.002
	c := tinyConfig(t, t.TempDir())
	c.Generations, c.TargetScale, c.TargetRule = 1, "fitted", targets.Residual
	c.Teacher, c.TeacherSpec = teacher, spec
	reps, sf := runGen1(t, c)
	var tf targetsFile
	if !load(filepath.Join(c.Dir, "gen-01", "targets.json"), &tf) {
		t.Fatal("no targets.json")
	}
	best, err := targets.Outcomes(context.Background(), targets.Config{Eval: teacher, BeamWidth: c.TargetBeamWidth, Pieces: c.TargetPieces, Workers: 2}, sf.Wells)
	if err != nil {
		t.Fatal(err)
	}
	hw := eval.NewHand(eval.TunedWeights()).NewWorker(hatetris.Standard())
	outs := make([]targets.Outcome, len(best))
	alive := 0
	for i, o := range best {
		outs[i] = o
		if o.Survived >= c.TargetPieces {
			outs[i].Value = o.Value - w*hw.Evaluate(&sf.Wells[i], 0, 0)
			alive++
		}
	}
	squash, center, spread := targets.FittedSquash(outs, c.TargetPieces)
	if alive == 0 || math.Abs(center-tf.Center) > 1e-9 || math.Abs(spread-tf.Scale) > 1e-9 {
		t.Fatalf("%d live wells; fitted centre %v spread %v, the hybrid's beams minus W tuned give %v %v", alive, tf.Center, tf.Scale, center, spread)
	}
	for i, o := range outs {
		if want := targets.Residual.Target(o, c.TargetPieces, squash); math.Abs(float64(tf.Targets[i]-want)) > 1e-6 {
			t.Fatalf("well %d: target %v, the hybrid's beam minus W tuned gives %v", i, tf.Targets[i], want)
		}
	}
	net, err := nnue.Load(reps[0].Network)
	if err != nil {
		t.Fatal(err)
	}
	hint := fmt.Sprintf("nnue:FILE+h:%.6g:tuned)", w/tf.Scale)
	if !strings.Contains(net.Header.Provenance, "teacher "+spec) || !strings.Contains(net.Header.Provenance, hint) {
		t.Fatalf("provenance %q, want the teacher and the hybrid %s", net.Header.Provenance, hint)
	}
	if _, err := evalspec.Parse(strings.Replace(strings.TrimSuffix(hint, ")"), "FILE", reps[0].Network, 1), "", nil); err != nil {
		t.Fatalf("the provenance's hybrid does not parse: %v", err)
	}
	// Refused: a hybrid with another term, and one whose network values
	// lines (the trained network, at score weight 0, would not).
	for _, tc := range []struct{ spec, err string }{
		{spec + "+n:1:1", "without +g or +n terms"},
		{"nnue:../../../datasets/weights/gen-00.hlnn+h:0.002:tuned", "its network values the lines scored"},
	} {
		d := c
		d.Dir = t.TempDir()
		if d.Teacher, err = evalspec.Parse(tc.spec, "", nil); err != nil {
			t.Fatal(err)
		}
		d.TeacherSpec = tc.spec
		if err := d.Check(); err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("teacher %s: %v, want a one-line error about %q", tc.spec, err, tc.err)
		}
	}
}

// TestProvenance: the samples' provenance names where the master beams
// start, openings and deep wells together in one phrase (it once read "and
// games:…, record wells dropped,s from openings:…").
func TestProvenance(t *testing.T) {
	for _, tc := range []struct {
		openings, deep int
		want           string
	}{
		{0, 0, "master beam width 20 quiescence true max pieces 20, network "},
		{5, 0, "master beams from openings:5:8:1001001, each width 20 quiescence true"},
		{0, 7, "master beams from games:7:1001001:20, record wells dropped, each width 20 quiescence true"},
		{5, 7, "master beams from openings:5:8:1001001 and games:7:1001001:20, record wells dropped, each width 20 quiescence true"},
	} {
		c := tinyConfig(t, t.TempDir())
		c.MasterOpenings, c.MasterDeep = tc.openings, tc.deep
		if tc.deep > 0 {
			c.MasterDeepMin = 20
		}
		ev, err := eval.NewNNUE(c.Start)
		if err != nil {
			t.Fatal(err)
		}
		x := &gen{cfg: c, g: 1, ev: ev, guide: ev}
		if got := x.provenance(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("openings %d deep %d: %q, want it to start %q", tc.openings, tc.deep, got, tc.want)
		}
		// The line of the committed folders made with both, read back on a resume.
		legacy := x.provenance()
		if tc.openings > 0 && tc.deep > 0 {
			legacy = "and games:7:1001001:20, record wells dropped,s from openings:5:8:1001001, each width 20 quiescence true" + strings.TrimPrefix(x.provenance(), tc.want)
		}
		if got := x.legacyProvenance(); got != legacy {
			t.Errorf("openings %d deep %d: legacy %q, want %q", tc.openings, tc.deep, got, legacy)
		}
	}
}
