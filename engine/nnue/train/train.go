// Package train trains the engine's NNUE network (engine/nnue) with GoMLX
// on the pure-Go backend ("go"; github.com/gomlx/compute/gobackend, so no
// XLA is linked). It is the only package of the project that imports
// GoMLX.
//
// The GoMLX model is the engine's network: feature indices [B,K] gather
// rows of W1 that are summed, plus B1, the hidden activation, W2 and B2,
// and a tanh on the output (targets are in [-1, 1]). Loss: mean squared
// error. Optimiser: Adam (learning rate Config.LearningRate), after which
// W1 is clamped to +-Config.Clamp, so that the int16 engine network keeps
// its precision and cannot overflow. Initial weights are seeded (PCG), the
// order of the samples is a seeded permutation per epoch, the last partial
// batch of an epoch is left out (one compiled shape), and about a tenth of
// the samples (by a hash of their features) is held out for validation.
// Training stops after Config.Patience epochs without a better validation
// loss; the best epoch's network is the result.
//
// With Config.Dir set, a GoMLX checkpoint of every variable (Adam's state
// included) and a small state file are written after every epoch, and the
// best network so far as best.hlnn (the engine's weights format); a run
// with the same Dir and configuration resumes after the last finished
// epoch and ends with the same weights as an uninterrupted run.
package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
	gotrain "github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/hatelab/hatelab/engine/nnue"
)

// Sample is one training well: its active features (K indices of the
// feature set) and its target in [-1, 1].
type Sample struct {
	Feats  []int32
	Target float32
}

// Config describes a training run.
type Config struct {
	Features   *nnue.FeatureSet
	Hidden     int             // 0: 32
	Activation nnue.Activation // hidden activation
	// LearningRate (0: 1e-3), Batch (0: 256), MaxEpochs (0: 20),
	// Patience (0: 3), Clamp (0: 1) for |W1|.
	LearningRate float64
	Batch        int
	MaxEpochs    int
	Patience     int
	Clamp        float64
	Seed         uint64
	// Start, when set, is the network training starts from (a previous
	// generation); otherwise the weights are seeded random.
	Start *nnue.Network
	// Dir receives checkpoints and resumes from them ("": none).
	Dir string
	// OnEpoch, when set, is called after every epoch; an error stops
	// training with it (after the epoch's checkpoint).
	OnEpoch func(EpochStats) error
}

// EpochStats describes one epoch.
type EpochStats struct {
	Epoch    int     `json:"epoch"`
	Steps    int     `json:"steps"`
	TrainMSE float64 `json:"train_mse"`
	ValidMSE float64 `json:"valid_mse"`
	Best     bool    `json:"best"`
	Seconds  float64 `json:"seconds"`
}

// Result is a finished training run.
type Result struct {
	// Net is the network of the best epoch (the engine's float network;
	// its Header holds the metrics).
	Net       *nnue.Network
	BestEpoch int
	Epochs    []EpochStats
	// EarlyStop tells that training stopped for lack of progress.
	EarlyStop    bool
	Train, Valid int
}

// state is what Dir holds besides the GoMLX checkpoint.
type state struct {
	Epochs    []EpochStats `json:"epochs"`
	BestValid float64      `json:"best_valid"`
	BestEpoch int          `json:"best_epoch"`
	Bad       int          `json:"bad_epochs"`
	Key       string       `json:"key"`
}

// ErrConfig reports a bad configuration or bad samples.
var ErrConfig = errors.New("train: invalid configuration")

func (c *Config) defaults() {
	if c.Hidden == 0 {
		c.Hidden = 32
	}
	if c.LearningRate == 0 {
		c.LearningRate = 1e-3
	}
	if c.Batch == 0 {
		c.Batch = 256
	}
	if c.MaxEpochs == 0 {
		c.MaxEpochs = 20
	}
	if c.Patience == 0 {
		c.Patience = 3
	}
	if c.Clamp == 0 {
		c.Clamp = 1
	}
}

func (c *Config) key(n int) string {
	return fmt.Sprintf("%s H%d %s lr=%g batch=%d clamp=%g seed=%d samples=%d start=%v", c.Features, c.Hidden, c.Activation,
		c.LearningRate, c.Batch, c.Clamp, c.Seed, n, c.Start != nil)
}

// IsValid puts about a tenth of the samples, by a hash of their features,
// in the validation set.
func IsValid(feats []int32) bool {
	h := uint64(14695981039346656037)
	for _, f := range feats {
		h = (h ^ uint64(uint32(f))) * 1099511628211
	}
	h ^= h >> 29
	return h%10 == 0
}

// Backend returns the pure-Go GoMLX backend.
func Backend() (compute.Backend, error) { return gobackend.New("") }

// Train trains a network on samples.
func Train(ctx context.Context, cfg Config, samples []Sample) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil { // GoMLX reports graph errors by panicking
			res, err = nil, fmt.Errorf("train: %v", r)
		}
	}()
	cfg.defaults()
	fs := cfg.Features
	if fs == nil || cfg.Hidden < 1 || cfg.Hidden > nnue.MaxHidden || cfg.Batch < 1 || cfg.LearningRate <= 0 {
		return nil, fmt.Errorf("%w: features %v, hidden %d, batch %d, learning rate %g", ErrConfig, fs, cfg.Hidden, cfg.Batch, cfg.LearningRate)
	}
	var trainS, validS []Sample
	for _, s := range samples {
		if len(s.Feats) != fs.Active() || math.IsNaN(float64(s.Target)) || s.Target < -1 || s.Target > 1 {
			return nil, fmt.Errorf("%w: a sample has %d features (want %d) or target %v outside [-1, 1]", ErrConfig, len(s.Feats), fs.Active(), s.Target)
		}
		for _, f := range s.Feats {
			if f < 0 || int(f) >= fs.Count() {
				return nil, fmt.Errorf("%w: feature %d out of range", ErrConfig, f)
			}
		}
		if IsValid(s.Feats) {
			validS = append(validS, s)
		} else {
			trainS = append(trainS, s)
		}
	}
	if len(trainS) < cfg.Batch || len(validS) == 0 {
		return nil, fmt.Errorf("%w: %d training samples (batch %d), %d validation samples", ErrConfig, len(trainS), cfg.Batch, len(validS))
	}
	backend, err := Backend()
	if err != nil {
		return nil, err
	}
	store := model.NewStore()
	st := &state{BestValid: math.Inf(1), BestEpoch: -1, Key: cfg.key(len(samples))}
	var ck *checkpoint.Handler
	var best *nnue.Network
	if cfg.Dir != "" {
		if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
			return nil, err
		}
		if b, err := os.ReadFile(filepath.Join(cfg.Dir, "state.json")); err == nil {
			if err := json.Unmarshal(b, st); err != nil {
				return nil, fmt.Errorf("train: %s: %v", filepath.Join(cfg.Dir, "state.json"), err)
			}
			if st.Key != cfg.key(len(samples)) {
				return nil, fmt.Errorf("%w: %s was made by another run (%s)", ErrConfig, cfg.Dir, st.Key)
			}
			if best, err = nnue.Load(filepath.Join(cfg.Dir, "best.hlnn")); err != nil {
				return nil, err
			}
		}
		if ck, err = checkpoint.Build(store).Dir(cfg.Dir).Keep(2).Done(); err != nil {
			return nil, err
		}
	}
	initVariables(store, fs, cfg.Hidden, cfg.Seed, cfg.Start)
	opt := clampW1{optimizer.Adam().LearningRate(cfg.LearningRate).Done(), cfg.Clamp}
	trainer := gotrain.NewTrainer(backend, store, modelFn(cfg.Activation), loss.MeanSquaredError, opt, nil, nil)
	predict, err := model.NewExec(backend, store, modelFn(cfg.Activation))
	if err != nil {
		return nil, err
	}
	k := fs.Active()
	idx := make([]int32, cfg.Batch*k)
	lab := make([]float32, cfg.Batch)
	for epoch := len(st.Epochs); epoch < cfg.MaxEpochs && st.Bad < cfg.Patience; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		perm := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch)+1)).Perm(len(trainS))
		var sum float64
		steps := 0
		for lo := 0; lo+cfg.Batch <= len(perm); lo += cfg.Batch {
			for b := 0; b < cfg.Batch; b++ {
				s := &trainS[perm[lo+b]]
				copy(idx[b*k:], s.Feats)
				lab[b] = s.Target
			}
			m, err := trainer.TrainStep(gotrain.Batch{
				Inputs: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(idx, cfg.Batch, k)},
				Labels: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(lab, cfg.Batch, 1)}})
			if err != nil {
				return nil, err
			}
			sum += scalar(m[0])
			steps++
		}
		es := EpochStats{Epoch: epoch, Steps: steps, TrainMSE: sum / float64(steps)}
		if es.ValidMSE, err = mse(predict, validS, cfg.Batch, k); err != nil {
			return nil, err
		}
		if es.ValidMSE < st.BestValid {
			st.BestValid, st.BestEpoch, st.Bad, es.Best = es.ValidMSE, epoch, 0, true
			if best, err = export(store, fs, cfg.Hidden, cfg.Activation); err != nil {
				return nil, err
			}
		} else {
			st.Bad++
		}
		es.Seconds = time.Since(t0).Seconds()
		st.Epochs = append(st.Epochs, es)
		if cfg.Dir != "" {
			if err := save(cfg.Dir, ck, st, best); err != nil {
				return nil, err
			}
		}
		if cfg.OnEpoch != nil {
			if err := cfg.OnEpoch(es); err != nil {
				return nil, err
			}
		}
	}
	if best == nil {
		return nil, errors.New("train: no epoch ran")
	}
	best.Header.Metrics = map[string]float64{"valid_mse": st.BestValid, "best_epoch": float64(st.BestEpoch),
		"train_samples": float64(len(trainS)), "valid_samples": float64(len(validS))}
	return &Result{Net: best, BestEpoch: st.BestEpoch, Epochs: st.Epochs, EarlyStop: st.Bad >= cfg.Patience,
		Train: len(trainS), Valid: len(validS)}, nil
}

// save writes the checkpoint, then best.hlnn, then state.json (each
// renamed into place), so that a kill at any point leaves a state that
// resumes.
func save(dir string, ck *checkpoint.Handler, st *state, best *nnue.Network) error {
	if err := ck.Save(); err != nil {
		return err
	}
	if err := nnue.Save(filepath.Join(dir, "best.hlnn"), best); err != nil {
		return err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "state.json.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "state.json"))
}

func scalar(t *tensors.Tensor) float64 {
	switch v := t.Value().(type) {
	case float32:
		return float64(v)
	case float64:
		return v
	}
	return math.NaN()
}

// Predict returns the GoMLX network's outputs (after the tanh) for the
// samples, in batches of batch (the last one padded).
func predictAll(predict *model.Exec, samples []Sample, batch, k int) ([]float32, error) {
	out := make([]float32, 0, len(samples))
	idx := make([]int32, batch*k)
	for lo := 0; lo < len(samples); lo += batch {
		for b := 0; b < batch; b++ {
			s := &samples[min(lo+b, len(samples)-1)]
			copy(idx[b*k:], s.Feats)
		}
		t, err := predict.Call1(tensors.FromFlatDataAndDimensions(idx, batch, k))
		if err != nil {
			return nil, err
		}
		p, err := tensors.CopyFlatData[float32](t)
		if err != nil {
			return nil, err
		}
		out = append(out, p[:min(batch, len(samples)-lo)]...)
	}
	return out, nil
}

func mse(predict *model.Exec, samples []Sample, batch, k int) (float64, error) {
	p, err := predictAll(predict, samples, batch, k)
	if err != nil {
		return 0, err
	}
	s := 0.0
	for i, v := range p {
		d := float64(v) - float64(samples[i].Target)
		s += d * d
	}
	return s / float64(len(p)), nil
}
