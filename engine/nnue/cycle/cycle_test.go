package cycle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
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
