// Package train trains the engine's NNUE network (engine/nnue) with GoMLX
// on the pure-Go backend ("go"; github.com/gomlx/compute/gobackend, so no
// XLA is linked). It is the only package of the project that imports
// GoMLX.
//
// The GoMLX model is the engine's network: feature indices [B,K] gather
// rows of W1 that are summed, plus B1, the hidden activation, W2 and B2,
// and a tanh on the output (targets are in [-1, 1]). Loss: mean squared
// error, plus, with Config.RankWeight, a ranking term (rank.go): a
// pairwise logistic loss over the pairs of a batch in one group (wells of
// the same number of filled cells), whose batches are then cut from the
// samples sorted by group. Optimiser: Adam (learning rate Config.LearningRate), after which
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
	"regexp"
	"strconv"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
	gotrain "github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Sample is one training well: its active features (K indices of the
// feature set), its target in [-1, 1] and its group, the wells it is
// ranked against when Config.RankWeight is set (the cycle's: its number
// of filled cells; ignored otherwise).
type Sample struct {
	Feats  []int32
	Target float32
	Group  int32
}

// Config describes a training run.
type Config struct {
	Features   *nnue.FeatureSet
	Hidden     int             // 0: DefaultHidden
	Activation nnue.Activation // hidden activation
	// LearningRate, Batch, MaxEpochs, Patience and Clamp (for |W1|); a
	// zero field takes its Default constant.
	LearningRate float64
	Batch        int
	MaxEpochs    int
	Patience     int
	Clamp        float64
	Seed         uint64
	// RankWeight, when positive, adds RankWeight times the ranking loss
	// (rank.go) to the mean squared error, and early stopping follows
	// their sum on the validation samples; 0: mean squared error alone.
	RankWeight float64
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
	Epoch int `json:"epoch"`
	Steps int `json:"steps"`
	// TrainMSE is the mean training loss of the epoch's steps (with
	// RankWeight, the mean squared error plus the weighted ranking term).
	TrainMSE float64 `json:"train_mse"`
	ValidMSE float64 `json:"valid_mse"`
	// ValidLoss, with RankWeight, is the validation loss early stopping
	// follows: ValidMSE plus RankWeight times the ranking loss over every
	// pair of validation samples in one group.
	ValidLoss float64 `json:"valid_loss,omitempty"`
	Best      bool    `json:"best"`
	Seconds   float64 `json:"seconds"`
	// OutputScale is the factor the epoch's output weights were scaled
	// by to keep the engine's int16 network within nnue.MaxErrorBound
	// (see fitOutput); 0 (left out) when they were not scaled.
	OutputScale float64 `json:"output_scale,omitempty"`
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

// The defaults of Config's zero fields, named once (the CLI's flags and
// the cycle use them too).
const (
	DefaultHidden       = 32
	DefaultLearningRate = 1e-3
	DefaultBatch        = 256
	DefaultMaxEpochs    = 20
	DefaultPatience     = 3
	DefaultClamp        = 1.0
	// MaxRankWeight bounds Config.RankWeight: the ranking term is at most
	// a few units, the squared error at most 4.
	MaxRankWeight = 1000
)

func (c *Config) defaults() {
	if c.Hidden == 0 {
		c.Hidden = DefaultHidden
	}
	if c.LearningRate == 0 {
		c.LearningRate = DefaultLearningRate
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	if c.MaxEpochs == 0 {
		c.MaxEpochs = DefaultMaxEpochs
	}
	if c.Patience == 0 {
		c.Patience = DefaultPatience
	}
	if c.Clamp == 0 {
		c.Clamp = DefaultClamp
	}
}

// Check reports, in one line, a configuration Train would refuse (after
// the defaults of its zero fields): no feature set, a hidden size out of
// 1..nnue.MaxHidden, a batch, epoch count or patience below 1, a learning
// rate or clamp that is not a finite positive number.
func (c Config) Check() error {
	c.defaults()
	switch {
	case c.Features == nil:
		return fmt.Errorf("%w: no feature set", ErrConfig)
	case c.Hidden < 1 || c.Hidden > nnue.MaxHidden:
		return fmt.Errorf("%w: hidden size %d out of range 1..%d", ErrConfig, c.Hidden, nnue.MaxHidden)
	case c.Batch < 1 || c.MaxEpochs < 1 || c.Patience < 1:
		return fmt.Errorf("%w: batch %d, epochs %d and patience %d must be at least 1", ErrConfig, c.Batch, c.MaxEpochs, c.Patience)
	case !(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0):
		return fmt.Errorf("%w: learning rate %g must be a finite positive number", ErrConfig, c.LearningRate)
	case !(c.Clamp > 0) || math.IsInf(c.Clamp, 0):
		return fmt.Errorf("%w: clamp %g must be a finite positive number", ErrConfig, c.Clamp)
	case !(c.RankWeight >= 0) || c.RankWeight > MaxRankWeight:
		return fmt.Errorf("%w: rank weight %g must be 0 to %g", ErrConfig, c.RankWeight, float64(MaxRankWeight))
	}
	return nil
}

func (c *Config) key(n int) string {
	k := fmt.Sprintf("%s H%d %s lr=%g batch=%d clamp=%g seed=%d samples=%d start=%v", c.Features, c.Hidden, c.Activation,
		c.LearningRate, c.Batch, c.Clamp, c.Seed, n, c.Start != nil)
	if c.RankWeight > 0 {
		k += fmt.Sprintf(" rank=%g", c.RankWeight)
	}
	return k
}

// IsValid puts about a tenth of the samples, by a hash of their features,
// in the validation set (nnue.HeldOut).
func IsValid(feats []int32) bool { return nnue.HeldOut(feats) }

// Backend returns the pure-Go GoMLX backend.
func Backend() (compute.Backend, error) { return gobackend.New("") }

// Train trains a network on samples.
func Train(ctx context.Context, cfg Config, samples []Sample) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil { // GoMLX reports graph errors by panicking
			res, err = nil, fmt.Errorf("train: %v", r)
		}
	}()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg.defaults()
	trainS, validS, err := split(cfg, samples)
	if err != nil {
		return nil, err
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
		if best, ck, err = resume(cfg.Dir, store, st); err != nil {
			return nil, err
		}
	}
	initVariables(store, cfg.Features, cfg.Hidden, cfg.Seed, cfg.Start)
	opt := clampW1{optimizer.Adam().LearningRate(cfg.LearningRate).Done(), cfg.Clamp}
	t := &trainer{cfg: cfg, store: store, train: trainS, valid: validS,
		tr: gotrain.NewTrainer(backend, store, modelFn(cfg.Activation), lossFn(cfg.RankWeight), opt, nil, nil)}
	if t.predict, err = model.NewExec(backend, store, modelFn(cfg.Activation)); err != nil {
		return nil, err
	}
	for epoch := len(st.Epochs); epoch < cfg.MaxEpochs && st.Bad < cfg.Patience; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		es, err := t.epoch(epoch)
		if err != nil {
			return nil, err
		}
		if v := es.criterion(); math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("train: epoch %d: the validation loss is %v (a learning rate or rank weight too large?)", epoch, v)
		} else if v < st.BestValid {
			st.BestValid, st.BestEpoch, st.Bad, es.Best = v, epoch, 0, true
			if best, err = export(store, cfg.Features, cfg.Hidden, cfg.Activation); err != nil {
				return nil, err
			}
		} else {
			st.Bad++
		}
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
	best.Header.Metrics = map[string]float64{"valid_mse": st.Epochs[st.BestEpoch].ValidMSE, "best_epoch": float64(st.BestEpoch),
		"train_samples": float64(len(trainS)), "valid_samples": float64(len(validS))}
	if cfg.RankWeight > 0 {
		best.Header.Metrics["valid_loss"] = st.BestValid
	}
	return &Result{Net: best, BestEpoch: st.BestEpoch, Epochs: st.Epochs, EarlyStop: st.Bad >= cfg.Patience,
		Train: len(trainS), Valid: len(validS)}, nil
}

// split checks the samples and holds about a tenth out for validation
// (IsValid).
func split(cfg Config, samples []Sample) (trainS, validS []Sample, err error) {
	fs := cfg.Features
	for _, s := range samples {
		if len(s.Feats) != fs.Active() || math.IsNaN(float64(s.Target)) || s.Target < -1 || s.Target > 1 {
			return nil, nil, fmt.Errorf("%w: a sample has %d features (want %d) or target %v outside [-1, 1]", ErrConfig, len(s.Feats), fs.Active(), s.Target)
		}
		for _, f := range s.Feats {
			if f < 0 || int(f) >= fs.Count() {
				return nil, nil, fmt.Errorf("%w: feature %d out of range", ErrConfig, f)
			}
		}
		if IsValid(s.Feats) {
			validS = append(validS, s)
		} else {
			trainS = append(trainS, s)
		}
	}
	if len(trainS) < cfg.Batch || len(validS) == 0 {
		return nil, nil, fmt.Errorf("%w: %d training samples (batch %d), %d validation samples", ErrConfig, len(trainS), cfg.Batch, len(validS))
	}
	return trainS, validS, nil
}

// maxStateBytes bounds state.json (a few hundred bytes an epoch).
const maxStateBytes = 16 << 20

// resume reads dir's state (into st) and best network, if any, removes
// the checkpoints state.json does not account for (a kill during a
// checkpoint's write leaves a damaged newest one), and returns the
// checkpoint handler, which loads the newest checkpoint left.
func resume(dir string, store *model.Store, st *state) (*nnue.Network, *checkpoint.Handler, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	var best *nnue.Network
	sp := filepath.Join(dir, "state.json")
	b, err := readBounded(sp, maxStateBytes)
	switch {
	case err == nil:
		key := st.Key
		if err := json.Unmarshal(b, st); err != nil {
			return nil, nil, fmt.Errorf("train: %s: %v", sp, err)
		}
		if st.Key != key {
			return nil, nil, fmt.Errorf("%w: %s was made by another run (%s)", ErrConfig, dir, st.Key)
		}
		if best, err = nnue.Load(filepath.Join(dir, "best.hlnn")); err != nil {
			return nil, nil, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, nil, err
	}
	if err := dropCheckpoints(dir, len(st.Epochs)); err != nil {
		return nil, nil, err
	}
	ck, err := checkpoint.Build(store).Dir(dir).Keep(2).Done()
	return best, ck, err
}

// checkpointName matches GoMLX's checkpoint files and captures their
// count (epoch e's checkpoint is count e).
var checkpointName = regexp.MustCompile(`^checkpoint-n(\d+)-.*\.(bin|json)$`)

// dropCheckpoints removes the checkpoint files of count from on: those
// written after the last state.json (from = its number of epochs), whole
// or cut short by a kill.
func dropCheckpoints(dir string, from int) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		m := checkpointName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if n, err := strconv.Atoi(m[1]); err == nil && n >= from {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	atomicfile.RemoveStale(filepath.Join(dir, "state.json"))
	atomicfile.RemoveStale(filepath.Join(dir, "best.hlnn"))
	return nil
}

// readBounded reads a regular file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	b, err := boundedfile.ReadFile(path, limit, "training file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("train: %s %w", path, err)
	}
	return b, err
}

// trainer holds what an epoch needs.
type trainer struct {
	cfg          Config
	store        *model.Store
	tr           *gotrain.Trainer
	predict      *model.Exec
	train, valid []Sample
	idx          []int32
	lab          []float32
	labels       int // label columns: 1 (target), 2 with RankWeight (target, group)
}

// epoch runs one pass over the training samples in a seeded order (the
// last partial batch left out) and measures the validation error.
func (t *trainer) epoch(epoch int) (EpochStats, error) {
	t0 := time.Now()
	batch, k := t.cfg.Batch, t.cfg.Features.Active()
	if t.idx == nil {
		t.labels = 1
		if t.cfg.RankWeight > 0 {
			t.labels = 2
		}
		t.idx, t.lab = make([]int32, batch*k), make([]float32, batch*t.labels)
	}
	perm := rand.New(rand.NewPCG(t.cfg.Seed, uint64(epoch)+1)).Perm(len(t.train))
	if t.cfg.RankWeight > 0 {
		perm = groupBatches(perm, t.train, batch, t.cfg.Seed, epoch)
	}
	var sum float64
	steps := 0
	for lo := 0; lo+batch <= len(perm); lo += batch {
		for b := 0; b < batch; b++ {
			s := &t.train[perm[lo+b]]
			copy(t.idx[b*k:], s.Feats)
			t.lab[b*t.labels] = s.Target
			if t.labels == 2 {
				t.lab[b*2+1] = float32(s.Group)
			}
		}
		m, err := t.tr.TrainStep(gotrain.Batch{
			Inputs: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(t.idx, batch, k)},
			Labels: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(t.lab, batch, t.labels)}})
		if err != nil {
			return EpochStats{}, err
		}
		sum += scalar(m[0])
		steps++
	}
	es := EpochStats{Epoch: epoch, Steps: steps, TrainMSE: sum / float64(steps)}
	var err error
	if es.OutputScale, err = t.fitOutput(); err != nil {
		return EpochStats{}, err
	}
	p, err := predictAll(t.predict, t.valid, batch, k)
	if err != nil {
		return EpochStats{}, err
	}
	es.ValidMSE = meanSquared(p, t.valid)
	if t.cfg.RankWeight > 0 {
		es.ValidLoss = es.ValidMSE + t.cfg.RankWeight*rankLoss(p, t.valid)
	}
	es.Seconds = time.Since(t0).Seconds()
	return es, err
}

// save writes the checkpoint, then best.hlnn, then state.json (the last
// two atomically), so that a kill at any point leaves a state that
// resumes: a checkpoint newer than state.json is dropped by resume.
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
	return atomicfile.WriteBytes(filepath.Join(dir, "state.json"), 0o644, b)
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

// predictAll returns the GoMLX network's outputs (after the tanh) for the
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

// meanSquared is the mean squared error of the outputs p against the
// samples' targets.
func meanSquared(p []float32, samples []Sample) float64 {
	s := 0.0
	for i, v := range p {
		d := float64(v) - float64(samples[i].Target)
		s += d * d
	}
	return s / float64(len(p))
}

// criterion is the validation loss early stopping follows: ValidLoss
// with a ranking term, else ValidMSE.
func (e EpochStats) criterion() float64 {
	if e.ValidLoss != 0 {
		return e.ValidLoss
	}
	return e.ValidMSE
}
