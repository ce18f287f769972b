package cycle

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// TestParseGate: a gate spec is a suite spec with an optional @wN; a
// records: suite, a bad setting, a bad suite or a bad width is refused in
// one line naming the spec.
func TestParseGate(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		widths  []int
		suite   string
		want    []int
		wantErr string
	}{
		{"openings:3:8:1", []int{20, 40}, "openings:3:8:1", []int{20, 40}, ""},
		{" openings:3:8:1@w50 ", []int{20, 40}, "openings:3:8:1", []int{50}, ""},
		{"games:2:7:20@w30", nil, "games:2:7:20", []int{30}, ""},
		{"games:2:7:20", []int{1000}, "games:2:7:20", []int{1000}, ""},
		{"empty:2@w5", nil, "empty:2", []int{5}, ""},
		{"records:5:1", []int{1000}, "", nil, `gate "records:5:1": record wells are the deep test set, never a gate: use a games: suite`},
		{"records:5:1@w1000", nil, "", nil, `gate "records:5:1@w1000": record wells are the deep test set`},
		{"distinct:records:5:1@w1000", nil, "", nil, `gate "distinct:records:5:1@w1000": record wells are the deep test set`},
		{"distinct: records:5:1@w1000", nil, "", nil, `gate "distinct: records:5:1@w1000": record wells are the deep test set`},
		{"openings:3:8:1@w0", nil, "", nil, `gate "openings:3:8:1@w0": setting "@w0": want @wN with N from 1 to`},
		{"openings:3:8:1@w010", nil, "", nil, `setting "@w010": want @wN`},
		{"openings:3:8:1@w", nil, "", nil, `setting "@w": want @wN`},
		{"openings:3:8:1@w99999999999999999999", nil, "", nil, `setting "@w99999999999999999999"`},
		{"openings:3:8:1@q", nil, "", nil, `unknown setting "@q" (want @wN, one beam width)`},
		{"openings:3:8:1@", nil, "", nil, `unknown setting "@"`},
		{"openings:3:8:1@w20@w40", nil, "", nil, `gate "openings:3:8:1@w20@w40": two beam widths: a gate plays at one @wN`},
		{"openings:0:8:1", []int{10}, "", nil, `gate "openings:0:8:1": suite "openings:0:8:1": number of starts`},
		{"nothing", []int{10}, "", nil, `unknown kind "nothing"`},
		{"openings:3:8:1", nil, "", nil, `gate "openings:3:8:1": no beam width`},
		{"openings:3:8:1", []int{10, 0}, "", nil, "beam width 0: want 1 to"},
		{"openings:3:8:1", []int{10, 10}, "", nil, "beam width 10 given twice"},
	} {
		g, err := ParseGate(tc.spec, tc.widths, nil)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v, want one line with %q", tc.spec, err, tc.wantErr)
			}
			continue
		}
		if err != nil || g.Suite.Spec != tc.suite || !slices.Equal(g.BeamWidths, tc.want) || !g.Quiescence || len(g.Suite.Starts) == 0 {
			t.Errorf("%q: %+v, %v; want suite %s at %v", tc.spec, g, err, tc.suite, tc.want)
		}
	}
}

// TestParseGates: several gates, one suite at one width in two of them
// refused.
func TestParseGates(t *testing.T) {
	for _, tc := range []struct {
		specs   []string
		widths  []int
		want    [][]int
		wantErr string
	}{
		{[]string{"openings:2:8:1", "games:2:7:20@w20", "games:2:7:20@w40"}, []int{20, 40}, [][]int{{20, 40}, {20}, {40}}, ""},
		{[]string{"openings:2:8:1@w20", "openings:2:8:1@w40"}, nil, [][]int{{20}, {40}}, ""},
		{[]string{"openings:2:8:1", "openings:2:8:1@w40"}, []int{20, 40}, nil, `gate "openings:2:8:1@w40": suite openings:2:8:1 at beam width 40 is already gate "openings:2:8:1"`},
		{[]string{"openings:2:8:1", "openings:2:8:1"}, []int{20}, nil, "at beam width 20 is already gate"},
		{[]string{"openings:2:8:1", "records:2:1@w20"}, []int{20}, nil, "record wells are the deep test set"},
		{nil, []int{20}, nil, "no gate"},
	} {
		gs, err := ParseGates(tc.specs, tc.widths, nil)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v, want one line with %q", tc.specs, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(gs) != len(tc.want) {
			t.Fatalf("%q: %d gates, %v", tc.specs, len(gs), err)
		}
		for i, g := range gs {
			if !slices.Equal(g.BeamWidths, tc.want[i]) {
				t.Errorf("%q: gate %d at %v, want %v", tc.specs, i+1, g.BeamWidths, tc.want[i])
			}
		}
	}
}

// FuzzSplitGateSpec: a gate spec's setting is cut without a panic; what
// is accepted is a suite and one @wN that rebuild the spec.
func FuzzSplitGateSpec(f *testing.F) {
	for _, s := range []string{"openings:20:8:101", "games:20:7:20@w1000", "games:1:2:3:a@b@w5", "x@q", "@w", "@w0", "@w01", "x@w1@w2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		suite, w, err := splitGateSpec(spec)
		switch {
		case err != nil:
			if strings.Contains(err.Error(), "\n") && !strings.Contains(spec, "\n") {
				t.Fatalf("%q: error of two lines: %v", spec, err)
			}
		case w == 0 && suite != spec:
			t.Fatalf("%q: no width, suite %q", spec, suite)
		case w != 0 && suite+"@w"+strconv.Itoa(w) != spec:
			t.Fatalf("%q: suite %q at %d", spec, suite, w)
		}
	})
}

// gatePair is generation 0's network and gen-02-small's: on the suites
// below at beam width 5, generation 0 (the new network) ties or beats
// gen-02-small (its start) on openings:1:8:2 and games:1:5:20 and loses
// on openings:1:8:1 and games:1:1:20.
func gatePair(t *testing.T) (prev, next *nnue.Network) {
	load := func(name string) *nnue.Network {
		n, err := nnue.Load(filepath.Join("..", "..", "..", "datasets", "weights", name))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return load("gen-02-small.hlnn"), load("gen-00.hlnn")
}

// TestGatesEveryGate: a network is kept only if it passes every gate,
// openings and deep; each gate's result (its comparisons at its width,
// from its own match file) is in the verdict, whichever failed, and the
// same with 1 and 2 games at once.
func TestGatesEveryGate(t *testing.T) {
	prev, next := gatePair(t)
	base, err := arena.ParseArm("score", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		specs  []string
		pass   []bool
		keep   bool
		failed string
	}{
		{[]string{"openings:1:8:2@w5", "games:1:5:20@w5"}, []bool{true, true}, true, ""},
		{[]string{"openings:1:8:2@w5", "games:1:1:20@w5"}, []bool{true, false}, false, "(failed gate 2 of 2)"},
		{[]string{"openings:1:8:1@w5", "games:1:5:20@w5"}, []bool{false, true}, false, "(failed gate 1 of 2)"},
	} {
		var got []Verdict
		for _, parallel := range []int{1, 2} {
			gs, err := ParseGates(tc.specs, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for i := range gs {
				gs[i].Baseline, gs[i].Dir, gs[i].Parallel = base, dir, parallel
			}
			v, err := gs.Judge(context.Background(), 3, "gen-02", prev, next)
			if err != nil {
				t.Fatal(err)
			}
			if v.Keep != tc.keep || len(v.Gates) != 2 || !strings.Contains(v.Line, tc.failed) {
				t.Fatalf("%q: keep %v, %d gates, %q", tc.specs, v.Keep, len(v.Gates), v.Line)
			}
			for k, r := range v.Gates {
				g := gs[k]
				if r.Pass != tc.pass[k] || r.Suite != g.Suite.Spec || r.SuiteID != g.Suite.ID() || len(r.Widths) != 1 || r.Widths[0].BeamWidth != 5 {
					t.Fatalf("%q: gate %d: %+v", tc.specs, k+1, r)
				}
				word := map[bool]string{true: "passed", false: "failed"}[r.Pass]
				if !strings.Contains(v.Line, fmt.Sprintf("gate %d %s", k+1, word)) || !strings.Contains(v.Line, "arena "+r.Suite) {
					t.Errorf("%q: the line %q does not give gate %d (%s)", tc.specs, v.Line, k+1, word)
				}
				// The result is its own file's games: the summed paired
				// difference, and the comparisons with the start and the
				// baseline.
				w := r.Widths[0]
				if w.File != GateFile(3, k, 0, 5) {
					t.Errorf("gate %d: file %q", k+1, w.File)
				}
				m, err := arena.ReadMatch(filepath.Join(dir, w.File), "gen-02")
				if err != nil {
					t.Fatal(err)
				}
				st := m.Standings
				a, b := slices.Index(st.Arms, "gen-03"), slices.Index(st.Arms, "score")
				if m.Header.SuiteSpec != r.Suite || a < 1 || b < 1 {
					t.Fatalf("gate %d: file of %s, arms %v", k+1, m.Header.SuiteSpec, st.Arms)
				}
				c := stats.Compare("gen-03", "gen-02", st.Scores[a], st.Scores[0], 10, 1, 0.95, nil)
				cb := stats.Compare("gen-03", "score", st.Scores[a], st.Scores[b], 10, 1, 0.95, nil)
				if c.Diff.Estimate*float64(c.N) != r.Diff || (r.Diff >= 0) != r.Pass || w.VsPrev.Diff.Estimate != c.Diff.Estimate ||
					w.VsBaseline.Baseline != "score" || w.VsBaseline.Diff.Estimate != cb.Diff.Estimate || w.VsBaseline.Wins != cb.Wins {
					t.Errorf("gate %d: %+v against its file's %+v and %+v", k+1, r, c, cb)
				}
			}
			got = append(got, v)
		}
		a, _ := json.Marshal(got[0])
		b, _ := json.Marshal(got[1])
		if string(a) != string(b) {
			t.Errorf("%q: 1 and 2 games at once differ:\n%s\n%s", tc.specs, a, b)
		}
	}
	if _, err := (Gates{}).Judge(context.Background(), 1, "gen-00", prev, next); err == nil {
		t.Error("no gate judged")
	}
}
