package cycle

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
)

func tinyConfig(t *testing.T, dir string) Config {
	start, err := nnue.Load("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	return Config{Dir: dir, Start: start, Generations: 2, MasterWidth: 20, MasterPieces: 20, Samples: 80,
		TargetWidth: 8, TargetPieces: 3, Train: train.Config{Batch: 16, MaxEpochs: 2}, Seed: 1, Workers: 2}
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
