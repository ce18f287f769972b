// Package cycle runs NNUE training generations: from the network of
// generation g-1, a master beam (with quiescence by default) whose kept
// wells are reservoir-sampled (seeded), training targets by small beams
// (engine/nnue/targets), training from the previous weights with GoMLX
// (engine/nnue/train), and export of generation g.
//
// Layout of Config.Dir: gen-00.hlnn (the start network, copied), then per
// generation gen-NN/ with samples.bin (the sampled wells, duplicates
// dropped, with provenance: a JSON header line and the rows in binary,
// checksummed), targets.json, train/ (GoMLX checkpoints), and
// gen-NN.hlnn and gen-NN.report.json in Dir. Every stage writes its output
// atomically (temporary file, sync, rename) and is skipped when the output exists, and training
// resumes from its checkpoints, so a run killed at any stage and started
// again gives the same networks.
package cycle

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/rankcorr"
)

// Config describes a cycle.
type Config struct {
	Dir         string
	Start       *nnue.Network // generation 0 (written to Dir once)
	Generations int
	// MasterWidth and MasterPieces (0: until the beam dies) of the master
	// beam; NoQuiescence turns its quiescence off.
	MasterWidth, MasterPieces int
	NoQuiescence              bool
	// Samples drawn from the master beam's kept wells.
	Samples int
	// TargetWidth and TargetPieces of the target beams (0: 512, 10).
	TargetWidth, TargetPieces int
	// Train configures training (Features, Hidden, Activation come from
	// the start network; Dir and Start are set per generation).
	Train   train.Config
	Seed    uint64
	Workers int
	// Progress receives one event per stage.
	Progress progress.Reporter
	// OnStage, when set, is called after each stage ("master", "targets",
	// "train"); an error stops the cycle (tests use it to simulate kills).
	OnStage func(gen int, stage string) error
}

// Report describes one generation.
type Report struct {
	Generation      int                `json:"generation"`
	MasterScore     int                `json:"master_score"`
	MasterPieces    int                `json:"master_pieces"`
	MasterPlain     int                `json:"master_score_without_quiescence"`
	Samples         int                `json:"samples"`
	DeadTargets     int                `json:"dead_targets"`
	MeanTarget      float64            `json:"mean_target"`
	Epochs          []train.EpochStats `json:"epochs"`
	SecondsByStage  map[string]float64 `json:"seconds_by_stage"`
	Network         string             `json:"network"`
	MasterWidth     int                `json:"master_width"`
	TargetWidth     int                `json:"target_width"`
	TargetPieces    int                `json:"target_pieces"`
	MasterQuiescent bool               `json:"master_quiescence"`
	// Sampled is the reservoir's size before duplicate wells were dropped
	// (Samples is what remained).
	Sampled int `json:"sampled"`
	// TargetHistogram counts the targets in 20 bins of width 0.1 over
	// [-1, 1] (bin 0 holds -1, the dead beams, bin 19 holds 1).
	TargetHistogram []int `json:"target_histogram"`
	// ValidSpearman is the Spearman rank correlation between the new
	// network's values (engine float inference) and the targets on the
	// validation wells, PrevValidSpearman the previous generation's on
	// the same wells; ValidSamples their number.
	ValidSpearman     float64 `json:"valid_spearman"`
	PrevValidSpearman float64 `json:"prev_valid_spearman"`
	ValidSamples      int     `json:"valid_samples"`
}

// histogram counts ts in 20 bins of width 0.1 over [-1, 1].
func histogram(ts []float32) []int {
	h := make([]int, 20)
	for _, t := range ts {
		h[min(max(int((float64(t)+1)*10), 0), 19)]++
	}
	return h
}

// validRanks returns the Spearman correlations of next's and prev's
// values with the targets over the validation samples, and their number.
func validRanks(next, prev *nnue.Network, r *hatetris.Rules, wells []hatetris.Well, set []train.Sample) (sNext, sPrev float64, n int) {
	var a, b, t []float64
	for i := range set {
		if !train.IsValid(set[i].Feats) {
			continue
		}
		rows := wells[i][r.Bar:r.Depth]
		a = append(a, next.Evaluate(rows))
		b = append(b, prev.Evaluate(rows))
		t = append(t, float64(set[i].Target))
	}
	return rankcorr.Spearman(a, t), rankcorr.Spearman(b, t), len(t)
}

// targetsFile holds a generation's targets, one per sampled well, and
// the hash of the wells they were computed for (wellsHash): targets of
// other wells are computed again.
type targetsFile struct {
	Targets   []float32 `json:"targets"`
	Seconds   float64   `json:"seconds"`
	WellsHash uint64    `json:"wells_hash"`
}

// wellsHash is the FNV-1a hash of the wells' rows, in order.
func wellsHash(ws []hatetris.Well) uint64 {
	h := fnv.New64a()
	var b [2]byte
	for i := range ws {
		for _, row := range ws[i] {
			binary.LittleEndian.PutUint16(b[:], row)
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// Run runs the generations not finished yet and returns every
// generation's report.
func Run(ctx context.Context, cfg Config) ([]Report, error) {
	if cfg.Dir == "" || cfg.Generations < 1 || cfg.MasterWidth < 1 || cfg.Samples < 1 {
		return nil, errors.New("cycle: need a directory, generations, a master width and samples")
	}
	if cfg.TargetWidth == 0 {
		cfg.TargetWidth = 512
	}
	if cfg.TargetPieces == 0 {
		cfg.TargetPieces = 10
	}
	rep := progress.Or(cfg.Progress)
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	g0 := filepath.Join(cfg.Dir, "gen-00.hlnn")
	if _, err := os.Stat(g0); err != nil {
		if cfg.Start == nil {
			return nil, errors.New("cycle: no generation-0 network")
		}
		if err := nnue.Save(g0, cfg.Start); err != nil {
			return nil, err
		}
	}
	var reports []Report
	for g := 1; g <= cfg.Generations; g++ {
		r, err := generation(ctx, cfg, g, rep)
		if err != nil {
			return nil, err
		}
		reports = append(reports, *r)
	}
	return reports, nil
}

func genPath(dir string, g int) string { return filepath.Join(dir, fmt.Sprintf("gen-%02d.hlnn", g)) }

func generation(ctx context.Context, cfg Config, g int, rep progress.Reporter) (*Report, error) {
	reportPath := filepath.Join(cfg.Dir, fmt.Sprintf("gen-%02d.report.json", g))
	if b, err := os.ReadFile(reportPath); err == nil {
		var r Report
		if err := json.Unmarshal(b, &r); err == nil {
			return &r, nil
		}
	}
	prev, err := nnue.Load(genPath(cfg.Dir, g-1))
	if err != nil {
		return nil, err
	}
	ev, err := eval.NewNNUE(prev)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cfg.Dir, fmt.Sprintf("gen-%02d", g))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r := &Report{Generation: g, SecondsByStage: map[string]float64{}, MasterWidth: cfg.MasterWidth,
		TargetWidth: cfg.TargetWidth, TargetPieces: cfg.TargetPieces, MasterQuiescent: !cfg.NoQuiescence}
	event := func(stage, info string) {
		rep.Report(progress.Event{Job: fmt.Sprintf("nnue cycle gen %d", g), Stage: stage, Info: info})
	}
	after := func(stage string) error {
		if cfg.OnStage != nil {
			return cfg.OnStage(g, stage)
		}
		return nil
	}
	// 1. Master beam and reservoir sample.
	rr := hatetris.Standard()
	sp := filepath.Join(dir, "samples.bin")
	sf, err := samples.Read(sp, rr)
	if err != nil {
		sf = &samples.File{}
		t0 := time.Now()
		event("master", fmt.Sprintf("width %d", cfg.MasterWidth))
		rv := NewReservoir(cfg.Samples, cfg.Seed, uint64(g))
		res, err := beam.Run(ctx, beam.Config{BeamWidth: cfg.MasterWidth, MaxPieces: cfg.MasterPieces, Quiescence: !cfg.NoQuiescence,
			Eval: ev, Workers: cfg.Workers, OnKept: rv.OnKept})
		if err != nil {
			return nil, err
		}
		sf.Sampled = len(rv.Wells)
		sf.Wells = samples.Distinct(rv.Wells)
		sf.Score, sf.Pieces = res.Score, res.Pieces
		plain, err := beam.Run(ctx, beam.Config{BeamWidth: cfg.MasterWidth, MaxPieces: cfg.MasterPieces, Eval: ev, Workers: cfg.Workers})
		if err != nil {
			return nil, err
		}
		sf.Plain = plain.Score
		sf.Seconds = time.Since(t0).Seconds()
		sf.Provenance = fmt.Sprintf("master beam width %d quiescence %v max pieces %d, network %s, reservoir of %d kept wells, seed %d",
			cfg.MasterWidth, !cfg.NoQuiescence, cfg.MasterPieces, ev.Name(), cfg.Samples, cfg.Seed)
		if err := samples.Write(sp, rr, sf); err != nil {
			return nil, err
		}
		if err := after("master"); err != nil {
			return nil, err
		}
	}
	r.MasterScore, r.MasterPieces, r.MasterPlain, r.Samples, r.Sampled = sf.Score, sf.Pieces, sf.Plain, len(sf.Wells), sf.Sampled
	r.SecondsByStage["master"] = sf.Seconds
	// 2. Targets.
	var tf targetsFile
	tp := filepath.Join(dir, "targets.json")
	if hw := wellsHash(sf.Wells); !load(tp, &tf) || tf.WellsHash != hw || len(tf.Targets) != len(sf.Wells) {
		tf = targetsFile{WellsHash: hw}
		t0 := time.Now()
		event("targets", fmt.Sprintf("%d wells, width %d, %d pieces", len(sf.Wells), cfg.TargetWidth, cfg.TargetPieces))
		total := int64(len(sf.Wells))
		var mu sync.Mutex
		onTarget := func(done int) { // from any worker: one report at a time
			mu.Lock()
			defer mu.Unlock()
			rep.Report(progress.Event{Job: fmt.Sprintf("nnue cycle gen %d", g), Stage: "targets", Done: int64(done), Total: total, Unit: "wells"})
		}
		tf.Targets, err = targets.Compute(ctx, targets.Config{Eval: ev, Width: cfg.TargetWidth, Pieces: cfg.TargetPieces, Workers: cfg.Workers,
			OnTarget: onTarget}, sf.Wells)
		if err != nil {
			return nil, err
		}
		tf.Seconds = time.Since(t0).Seconds()
		if err := store(tp, &tf); err != nil {
			return nil, err
		}
		if err := after("targets"); err != nil {
			return nil, err
		}
	}
	r.SecondsByStage["targets"] = tf.Seconds
	for _, t := range tf.Targets {
		if t == -1 {
			r.DeadTargets++
		}
		r.MeanTarget += float64(t)
	}
	r.MeanTarget /= float64(max(len(tf.Targets), 1))
	r.TargetHistogram = histogram(tf.Targets)
	// 3. Training from the previous weights.
	t0 := time.Now()
	event("train", fmt.Sprintf("%d samples", len(tf.Targets)))
	fs := prev.Features
	set := make([]train.Sample, len(sf.Wells))
	for i := range sf.Wells {
		w := &sf.Wells[i]
		set[i] = train.Sample{Feats: fs.Append(nil, w[rr.Bar:rr.Depth]), Target: tf.Targets[i]}
	}
	tc := cfg.Train
	tc.Features, tc.Hidden, tc.Activation, tc.Start, tc.Dir = fs, prev.Hidden, prev.Activation, prev, filepath.Join(dir, "train")
	if tc.Seed == 0 {
		tc.Seed = cfg.Seed + uint64(g)
	}
	if tc.OnEpoch == nil {
		epochs := int64(tc.MaxEpochs)
		if epochs <= 0 {
			epochs = 20 // train.Config's default
		}
		tc.OnEpoch = func(e train.EpochStats) error {
			rep.Report(progress.Event{Job: fmt.Sprintf("nnue cycle gen %d", g), Stage: "train", Done: int64(e.Epoch + 1), Total: epochs, Unit: "epochs",
				Info: fmt.Sprintf("valid MSE %.4f", e.ValidMSE)})
			return nil
		}
	}
	tres, err := train.Train(ctx, tc, set)
	if err != nil {
		return nil, err
	}
	r.SecondsByStage["train"] = time.Since(t0).Seconds()
	r.Epochs = tres.Epochs
	net := tres.Net
	net.Header.Name = fmt.Sprintf("gen-%02d", g)
	net.Header.Generation = g
	net.Header.Provenance = fmt.Sprintf("hatelab nnue cycle generation %d from %s: %s; targets: width %d, %d pieces; trained %d epochs (best %d)",
		g, prev.Header.Name, sf.Provenance, cfg.TargetWidth, cfg.TargetPieces, len(tres.Epochs), tres.BestEpoch)
	if err := nnue.Save(genPath(cfg.Dir, g), net); err != nil {
		return nil, err
	}
	r.Network = genPath(cfg.Dir, g)
	r.ValidSpearman, r.PrevValidSpearman, r.ValidSamples = validRanks(net, prev, rr, sf.Wells, set)
	if err := after("train"); err != nil {
		return nil, err
	}
	if err := store(reportPath, r); err != nil {
		return nil, err
	}
	return r, nil
}

// load reads a JSON stage output; false if it is missing or unreadable
// (the stage then runs again).
func load(path string, v any) bool {
	b, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(b, v) == nil
}

// store writes v as JSON atomically.
func store(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, 0o644, b)
}
