// Package cycle runs NNUE training generations: from the network of
// generation g-1, a master beam (with quiescence by default) whose kept
// wells are reservoir-sampled (seeded), training targets by small beams
// (engine/nnue/targets), training from the previous weights with GoMLX
// (engine/nnue/train), and export of generation g.
//
// Layout of Config.Dir: gen-00.hlnn (the start network, copied), then per
// generation gen-NN/ with samples.json (the sampled wells, with
// provenance), targets.json, train/ (GoMLX checkpoints), and
// gen-NN.hlnn and report.json in Dir. Every stage writes its output
// through a rename and is skipped when the output exists, and training
// resumes from its checkpoints, so a run killed at any stage and started
// again gives the same networks.
package cycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
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
}

type samplesFile struct {
	Provenance string          `json:"provenance"`
	Wells      []hatetris.Well `json:"wells"`
	Score      int             `json:"master_score"`
	Pieces     int             `json:"master_pieces"`
	Plain      int             `json:"master_score_without_quiescence"`
	Seconds    float64         `json:"seconds"`
}

type targetsFile struct {
	Targets []float32 `json:"targets"`
	Seconds float64   `json:"seconds"`
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
	var sf samplesFile
	sp := filepath.Join(dir, "samples.json")
	if !load(sp, &sf) {
		t0 := time.Now()
		event("master", fmt.Sprintf("width %d", cfg.MasterWidth))
		rv := NewReservoir(cfg.Samples, cfg.Seed, uint64(g))
		res, err := beam.Run(ctx, beam.Config{BeamWidth: cfg.MasterWidth, MaxPieces: cfg.MasterPieces, Quiescence: !cfg.NoQuiescence,
			Eval: ev, Workers: cfg.Workers, OnKept: rv.OnKept})
		if err != nil {
			return nil, err
		}
		sf.Wells = rv.Wells
		sf.Score, sf.Pieces = res.Score, res.Pieces
		plain, err := beam.Run(ctx, beam.Config{BeamWidth: cfg.MasterWidth, MaxPieces: cfg.MasterPieces, Eval: ev, Workers: cfg.Workers})
		if err != nil {
			return nil, err
		}
		sf.Plain = plain.Score
		sf.Seconds = time.Since(t0).Seconds()
		sf.Provenance = fmt.Sprintf("master beam width %d quiescence %v max pieces %d, network %s, reservoir of %d kept wells, seed %d",
			cfg.MasterWidth, !cfg.NoQuiescence, cfg.MasterPieces, ev.Name(), cfg.Samples, cfg.Seed)
		if err := store(sp, &sf); err != nil {
			return nil, err
		}
		if err := after("master"); err != nil {
			return nil, err
		}
	}
	r.MasterScore, r.MasterPieces, r.MasterPlain, r.Samples = sf.Score, sf.Pieces, sf.Plain, len(sf.Wells)
	r.SecondsByStage["master"] = sf.Seconds
	// 2. Targets.
	var tf targetsFile
	tp := filepath.Join(dir, "targets.json")
	if !load(tp, &tf) {
		t0 := time.Now()
		event("targets", fmt.Sprintf("%d wells, width %d, %d pieces", len(sf.Wells), cfg.TargetWidth, cfg.TargetPieces))
		tf.Targets, err = targets.Compute(ctx, targets.Config{Eval: ev, Width: cfg.TargetWidth, Pieces: cfg.TargetPieces, Workers: cfg.Workers}, sf.Wells)
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
	// 3. Training from the previous weights.
	t0 := time.Now()
	event("train", fmt.Sprintf("%d samples", len(tf.Targets)))
	fs := prev.Features
	rr := hatetris.Standard()
	samples := make([]train.Sample, len(sf.Wells))
	for i := range sf.Wells {
		w := &sf.Wells[i]
		samples[i] = train.Sample{Feats: fs.Append(nil, w[rr.Bar:rr.Depth]), Target: tf.Targets[i]}
	}
	tc := cfg.Train
	tc.Features, tc.Hidden, tc.Activation, tc.Start, tc.Dir = fs, prev.Hidden, prev.Activation, prev, filepath.Join(dir, "train")
	if tc.Seed == 0 {
		tc.Seed = cfg.Seed + uint64(g)
	}
	tres, err := train.Train(ctx, tc, samples)
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

// store writes v as JSON through a rename.
func store(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
