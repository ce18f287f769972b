package cycle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
)

func tinyConfig(t *testing.T, dir string) Config {
	start, err := nnue.Load("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	return Config{Dir: dir, Start: start, Generations: 2, MasterBeamWidth: 20, MasterPieces: 20, Samples: 80,
		TargetBeamWidth: 8, TargetPieces: 3, Train: train.Config{Batch: 16, MaxEpochs: 2}, Seed: 1, Workers: 2}
}

// TestCycleResume: two tiny generations, uninterrupted and killed after a
// stage of each kind then resumed, give byte-identical networks; the
// reports hold the stages' numbers.
func TestCycleResume(t *testing.T) {
	a := tinyConfig(t, t.TempDir())
	ra, err := Run(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ra {
		if r.Sampled != 80 || r.Samples < 1 || r.Samples > r.Sampled || len(r.Epochs) != 2 || r.MeanTarget == -1 ||
			r.ValidSamples < 1 || math.IsNaN(r.ValidSpearman) && r.ValidSamples >= 3 {
			t.Fatalf("report %+v", r)
		}
		n := 0
		for _, c := range r.TargetHistogram {
			n += c
		}
		if len(r.TargetHistogram) != 20 || n != r.Samples || r.TargetHistogram[0] < r.DeadTargets {
			t.Fatalf("histogram %v of %d targets (%d dead)", r.TargetHistogram, r.Samples, r.DeadTargets)
		}
	}
	for _, kill := range []struct {
		gen   int
		stage string
	}{{1, "master"}, {1, "targets"}, {2, "train"}} {
		b := tinyConfig(t, t.TempDir())
		killed := errors.New("killed")
		b.OnStage = func(g int, stage string) error {
			if g == kill.gen && stage == kill.stage {
				return killed
			}
			return nil
		}
		if _, err := Run(context.Background(), b); !errors.Is(err, killed) {
			t.Fatalf("kill at %v: %v", kill, err)
		}
		b.OnStage = nil
		if _, err := Run(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		for _, g := range []string{"gen-01.hlnn", "gen-02.hlnn"} {
			x, _ := os.ReadFile(filepath.Join(a.Dir, g))
			y, _ := os.ReadFile(filepath.Join(b.Dir, g))
			if len(x) == 0 || !bytes.Equal(x, y) {
				t.Fatalf("kill at %v: %s differs", kill, g)
			}
		}
	}
}

// nnueLoad returns the provenance of a weights file.
func nnueLoad(path string) (string, error) {
	n, err := nnue.Load(path)
	if err != nil {
		return "", err
	}
	return n.Header.Provenance, nil
}

// TestOldReport: a report of an older version (beam widths under
// master_width and target_width) reads with its widths.
func TestOldReport(t *testing.T) {
	for _, tc := range []struct {
		json           string
		master, target int
	}{
		{`{"generation":2,"master_width":10000,"target_width":256,"target_pieces":10}`, 10000, 256},
		{`{"generation":2,"master_beam_width":300,"target_beam_width":64,"target_pieces":10}`, 300, 64},
	} {
		var r Report
		if err := json.Unmarshal([]byte(tc.json), &r); err != nil || r.MasterBeamWidth != tc.master || r.TargetBeamWidth != tc.target || r.Generation != 2 || r.TargetPieces != 10 {
			t.Errorf("%s: %+v, %v", tc.json, r, err)
		}
	}
	b, err := json.Marshal(Report{MasterBeamWidth: 5, TargetBeamWidth: 6})
	if err != nil || !strings.Contains(string(b), `"master_beam_width":5`) || !strings.Contains(string(b), `"target_beam_width":6`) {
		t.Errorf("Marshal: %s, %v", b, err)
	}
}

// TestCycleGates: a tiny cycle gated on openings and on a deep suite
// reports both gates of each generation, rejects a generation unless it
// passes both, and, killed in the middle of a generation's second gate
// and run again (on 1 worker instead of 2, the gates' games 2 at once
// instead of 1), gives the same networks, verdicts and gate files.
func TestCycleGates(t *testing.T) {
	gates := func(dir string, parallel int, rep progress.Reporter) Gates {
		base, err := arena.ParseArm("score", nil)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := ParseGates([]string{"openings:1:8:1@w5", "games:1:1:20@w5"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range gs {
			gs[i].Baseline, gs[i].Dir, gs[i].Parallel, gs[i].Progress = base, dir, parallel, rep
		}
		return gs
	}
	a := tinyConfig(t, t.TempDir())
	a.Gate = gates(a.Dir, 1, nil).Judge
	ra, err := Run(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ra {
		if len(r.Gates) != 2 || r.Gates[0].Suite != "openings:1:8:1" || r.Gates[1].Suite != "games:1:1:20" {
			t.Fatalf("generation %d: gates %+v", r.Generation, r.Gates)
		}
		both := r.Gates[0].Pass && r.Gates[1].Pass
		if (r.NextStart == "") != both || strings.Contains(r.Gate, "kept") != both {
			t.Fatalf("generation %d: gates passed %v and %v, next start %q, %q", r.Generation, r.Gates[0].Pass, r.Gates[1].Pass, r.NextStart, r.Gate)
		}
		for k, g := range r.Gates {
			if len(g.Widths) != 1 || g.Widths[0].File != GateFile(r.Generation, k, 0, 5) || g.Widths[0].VsPrev.N != len(g.Widths[0].VsPrev.Diffs) {
				t.Fatalf("generation %d, gate %d: %+v", r.Generation, k+1, g)
			}
			if _, err := os.Stat(filepath.Join(a.Dir, g.Widths[0].File)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Generation 1 ties its start on the opening and loses on the deep
	// well: rejected, for the deep gate alone.
	if r := ra[0]; !r.Gates[0].Pass || r.Gates[1].Pass || !strings.HasSuffix(r.Gate, "(failed gate 2 of 2)") {
		t.Fatalf("generation 1: gates passed %v and %v, %q: want the openings passed and the deep gate failed (if training changed, choose suites that split)",
			r.Gates[0].Pass, r.Gates[1].Pass, r.Gate)
	}
	b := tinyConfig(t, t.TempDir())
	b.Workers = 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	killed := false
	b.Gate = gates(b.Dir, 2, progress.Func(func(e progress.Event) {
		if e.Job == "nnue cycle gen 1 gate" && strings.HasPrefix(e.Stage, "gate 2 of 2") && e.Done >= 1 {
			killed = true
			cancel()
		}
	})).Judge
	if _, err := Run(ctx, b); !killed || !errors.Is(err, context.Canceled) {
		t.Fatalf("killed %v: %v", killed, err)
	}
	if _, err := os.Stat(filepath.Join(b.Dir, "gen-01.report.json")); err == nil {
		t.Fatal("a report written before its gates finished")
	}
	b.Gate = gates(b.Dir, 2, nil).Judge
	rb, err := Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ra {
		ga, _ := json.Marshal(ra[i].Gates)
		gb, _ := json.Marshal(rb[i].Gates)
		if ra[i].Gate != rb[i].Gate || string(ga) != string(gb) || ra[i].NextStart != strings.Replace(rb[i].NextStart, b.Dir, a.Dir, 1) {
			t.Fatalf("generation %d: resumed\n%s %s\nwant\n%s %s", i+1, rb[i].Gate, gb, ra[i].Gate, ga)
		}
		for _, f := range []string{ra[i].Gates[0].Widths[0].File, ra[i].Gates[1].Widths[0].File, filepath.Base(ra[i].Network)} {
			x, _ := os.ReadFile(filepath.Join(a.Dir, f))
			y, _ := os.ReadFile(filepath.Join(b.Dir, f))
			if f != filepath.Base(ra[i].Network) {
				x, y = gameLines(t, x), gameLines(t, y)
			}
			if len(x) == 0 || !bytes.Equal(x, y) {
				t.Fatalf("generation %d: %s differs", i+1, f)
			}
		}
	}
}

// gameLines are a match file's games, sorted, without their seconds
// (the order games finish in and their time depend on the run).
func gameLines(t *testing.T, b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var out []string
	for _, l := range lines[1:] {
		var g arena.Game
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		g.Seconds = 0
		j, _ := json.Marshal(g)
		out = append(out, string(j))
	}
	slices.Sort(out)
	return []byte(lines[0] + "\n" + strings.Join(out, "\n"))
}
