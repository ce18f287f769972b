package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

// tinyData: features of wells of seeded random 6x10 games (6 wide, 6 rows
// below the bar: K = 18) with targets from a seeded teacher network (the
// function to learn: row patterns only), tanh of its output.
func tinyData(t *testing.T, n int) (*nnue.FeatureSet, []Sample) {
	t.Helper()
	r, err := hatetris.NewRules(6, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := nnue.NewFeatureSet(nnue.Shared, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	teacher, _ := nnue.NewNetwork(fs, 4, nnue.HardTanh)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range teacher.W1[:64*4] {
		teacher.W1[i] = float32(rng.NormFloat64() * 0.4)
	}
	for j := range teacher.W2 {
		teacher.W2[j] = float32(rng.NormFloat64())
	}
	g := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	seen := map[hatetris.Well]bool{}
	var out []Sample
	w := hatetris.Well{}
	for len(out) < n {
		if !seen[w] {
			seen[w] = true
			feats := fs.Append(nil, w[r.Bar:r.Depth])
			out = append(out, Sample{Feats: feats, Target: float32(math.Tanh(teacher.Forward(feats)))})
		}
		_, buf = g.Move(&w, hatetris.Mild, nil, buf[:0])
		live := buf[:0]
		for _, res := range buf {
			if !res.GameOver {
				live = append(live, res)
			}
		}
		if len(live) == 0 {
			w = hatetris.Well{}
			continue
		}
		w = live[rng.IntN(len(live))].Well
	}
	return fs, out
}

// TestTrainLearnsAndExports: a small network learns the teacher's function
// (training MSE under a tenth of the targets' variance, validation MSE under
// a quarter: the window features unseen in training generalise only so
// far), |W1| stays within
// the clamp, and the exported engine network computes what GoMLX predicts
// (float within 1e-5; int16 within its error bound).
func TestTrainLearnsAndExports(t *testing.T) {
	fs, data := tinyData(t, 3000)
	res, err := Train(context.Background(), Config{Features: fs, Hidden: 8, Batch: 64, MaxEpochs: 30, Patience: 5,
		LearningRate: 3e-3, Clamp: 0.5, Seed: 1}, data)
	if err != nil {
		t.Fatal(err)
	}
	mean, v := 0.0, 0.0
	for _, s := range data {
		mean += float64(s.Target)
	}
	mean /= float64(len(data))
	for _, s := range data {
		v += (float64(s.Target) - mean) * (float64(s.Target) - mean)
	}
	v /= float64(len(data))
	best := res.Epochs[res.BestEpoch]
	t.Logf("%d train, %d valid; target variance %.4f; best epoch %d: train %.5f valid %.5f; %d epochs", res.Train, res.Valid, v, res.BestEpoch, best.TrainMSE, best.ValidMSE, len(res.Epochs))
	if best.TrainMSE > v/10 || best.ValidMSE > v/4 {
		t.Fatalf("did not learn: %+v", res.Epochs)
	}
	for _, w := range res.Net.W1 {
		if math.Abs(float64(w)) > 0.5 {
			t.Fatalf("|W1| %v above the clamp", w)
		}
	}
	pred, err := Predict(res.Net, data[:500], 64)
	if err != nil {
		t.Fatal(err)
	}
	q, err := nnue.Quantize(res.Net, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	rows := func(s Sample) []uint16 { // the rows back from the row features
		out := make([]uint16, fs.Height())
		for r := range out {
			out[r] = uint16(s.Feats[r])
		}
		return out
	}
	a := q.NewAccumulator()
	for i, s := range data[:500] {
		f := res.Net.Forward(s.Feats)
		if d := math.Abs(math.Tanh(f) - float64(pred[i])); d > 1e-5 {
			t.Fatalf("sample %d: engine %v, GoMLX %v", i, math.Tanh(f), pred[i])
		}
		q.Refresh(a, rows(s))
		if d := math.Abs(q.Value(a) - f); d > q.ErrorBound() {
			t.Fatalf("sample %d: int16 %v, float %v (bound %v)", i, q.Value(a), f, q.ErrorBound())
		}
	}
}

// TestResumeAfterKill: training killed after an epoch (its checkpoint
// written) and run again with the same directory ends with the same
// weights as an uninterrupted run.
func TestResumeAfterKill(t *testing.T) {
	fs, data := tinyData(t, 1500)
	cfg := Config{Features: fs, Hidden: 4, Batch: 64, MaxEpochs: 4, Patience: 10, Seed: 3, LearningRate: 3e-3}
	cfg.Dir = t.TempDir()
	whole, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dir = t.TempDir()
	killed := errors.New("killed")
	cfg.OnEpoch = func(es EpochStats) error {
		if es.Epoch == 1 {
			return killed
		}
		return nil
	}
	if _, err := Train(context.Background(), cfg, data); !errors.Is(err, killed) {
		t.Fatalf("first part: %v", err)
	}
	cfg.OnEpoch = nil
	resumed, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(resumed.Epochs) != 4 || !slices.Equal(resumed.Net.W1, whole.Net.W1) || !slices.Equal(resumed.Net.W2, whole.Net.W2) ||
		resumed.Net.B2 != whole.Net.B2 || resumed.Epochs[3].ValidMSE != whole.Epochs[3].ValidMSE {
		t.Fatalf("resumed run differs: %+v vs %+v", resumed.Epochs, whole.Epochs)
	}
	cfg.Seed = 4
	if _, err := Train(context.Background(), cfg, data); !errors.Is(err, ErrConfig) {
		t.Fatalf("another run's directory: %v", err)
	}
}

// TestResumeDamagedCheckpoint: a kill while GoMLX writes a checkpoint
// leaves a truncated .bin and an empty .json newer than state.json (or,
// in the first epoch, no state.json at all); the run resumes from the
// last checkpoint state.json accounts for and ends with the weights of an
// uninterrupted run.
func TestResumeDamagedCheckpoint(t *testing.T) {
	fs, data := tinyData(t, 1500)
	cfg := Config{Features: fs, Hidden: 4, Batch: 64, MaxEpochs: 3, Patience: 10, Seed: 3, LearningRate: 3e-3}
	whole, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		stopAt  int // epoch after which the first part stops (-1: none ran)
		damaged int // the damaged checkpoint's count
	}{{"first epoch", -1, 0}, {"third epoch", 1, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.Dir = t.TempDir()
			if tc.stopAt >= 0 {
				killed := errors.New("killed")
				c.OnEpoch = func(es EpochStats) error {
					if es.Epoch == tc.stopAt {
						return killed
					}
					return nil
				}
				if _, err := Train(context.Background(), c, data); !errors.Is(err, killed) {
					t.Fatalf("first part: %v", err)
				}
				c.OnEpoch = nil
			}
			base := filepath.Join(c.Dir, fmt.Sprintf("checkpoint-n%07d-20260101-000000-step-%08d", tc.damaged, 999))
			if err := os.WriteFile(base+".bin", []byte("PK\x03\x04trunc"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(base+".json", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(c.Dir, ".state.json.tmp-123"), []byte("{"), 0o644)
			resumed, err := Train(context.Background(), c, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(resumed.Epochs) != 3 || !slices.Equal(resumed.Net.W1, whole.Net.W1) || !slices.Equal(resumed.Net.W2, whole.Net.W2) || resumed.Net.B2 != whole.Net.B2 {
				t.Fatalf("resumed run differs: %+v vs %+v", resumed.Epochs, whole.Epochs)
			}
			if _, err := os.Stat(base + ".json"); err == nil {
				t.Fatal("the damaged checkpoint is still there")
			}
		})
	}
}

// TestConfigCheck: bad settings are refused in one line before any work.
func TestConfigCheck(t *testing.T) {
	fs, _ := nnue.NewFeatureSet(nnue.Shared, 6, 6)
	for _, tc := range []struct {
		name string
		c    Config
		ok   bool
	}{
		{"defaults", Config{Features: fs}, true},
		{"no features", Config{}, false},
		{"lr NaN", Config{Features: fs, LearningRate: math.NaN()}, false},
		{"lr +Inf", Config{Features: fs, LearningRate: math.Inf(1)}, false},
		{"lr negative", Config{Features: fs, LearningRate: -1}, false},
		{"batch negative", Config{Features: fs, Batch: -1}, false},
		{"epochs negative", Config{Features: fs, MaxEpochs: -2}, false},
		{"hidden 300", Config{Features: fs, Hidden: 300}, false},
		{"clamp NaN", Config{Features: fs, Clamp: math.NaN()}, false},
	} {
		err := tc.c.Check()
		if (err == nil) != tc.ok || err != nil && (!errors.Is(err, ErrConfig) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !tc.ok {
			if _, err := Train(context.Background(), tc.c, nil); err == nil {
				t.Errorf("%s: Train accepted it", tc.name)
			}
		}
	}
}

// TestTrainKeepsQuantizable: training from a start network whose output
// weights the int16 engine cannot run (Quantize refuses it) scales them
// back after the first epoch (its OutputScale in (0, 1)), and the result
// quantises within nnue.MaxErrorBound.
func TestTrainKeepsQuantizable(t *testing.T) {
	fs, data := tinyData(t, 2000)
	start, err := nnue.NewNetwork(fs, 8, nnue.HardTanh)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range start.W1 {
		start.W1[i] = float32(rng.NormFloat64() * 0.3)
	}
	for j := range start.W2 {
		start.W2[j] = float32(60 * (2*rng.Float64() - 1))
	}
	if _, err := nnue.Quantize(start, 0, 0); err == nil {
		t.Fatal("the start network should be refused by Quantize")
	}
	res, err := Train(context.Background(), Config{Features: fs, Hidden: 8, Batch: 64, MaxEpochs: 3, Patience: 3,
		LearningRate: 1e-3, Seed: 1, Start: start}, data)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Epochs[0].OutputScale; !(s > 0 && s < 1) {
		t.Fatalf("epoch 0 output scale %v, want in (0, 1)", s)
	}
	q, err := nnue.Quantize(res.Net, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if q.ErrorBound() > nnue.MaxErrorBound {
		t.Fatalf("error bound %v", q.ErrorBound())
	}
}

// TestRandomIsTheStart: Random is the network training starts from
// without a start network: training from it and training from nothing,
// with the same seed, end with the same weights.
func TestRandomIsTheStart(t *testing.T) {
	fs, data := tinyData(t, 1500)
	cfg := Config{Features: fs, Hidden: 4, Batch: 64, MaxEpochs: 2, Patience: 2, LearningRate: 3e-3, Seed: 7}
	r, err := Random(fs, cfg.Hidden, nnue.HardTanh, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Random(fs, cfg.Hidden, nnue.HardTanh, cfg.Seed); !slices.Equal(again.W1, r.W1) || !slices.Equal(again.W2, r.W2) {
		t.Fatal("Random is not deterministic")
	}
	a, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Start = r
	b, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Net.W1, b.Net.W1) || !slices.Equal(a.Net.W2, b.Net.W2) || a.Net.B2 != b.Net.B2 {
		t.Fatal("training from Random differs from training from nothing")
	}
}
