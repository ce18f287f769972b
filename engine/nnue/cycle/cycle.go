// Package cycle runs NNUE training generations: from the network of
// generation g-1, a master beam (with quiescence by default) whose kept
// wells are sampled (seeded: one reservoir, or stratified over depth and
// stack height), training targets by small beams (engine/nnue/targets),
// training from the previous weights with GoMLX (engine/nnue/train), and
// export of generation g. The stages are exported (Sample, Targets,
// TrainingSet, TrainGeneration) for other users of the same data
// (lab/networks).
//
// Layout of Config.Dir: cycle.json (the settings the folder was made
// with: a run with other ones is refused, naming the flag), gen-00.hlnn
// (the start network, copied), then per generation gen-NN/ with
// samples.bin (the sampled wells, duplicates dropped, with provenance: a
// JSON header line and the rows in binary, checksummed), targets.json,
// train/ (GoMLX checkpoints), and gen-NN.hlnn and gen-NN.report.json in
// Dir. Every stage writes its output atomically (internal/atomicfile:
// temporary file, sync, rename) and is skipped when the output exists,
// and training resumes from its checkpoints (dropping one a kill cut
// short), so a run killed at any stage and started again gives the same
// networks. A gated cycle (Config.Gate: Gates, each an arena suite at
// its beam widths) keeps each gate's games in resumable match files,
// gate-NN*.jsonl (GateFile), and each gate's result in the report.
//
// Each report holds the generation's target histogram and its crowding
// (the largest share within one tenth of [-1, 1]); Config.Collapse fails
// a generation whose targets crowd past it, before training.
package cycle

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// Config describes a cycle. Check names a bad field by its hatelab flag
// (--master-beam-width for MasterBeamWidth, and so on).
type Config struct {
	Dir string
	// Rules is the geometry (nil: the real game's 10x20, bar 4); the start
	// network must be made for it.
	Rules       *hatetris.Rules
	Start       *nnue.Network // generation 0 (written to Dir once)
	Generations int
	// MasterBeamWidth and MasterPieces (0: until the beam dies) of the master
	// beam; NoQuiescence turns its quiescence off.
	MasterBeamWidth, MasterPieces int
	NoQuiescence                  bool
	// MasterOpenings, when positive, runs the master beam (each
	// MasterBeamWidth wide) from that many seeded random openings of
	// OpeningPieces pieces instead of from the empty well alone, so that
	// the samples come from many games, not one; the openings' seed is
	// MasterOpeningSeed(Seed, generation), never a suite the lab tests
	// on.
	MasterOpenings int
	// MasterDeep, when positive, adds master beams (each MasterBeamWidth
	// wide) from that many mid-game wells of the lab's own long games
	// (the arena's games:N:SEED:MasterDeepMin suite, seed
	// MasterOpeningSeed(Seed, generation)), each with the AI's memory of
	// its game, so that the samples include the deep regime: stacks
	// shaped by tens of cleared lines. With it, a sampled well that
	// occurs in a world-record replay (the deep test set) is dropped.
	MasterDeep, MasterDeepMin int
	// MasterDeepGames, when set, is a file of long games (the form of
	// datasets/beams/games.jsonl) from all of whose games the MasterDeep
	// wells are drawn (the suite games:N:SEED:MasterDeepMin:FILE), instead
	// of the arena's pool, the first 9 games of datasets/beams/games.jsonl
	// (beams.SuiteGames), which holds none of the lab's longest.
	MasterDeepGames string
	// Samples drawn from the master beam's kept wells; Stratify draws them
	// evenly over depth and stack height (Stratified) instead of one
	// reservoir.
	Samples  int
	Stratify bool
	// Children is the share (0 to 1) of the sampled wells replaced by a
	// random child, a well the next piece makes from it (WithChildren):
	// the poor placements a beam must rank below its kept wells.
	Children float64
	// TargetBeamWidth and TargetPieces of the target beams (0: 512, 10);
	// TargetRule (targets.Best, targets.DNF, targets.Lines,
	// targets.Residual or targets.Static) and TargetScale ("tanh" or "": tanh of the value;
	// "fitted": targets.FittedSquash).
	TargetBeamWidth, TargetPieces int
	TargetRule                    targets.Rule
	TargetScale                   string
	// KeepScoreWeight gives each trained network its start's score
	// weight, in the trained output's units (divided by the fitted
	// scale's spread when TargetScale is "fitted"), instead of 0. A
	// target is the squashed value of a target beam's best well, lines
	// cleared in it included at the start's score weight, so the trained
	// output (the value before the squash) is in the start's units: with
	// the weight kept, a beam values a well as the lines already scored
	// plus the network's estimate of what comes next, the sum the targets
	// were made of; with 0 (the default, every committed run) the lines
	// already scored are not valued at all. Under targets.Lines the
	// targets count lines, so the weight is one line in their units (1
	// divided by the fitted spread), whatever the start's; with a
	// Teacher and rule targets.Best, targets.DNF or targets.Static the
	// targets are the teacher's values, so the weight is the teacher's value of a line
	// (eval.LineValue, which must not be 0) in their units, whatever the
	// start's; targets.Residual refuses it.
	KeepScoreWeight bool
	// Teacher, when set, guides the master beams and the target beams
	// instead of the generation's network, and TeacherSpec names it (the
	// evaluation spec of --teacher, kept in the settings): the network
	// learns the teacher's wells and what the teacher's search makes of
	// them (distillation), whatever network a generation starts from.
	// With targets.Residual the network learns what that search adds to
	// the teacher's own value of a well, to be played added to the
	// teacher (nnue:FILE+h:W:TEACHER, W = 1 / the fitted spread, which the
	// trained network's provenance states): the teacher must then be one
	// the hybrid's h term takes, a hand-made evaluation with its rules
	// (the CLI checks the spec), or a hybrid NET+h:W:HAND itself, whose
	// network values no lines: the network then learns what the
	// hybrid's search adds to its hand-made part and is played in NET's
	// place (nnue:FILE+h:W/s:HAND; Config.residual). A teacher other than a network needs the
	// fitted scale (its values, hundreds for tuned, saturate tanh); with
	// KeepScoreWeight the network gets the teacher's value of a line, not
	// the start's (and under targets.Residual none: the hand-made
	// evaluation it is played with values the lines already scored).
	Teacher     eval.Evaluator
	TeacherSpec string
	// Collapse fails a generation whose targets crowd: more than this
	// share of them within one tenth of [-1, 1] (0: no guard).
	Collapse float64
	// ShiftCheck, when positive, draws that many wells from the new
	// network's own master beam (the next generation's distribution),
	// computes their targets as this generation's were computed, and
	// reports how well the new network predicts them.
	ShiftCheck int
	// Train configures training (Features, Hidden, Activation come from
	// the start network; Dir and Start are set per generation).
	Train   train.Config
	Seed    uint64
	Workers int
	// Gate, when set, judges each new network against the one its
	// generation started from (issue 26's arena matches, run by the
	// caller: Gates.Judge plays every gate), named prevName ("gen-04":
	// the previous generation's, or the one before when the gate rejected
	// that): a Verdict that does not Keep leaves the new network in
	// gen-NN.hlnn but starts the next generation from the same start; the
	// verdict's line and each gate's result go in the report either way.
	Gate func(ctx context.Context, g int, prevName string, prev, next *nnue.Network) (Verdict, error)
	// Progress receives one event per stage.
	Progress progress.Reporter
	// OnStage, when set, is called after each stage ("master", "targets",
	// "train"); an error stops the cycle (tests use it to simulate kills).
	OnStage func(gen int, stage string) error
}

// OpeningPieces is the length of the master beams' openings
// (Config.MasterOpenings), that of the arena's openings suites.
const OpeningPieces = 8

// MaxMasterOpenings bounds Config.MasterOpenings and Config.MasterDeep.
const MaxMasterOpenings = 10000

// MaxMasterDeepMin bounds Config.MasterDeepMin.
const MaxMasterDeepMin = 100000

// MasterOpeningSeed is the seed of generation g's master openings in a
// cycle of seed seed: 1,000,000 + 1,000 seed + g, so that every
// generation plays other openings and none is a suite the lab tests on
// (those have small seeds: openings:20:8:1, openings:20:8:101).
func MasterOpeningSeed(seed uint64, g int) uint64 { return 1_000_000 + 1_000*seed + uint64(g) }

// DeepSuite is the arena suite of generation g's deep master starts in a
// cycle of seed seed (Config.MasterDeep): n wells of the lab's long games at
// minScore lines or more, seeded as the master openings are.
func DeepSuite(n int, seed uint64, g, minScore int) string {
	return fmt.Sprintf("games:%d:%d:%d", n, MasterOpeningSeed(seed, g), minScore)
}

// deepSpec is generation g's deep master suite: DeepSuite, drawn from
// MasterDeepGames' games when set; "" without MasterDeep.
func deepSpec(c Config, g int) string {
	if c.MasterDeep == 0 {
		return ""
	}
	s := DeepSuite(c.MasterDeep, c.Seed, g, c.MasterDeepMin)
	if c.MasterDeepGames != "" {
		s += ":" + c.MasterDeepGames
	}
	return s
}

// maxOpeningsSeed is the largest cycle seed whose master openings' seeds
// (MasterOpeningSeed, every generation) do not wrap round uint64: past
// it, 1,000 seed wraps and the sum can be a small seed (--seed 2^64-1000
// gave generation 1 seed 1, the openings:20:8:1 suite's).
const maxOpeningsSeed = (math.MaxUint64 - 1_000_000 - MaxGenerations) / 1_000

// MaxGenerations is the most generations a folder holds (gen-NN).
const MaxGenerations = 99

// isNetwork tells whether ev is an NNUE network alone (values of a few
// tenths, made for tanh).
func isNetwork(ev eval.Evaluator) bool {
	_, ok := ev.(*eval.NNUE)
	return ok
}

// maxBeamWidth is engine/beam's largest width.
const maxBeamWidth = beam.MaxWidth

// maxTargetPieces bounds a target beam's pieces.
const maxTargetPieces = 1000

// Check reports, in one line naming the flag, a configuration Run would
// refuse, before any work. The training samples are about nine tenths of
// the distinct sampled wells, so Samples must be at least twice the
// batch.
func (c Config) Check() error {
	batch, epochs := c.Train.Batch, c.Train.MaxEpochs
	if batch == 0 {
		batch = train.DefaultBatch
	}
	if epochs == 0 {
		epochs = train.DefaultMaxEpochs
	}
	lr := c.Train.LearningRate
	switch {
	case c.Dir == "":
		return errors.New("--dir is required")
	case c.Generations < 1 || c.Generations > MaxGenerations:
		return fmt.Errorf("--generations %d: want 1 to %d", c.Generations, MaxGenerations)
	case c.MasterBeamWidth < 1 || c.MasterBeamWidth > maxBeamWidth:
		return fmt.Errorf("--master-beam-width %d: want 1 to %d", c.MasterBeamWidth, maxBeamWidth)
	case c.MasterOpenings < 0 || c.MasterOpenings > MaxMasterOpenings:
		return fmt.Errorf("--master-openings %d: want 0 to %d (0: one master beam from the empty well)", c.MasterOpenings, MaxMasterOpenings)
	case c.MasterOpenings > 0 && c.Seed > maxOpeningsSeed:
		return fmt.Errorf("--seed %d: with --master-openings want at most %d (the openings' seed 1,000,000 + 1,000 --seed + the generation must not wrap round to a test suite's)", c.Seed, uint64(maxOpeningsSeed))
	case c.MasterDeep < 0 || c.MasterDeep > MaxMasterOpenings:
		return fmt.Errorf("--master-deep %d: want 0 to %d (0: no master beam from the lab's long games)", c.MasterDeep, MaxMasterOpenings)
	case c.MasterDeep > 0 && c.Seed > maxOpeningsSeed:
		return fmt.Errorf("--seed %d: with --master-deep want at most %d (the deep wells' seed 1,000,000 + 1,000 --seed + the generation must not wrap round)", c.Seed, uint64(maxOpeningsSeed))
	case c.MasterDeepMin < 0 || c.MasterDeepMin > MaxMasterDeepMin:
		return fmt.Errorf("--master-deep-min %d: want 0 to %d lines", c.MasterDeepMin, MaxMasterDeepMin)
	case c.MasterDeepMin > 0 && c.MasterDeep == 0:
		return fmt.Errorf("--master-deep-min %d needs --master-deep", c.MasterDeepMin)
	case c.MasterDeepGames != "" && c.MasterDeep == 0:
		return fmt.Errorf("--master-deep-games %s needs --master-deep", c.MasterDeepGames)
	case c.MasterPieces < 0:
		return fmt.Errorf("--master-pieces %d is negative (0: until the beam dies)", c.MasterPieces)
	case c.TargetBeamWidth < 0 || c.TargetBeamWidth > maxBeamWidth:
		return fmt.Errorf("--target-beam-width %d: want 1 to %d (0: 512)", c.TargetBeamWidth, maxBeamWidth)
	case c.TargetPieces < 0 || c.TargetPieces > maxTargetPieces:
		return fmt.Errorf("--target-pieces %d: want 1 to %d (0: 10)", c.TargetPieces, maxTargetPieces)
	case c.TargetRule > targets.Static:
		return fmt.Errorf("--target-rule %d: want best, dnf, lines, residual or static", c.TargetRule)
	case c.TargetRule == targets.Lines && c.TargetScale != "fitted":
		return fmt.Errorf("--target-rule lines needs --target-scale fitted (tanh of a count of lines saturates at 2 or 3)")
	case (c.Teacher == nil) != (c.TeacherSpec == ""):
		return errors.New("--teacher: an evaluation and its spec go together")
	case c.TargetRule == targets.Static && c.Teacher == nil:
		return errors.New("--target-rule static needs --teacher (the evaluation whose values the network imitates; a network trained on its own values learns nothing)")
	case c.TargetRule == targets.Residual && c.Teacher == nil:
		return errors.New("--target-rule residual needs --teacher (the evaluation whose search the residual measures and to which the network is added)")
	case c.TargetRule == targets.Residual && c.TargetScale != "fitted":
		return errors.New("--target-rule residual needs --target-scale fitted (the residuals are in the teacher's units, hundreds for tuned)")
	case c.TargetRule == targets.Residual && c.KeepScoreWeight:
		return errors.New("--keep-score-weight with --target-rule residual: a residual network is played with its teacher's hand-made evaluation, which values the lines already scored")
	case c.Teacher != nil && !isNetwork(c.Teacher) && c.TargetScale != "fitted":
		return errors.New("--teacher other than a network needs --target-scale fitted (its values, hundreds for tuned, saturate tanh)")
	case c.TargetRule == targets.Residual && c.Gate != nil:
		return errors.New("--target-rule residual: --gate plays the network alone, and a residual network plays only added to its teacher")
	case c.Teacher != nil && c.ShiftCheck > 0:
		return errors.New("--shift-check with --teacher: the next generation's wells are the teacher's again, not the network's")
	case batch < 1:
		return fmt.Errorf("--batch %d: want at least 1", batch)
	case epochs < 1:
		return fmt.Errorf("--epochs %d: want at least 1", epochs)
	case lr != 0 && (!(lr > 0) || math.IsInf(lr, 0)):
		return fmt.Errorf("--lr %g: want a finite positive learning rate", lr)
	case !(c.Train.RankWeight >= 0) || c.Train.RankWeight > train.MaxRankWeight:
		return fmt.Errorf("--rank-weight %g: want 0 to %d", c.Train.RankWeight, train.MaxRankWeight)
	case c.Samples < 2*batch:
		return fmt.Errorf("--samples %d is too few for --batch %d: want at least %d (about a tenth is held out and repeated wells are dropped)", c.Samples, batch, 2*batch)
	case c.Samples > samples.MaxWells:
		return fmt.Errorf("--samples %d: want at most %d", c.Samples, samples.MaxWells)
	case !(c.Children >= 0 && c.Children <= 1):
		return fmt.Errorf("--children %g: want a share in [0, 1] (0: the kept wells alone)", c.Children)
	case !(c.Collapse >= 0 && c.Collapse <= 1):
		return fmt.Errorf("--collapse %g: want a share in [0, 1] (0: no guard)", c.Collapse)
	case c.ShiftCheck < 0 || c.ShiftCheck > samples.MaxWells:
		return fmt.Errorf("--shift-check %d: want 0 to %d", c.ShiftCheck, samples.MaxWells)
	case c.Workers < 0:
		return fmt.Errorf("--workers %d is negative (0: all cores)", c.Workers)
	}
	if c.MasterDeepGames != "" {
		// The file read, parsed and drawn from now, before any work.
		if _, err := arena.ParseSuite(deepSpec(c, 1), c.rules()); err != nil {
			return fmt.Errorf("--master-deep-games: %v", err)
		}
	}
	if _, err := ParseScale(c.TargetScale); err != nil {
		return fmt.Errorf("--target-scale: %v", err)
	}
	if c.TargetRule == targets.Residual && c.Teacher != nil {
		if _, _, _, err := c.residual(); err != nil {
			return err
		}
	}
	if c.Teacher != nil && c.KeepScoreWeight && c.TargetRule != targets.Lines {
		if err := teacherLine(c.Teacher, c.TeacherSpec, c.rules()); err != nil {
			return err
		}
	}
	if c.Start != nil {
		r := c.rules()
		if fs := c.Start.Features; fs.Width() != r.Width || fs.Height() != r.Depth-r.Bar {
			return fmt.Errorf("--start network is for %dx%d wells (width x rows below the bar), not %dx%d", fs.Width(), fs.Height(), r.Width, r.Depth-r.Bar)
		}
		if _, err := nnue.Quantize(c.Start, c.Start.Header.QA, c.Start.Header.QB); err != nil {
			return fmt.Errorf("--start network cannot run in the engine: %v", err)
		}
		tc := c.Train
		tc.Features, tc.Hidden, tc.Activation = c.Start.Features, c.Start.Hidden, c.Start.Activation
		if err := tc.Check(); err != nil {
			return err
		}
	}
	if st, err := os.Stat(c.Dir); err == nil && !st.IsDir() {
		return fmt.Errorf("--dir %s is not a folder", c.Dir)
	}
	return c.checkMemory()
}

// checkMemory refuses, before any work, beams whose memory cannot fit in
// what the process has left (internal/memlimit): the master beam's pools
// with its workers, or one target beam per worker, each with an ancestry
// of ten levels of its width (15 bytes a node).
func (c Config) checkMemory() error {
	workers := c.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tw := c.TargetBeamWidth
	if tw == 0 {
		tw = 512
	}
	master := beam.PoolBytes(c.MasterBeamWidth, workers) + uint64(c.MasterBeamWidth)*150
	target := uint64(workers) * (beam.PoolBytes(tw, 1) + uint64(tw)*150)
	if master >= target {
		return memlimit.Check(fmt.Sprintf("--master-beam-width %d with %d workers", c.MasterBeamWidth, workers), master)
	}
	return memlimit.Check(fmt.Sprintf("--target-beam-width %d, %d target beams at once", tw, workers), target)
}

func (c *Config) rules() *hatetris.Rules {
	if c.Rules == nil {
		return hatetris.Standard()
	}
	return c.Rules
}

// Report describes one generation.
type Report struct {
	Generation int `json:"generation"`
	// MasterScore, MasterPieces and MasterPlain are the master beam's
	// best game (score, pieces; score without quiescence); with
	// MasterOpenings, the totals over its beams, one per opening.
	MasterScore     int                `json:"master_score"`
	MasterPieces    int                `json:"master_pieces"`
	MasterPlain     int                `json:"master_score_without_quiescence"`
	Samples         int                `json:"samples"`
	DeadTargets     int                `json:"dead_targets"`
	MeanTarget      float64            `json:"mean_target"`
	Epochs          []train.EpochStats `json:"epochs"`
	SecondsByStage  map[string]float64 `json:"seconds_by_stage"`
	Network         string             `json:"network"`
	MasterBeamWidth int                `json:"master_beam_width"`
	TargetBeamWidth int                `json:"target_beam_width"`
	TargetPieces    int                `json:"target_pieces"`
	MasterQuiescent bool               `json:"master_quiescence"`
	// Sampled is the reservoir's size before duplicate wells were dropped
	// (Samples is what remained).
	Sampled int `json:"sampled"`
	// TargetHistogram counts the targets in 20 bins of width 0.1 over
	// [-1, 1] (bin 0 holds -1, the dead beams, bin 19 holds 1);
	// TargetCrowding is the largest share of them within two adjacent bins
	// (one tenth of the range: the collapse guard's measure).
	TargetHistogram []int   `json:"target_histogram"`
	TargetCrowding  float64 `json:"target_crowding"`
	// TargetRule and TargetScale name how targets were made (with the
	// fitted squash's Center and Scale).
	TargetRule  string  `json:"target_rule,omitempty"`
	TargetScale string  `json:"target_scale,omitempty"`
	ScaleCenter float64 `json:"scale_center,omitempty"`
	ScaleSpread float64 `json:"scale_spread,omitempty"`
	// ValidSpearman is the Spearman rank correlation between the new
	// network's values (engine float inference) and the targets on the
	// validation wells, PrevValidSpearman the previous generation's on
	// the same wells; ValidSamples their number. A correlation that is
	// undefined (fewer than three wells, or every target or value the
	// same) is 0.
	ValidSpearman     float64 `json:"valid_spearman"`
	PrevValidSpearman float64 `json:"prev_valid_spearman"`
	ValidSamples      int     `json:"valid_samples"`
	// NetworkCRC is the checksum of Network's tensors (its header's
	// crc32), checked when the report is read back.
	NetworkCRC uint32 `json:"network_crc32"`
	// Gate is Config.Gate's verdict in one line and Gates each gate's
	// result (a report of a cycle gated before there were several has
	// the line alone); NextStart, when not empty, is the network the next
	// generation starts from instead of Network (a gate rejected this
	// one).
	Gate      string       `json:"gate,omitempty"`
	Gates     []GateResult `json:"gates,omitempty"`
	NextStart string       `json:"next_start,omitempty"`
	// Shift is the check on wells of the new network's own master beam
	// (Config.ShiftCheck; nil without it).
	Shift *Shift `json:"shift,omitempty"`
}

// UnmarshalJSON reads a report, one of an older version included: its
// beam widths under their former keys master_width and target_width.
func (r *Report) UnmarshalJSON(b []byte) error {
	type plain Report
	var v struct {
		plain
		OldMasterBeamWidth *int `json:"master_width"`
		OldTargetBeamWidth *int `json:"target_width"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Report(v.plain)
	if v.OldMasterBeamWidth != nil && r.MasterBeamWidth == 0 {
		r.MasterBeamWidth = *v.OldMasterBeamWidth
	}
	if v.OldTargetBeamWidth != nil && r.TargetBeamWidth == 0 {
		r.TargetBeamWidth = *v.OldTargetBeamWidth
	}
	return nil
}

// Shift is a held-out check on wells drawn from the new network's own
// master beam (the next generation's distribution), with targets made as
// this generation's were: the new network's mean squared error (after
// the training tanh) and Spearman correlation there, against the same on
// this generation's validation wells (an undefined correlation is 0).
type Shift struct {
	Wells         int     `json:"wells"`
	MSE           float64 `json:"mse"`
	Spearman      float64 `json:"spearman"`
	ValidMSE      float64 `json:"valid_mse"`
	ValidSpearman float64 `json:"valid_spearman"`
	Seconds       float64 `json:"seconds"`
}

// histogram counts ts in 20 bins of width 0.1 over [-1, 1].
func histogram(ts []float32) []int {
	h := make([]int, 20)
	for _, t := range ts {
		h[min(max(int((float64(t)+1)*10), 0), 19)]++
	}
	return h
}

// Crowding is the largest share of a histogram (20 bins over [-1, 1])
// within two adjacent bins: one tenth of the range.
func Crowding(h []int) float64 {
	total, most := 0, 0
	for i, n := range h {
		total += n
		if i > 0 {
			most = max(most, h[i-1]+n)
		}
	}
	if total == 0 {
		return 0
	}
	return float64(most) / float64(total)
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
	return spearman(a, t), spearman(b, t), len(t)
}

// spearman is rankcorr.Spearman, 0 where it is undefined (JSON has no NaN).
func spearman(a, b []float64) float64 {
	if rho := rankcorr.Spearman(a, b); !math.IsNaN(rho) {
		return rho
	}
	return 0
}

// targetsFile holds a generation's targets, one per sampled well, and
// the hash of the wells they were computed for (wellsHash): targets of
// other wells are computed again.
type targetsFile struct {
	TargetSet
	WellsHash uint64 `json:"wells_hash"`
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
// generation's report. A folder made with other settings is refused
// (see Settings).
func Run(ctx context.Context, cfg Config) ([]Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg.Rules = cfg.rules()
	if cfg.TargetBeamWidth == 0 {
		cfg.TargetBeamWidth = 512
	}
	if cfg.TargetPieces == 0 {
		cfg.TargetPieces = 10
	}
	cfg.TargetScale, _ = ParseScale(cfg.TargetScale)
	if _, err := os.Stat(genPath(cfg.Dir, 0)); err != nil && cfg.Start == nil {
		return nil, &SettingsError{fmt.Sprintf("--start is needed: %s has no generation-0 network", cfg.Dir)}
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := startNetwork(cfg); err != nil {
		return nil, err
	}
	if err := checkSettings(cfg); err != nil {
		return nil, err
	}
	rep := progress.Or(cfg.Progress)
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

// startNetwork writes Dir's gen-00.hlnn from cfg.Start, or checks that
// the one there is cfg.Start.
func startNetwork(cfg Config) error {
	g0 := genPath(cfg.Dir, 0)
	if _, err := os.Stat(g0); err != nil {
		return nnue.Save(g0, cfg.Start)
	}
	if cfg.Start == nil {
		return nil
	}
	want, err := nnue.Marshal(cfg.Start)
	if err != nil {
		return err
	}
	have, err := nnue.Load(g0)
	if err != nil {
		return err
	}
	if b, err := nnue.Marshal(have); err != nil || !bytes.Equal(b, want) {
		return &SettingsError{fmt.Sprintf("--start differs from the %s this folder was started with: leave --start out or use another --dir", g0)}
	}
	return nil
}

// startOf is the network generation g starts from: generation g-1's,
// or the one that generation started from when its gate rejected it.
func startOf(dir string, g int) string {
	if g > 1 {
		var r Report
		if load(filepath.Join(dir, fmt.Sprintf("gen-%02d.report.json", g-1)), &r) && r.NextStart != "" {
			return r.NextStart
		}
	}
	return genPath(dir, g-1)
}

func genPath(dir string, g int) string { return filepath.Join(dir, fmt.Sprintf("gen-%02d.hlnn", g)) }

// gen is one generation's run: its configuration, number, folder, the
// previous network and its evaluation.
type gen struct {
	cfg   Config
	g     int
	dir   string
	job   string
	prev  *nnue.Network
	ev    *eval.NNUE
	guide eval.Evaluator // the master and target beams' evaluation: ev, or the teacher
	base  eval.Evaluator // what residual targets subtract (Config.residual), nil otherwise
	rep   progress.Reporter
	stage int
}

// event reports the start of a stage (k of the generation's stages).
func (x *gen) event(stage, info string) {
	x.stage++
	x.rep.Report(progress.Event{Job: x.job, Stage: stage, Info: info, Done: int64(x.stage - 1), Total: x.stages(), Unit: "stages"})
}

// stages is the number of a generation's stages: master, targets, train
// and, in a gated cycle, the gate.
func (x *gen) stages() int64 {
	if x.cfg.Gate != nil {
		return 4
	}
	return 3
}

func (x *gen) after(stage string) error {
	if x.cfg.OnStage != nil {
		return x.cfg.OnStage(x.g, stage)
	}
	return nil
}

func generation(ctx context.Context, cfg Config, g int, rep progress.Reporter) (*Report, error) {
	reportPath := filepath.Join(cfg.Dir, fmt.Sprintf("gen-%02d.report.json", g))
	var done Report
	if load(reportPath, &done) && done.check(cfg.Dir, g) == nil {
		return &done, nil
	}
	prev, err := nnue.Load(startOf(cfg.Dir, g))
	if err != nil {
		return nil, err
	}
	ev, err := eval.NewNNUE(prev)
	if err != nil {
		return nil, err
	}
	x := &gen{cfg: cfg, g: g, dir: filepath.Join(cfg.Dir, fmt.Sprintf("gen-%02d", g)), job: fmt.Sprintf("nnue cycle gen %d", g),
		prev: prev, ev: ev, guide: ev, rep: rep}
	if cfg.Teacher != nil {
		x.guide = cfg.Teacher
	}
	if cfg.TargetRule == targets.Residual {
		if x.base, _, _, err = cfg.residual(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(x.dir, 0o755); err != nil {
		return nil, err
	}
	r := &Report{Generation: g, SecondsByStage: map[string]float64{}, MasterBeamWidth: cfg.MasterBeamWidth,
		TargetBeamWidth: cfg.TargetBeamWidth, TargetPieces: cfg.TargetPieces, MasterQuiescent: !cfg.NoQuiescence}
	// 1. Master beam and sample.
	sf, err := x.master(ctx)
	if err != nil {
		return nil, err
	}
	r.MasterScore, r.MasterPieces, r.MasterPlain, r.Samples, r.Sampled = sf.Score, sf.Pieces, sf.Plain, len(sf.Wells), sf.Sampled
	r.SecondsByStage["master"] = sf.Seconds
	// 2. Targets, and the collapse guard.
	tf, err := x.targets(ctx, sf.Wells)
	if err != nil {
		return nil, err
	}
	if err := x.describeTargets(r, tf); err != nil {
		return nil, err
	}
	// 3. Training from the previous weights.
	net, set, err := x.train(ctx, r, sf, tf)
	if err != nil {
		return nil, err
	}
	r.ValidSpearman, r.PrevValidSpearman, r.ValidSamples = validRanks(net, prev, cfg.Rules, sf.Wells, set)
	if cfg.ShiftCheck > 0 {
		if r.Shift, err = x.shift(ctx, net, tf, sf.Wells, set); err != nil {
			return nil, err
		}
	}
	if cfg.Gate != nil {
		prevName := strings.TrimSuffix(filepath.Base(startOf(cfg.Dir, g)), ".hlnn")
		x.event("gate", "against "+prevName)
		v, err := cfg.Gate(ctx, g, prevName, prev, net)
		if err != nil {
			return nil, err
		}
		r.Gate, r.Gates = v.Line, v.Gates
		if !v.Keep {
			r.NextStart = startOf(cfg.Dir, g)
		}
	}
	if err := x.after("train"); err != nil {
		return nil, err
	}
	if err := store(reportPath, r); err != nil {
		return nil, err
	}
	info := r.Network
	if r.NextStart != "" {
		info += ", rejected by the gate"
	}
	rep.Report(progress.Event{Job: x.job, Stage: "done", Done: x.stages(), Total: x.stages(), Unit: "stages", Finished: true, Info: info})
	return r, nil
}

// check tells whether a report read back is generation g's of dir: its
// number, its network's path, and the network's checksum (a report edited
// by hand or left from another network is made again, from the stages'
// files).
func (r *Report) check(dir string, g int) error {
	if r.Generation != g || r.Network != genPath(dir, g) || len(r.Epochs) == 0 || len(r.TargetHistogram) != 20 {
		return fmt.Errorf("report of generation %d does not describe %s", r.Generation, genPath(dir, g))
	}
	n, err := nnue.Load(r.Network)
	if err != nil {
		return err
	}
	if n.Header.CRC32 != r.NetworkCRC {
		return fmt.Errorf("report of generation %d is for another network (crc %08x, file %08x)", g, r.NetworkCRC, n.Header.CRC32)
	}
	return nil
}

// provenance is the samples file's provenance line for the master stage.
func (x *gen) provenance() string {
	c := x.cfg
	guide := "network " + x.ev.Name()
	if c.Teacher != nil {
		guide = "teacher " + c.TeacherSpec + " (" + c.Teacher.Name() + ")"
	}
	p := fmt.Sprintf("master beam width %d quiescence %v max pieces %d, %s, reservoir of %d kept wells, seed %d",
		c.MasterBeamWidth, !c.NoQuiescence, c.MasterPieces, guide, c.Samples, c.Seed)
	if c.Stratify {
		p = strings.Replace(p, "reservoir of", "stratified sample (depth, stack height) of", 1)
	}
	var from []string
	if c.MasterOpenings > 0 {
		from = append(from, fmt.Sprintf("openings:%d:%d:%d", c.MasterOpenings, OpeningPieces, MasterOpeningSeed(c.Seed, x.g)))
	}
	if c.MasterDeep > 0 {
		from = append(from, deepSpec(c, x.g)+", record wells dropped")
	}
	if len(from) > 0 {
		p = strings.Replace(p, "master beam width", "master beams from "+strings.Join(from, " and ")+", each width", 1)
	}
	if c.Children > 0 {
		p += fmt.Sprintf(", a share %g of them replaced by a random child", c.Children)
	}
	return p
}

// legacyProvenance is the line provenance wrote before it read well with
// both MasterOpenings and MasterDeep ("and games:…, record wells
// dropped,s from openings:…"): the samples of deep-run, tuned-deep and
// teacher carry it, and a run on those folders reads them back. Without
// both it is provenance's line.
func (x *gen) legacyProvenance() string {
	c := x.cfg
	p := x.provenance()
	if c.MasterOpenings == 0 || c.MasterDeep == 0 {
		return p
	}
	deep := deepSpec(c, x.g)
	openings := fmt.Sprintf("openings:%d:%d:%d", c.MasterOpenings, OpeningPieces, MasterOpeningSeed(c.Seed, x.g))
	return strings.Replace(p, "master beams from "+openings+" and "+deep+", record wells dropped, each width",
		"and "+deep+", record wells dropped,s from "+openings+", each width", 1)
}

// master runs (or reads back) the master stage: samples.bin.
func (x *gen) master(ctx context.Context) (*samples.File, error) {
	c := x.cfg
	sp := filepath.Join(x.dir, "samples.bin")
	sf, err := samples.Read(sp, c.Rules)
	if err == nil {
		if sf.Provenance != x.provenance() && sf.Provenance != x.legacyProvenance() {
			return nil, &SettingsError{fmt.Sprintf("%s was made with other settings (%s): use the same flags or another --dir", sp, sf.Provenance)}
		}
		return sf, nil
	}
	x.event("master", fmt.Sprintf("beam width %d", c.MasterBeamWidth))
	sf, err = Sample(ctx, SampleConfig{Rules: c.Rules, Eval: x.guide, BeamWidth: c.MasterBeamWidth, Pieces: c.MasterPieces, Quiescence: !c.NoQuiescence,
		Samples: c.Samples, Seed: c.Seed, Stream: uint64(x.g), Stratify: c.Stratify, Children: c.Children, Distinct: true,
		Openings: c.MasterOpenings, OpeningPieces: OpeningPieces, OpeningSeed: MasterOpeningSeed(c.Seed, x.g), Plain: true, Workers: c.Workers,
		Deep: deepSpec(c, x.g)})
	if err != nil {
		return nil, err
	}
	sf.Provenance = x.provenance()
	if err := samples.Write(sp, c.Rules, sf); err != nil {
		return nil, err
	}
	return sf, x.after("master")
}

// targets runs (or reads back) the target stage: targets.json.
func (x *gen) targets(ctx context.Context, wells []hatetris.Well) (*targetsFile, error) {
	c := x.cfg
	var tf targetsFile
	tp := filepath.Join(x.dir, "targets.json")
	hw := wellsHash(wells)
	if load(tp, &tf) && tf.WellsHash == hw && len(tf.Targets) == len(wells) {
		return &tf, nil
	}
	info := fmt.Sprintf("%d wells, beam width %d, %d pieces", len(wells), c.TargetBeamWidth, c.TargetPieces)
	if c.TargetRule == targets.Static {
		info = fmt.Sprintf("%d wells, the teacher's own values (no beam)", len(wells))
	}
	x.event("targets", info)
	ts, err := Targets(ctx, x.targetConfig(), wells)
	if err != nil {
		return nil, err
	}
	tf = targetsFile{TargetSet: *ts, WellsHash: hw}
	if err := store(tp, &tf); err != nil {
		return nil, err
	}
	return &tf, x.after("targets")
}

func (x *gen) targetConfig() TargetConfig {
	c := x.cfg
	return TargetConfig{Rules: c.Rules, Eval: x.guide, BeamWidth: c.TargetBeamWidth, Pieces: c.TargetPieces, Rule: c.TargetRule,
		Scale: c.TargetScale, Workers: c.Workers, Base: x.base, Progress: x.rep, Job: x.job}
}

// describeTargets fills the report's target fields and applies the
// collapse guard.
func (x *gen) describeTargets(r *Report, tf *targetsFile) error {
	r.SecondsByStage["targets"] = tf.Seconds
	for _, t := range tf.Targets {
		if t == -1 {
			r.DeadTargets++
		}
		r.MeanTarget += float64(t)
	}
	r.MeanTarget /= float64(max(len(tf.Targets), 1))
	r.TargetHistogram = histogram(tf.Targets)
	r.TargetCrowding = Crowding(r.TargetHistogram)
	if x.cfg.TargetRule != targets.Best || x.cfg.TargetScale != "tanh" {
		r.TargetRule, r.TargetScale = x.cfg.TargetRule.String(), x.cfg.TargetScale
		r.ScaleCenter, r.ScaleSpread = tf.Center, tf.Scale
	}
	if x.cfg.Collapse > 0 && r.TargetCrowding > x.cfg.Collapse {
		return fmt.Errorf("generation %d: targets collapsed: %.0f%% of %d within one tenth of [-1, 1] (--collapse %g; histogram %v): try --target-scale fitted or wider target beams",
			x.g, 100*r.TargetCrowding, len(tf.Targets), x.cfg.Collapse, r.TargetHistogram)
	}
	return nil
}

// train runs the training stage and writes gen-NN.hlnn.
func (x *gen) train(ctx context.Context, r *Report, sf *samples.File, tf *targetsFile) (*nnue.Network, []train.Sample, error) {
	c := x.cfg
	t0 := time.Now()
	x.event("train", fmt.Sprintf("%d samples", len(tf.Targets)))
	set := TrainingSet(x.prev.Features, c.Rules, sf.Wells, tf.Targets)
	tc := c.Train
	tc.Dir = filepath.Join(x.dir, "train")
	tres, err := TrainGeneration(ctx, x.prev, set, tc, x.g, c.Seed, x.rep, x.job)
	if err != nil {
		return nil, nil, err
	}
	r.SecondsByStage["train"] = time.Since(t0).Seconds()
	r.Epochs = tres.Epochs
	net := tres.Net
	net.Header.Provenance = fmt.Sprintf("hatelab nnue cycle generation %d from %s: %s; targets: width %d, %d pieces; trained %d epochs (best %d)",
		x.g, x.prev.Header.Name, sf.Provenance, c.TargetBeamWidth, c.TargetPieces, len(tres.Epochs), tres.BestEpoch)
	if c.TargetRule != targets.Best || c.TargetScale != "tanh" {
		net.Header.Provenance += fmt.Sprintf(", target rule %s, scale %s", c.TargetRule, c.TargetScale)
	}
	if c.Teacher != nil {
		net.Header.Provenance += ", teacher " + c.TeacherSpec
	}
	if c.TargetRule == targets.Residual && tf.Scale > 0 {
		_, hand, w, err := c.residual()
		if err != nil {
			return nil, nil, err
		}
		net.Header.Provenance += fmt.Sprintf(" (play it as nnue:FILE+h:%.6g:%s)", w/tf.Scale, hand)
	}
	if c.KeepScoreWeight {
		sw, whose := x.prev.ScoreWeight, ""
		switch {
		case c.TargetRule == targets.Lines:
			sw = 1 // the targets count lines: a line already cleared is worth one
		case c.Teacher != nil:
			// The targets are the teacher's values: a line is worth what
			// the teacher gives it (Check made sure it has a value).
			if sw, err = eval.LineValue(c.Teacher, c.Rules); err != nil {
				return nil, nil, fmt.Errorf("--keep-score-weight: the teacher %s: %v", c.TeacherSpec, err)
			}
			whose = ", the teacher's line"
		}
		net.ScoreWeight = keptScoreWeight(sw, tf.Scale)
		net.Header.Provenance += fmt.Sprintf(", score weight kept (%g%s)", net.ScoreWeight, whose)
	}
	if _, err := nnue.Quantize(net, net.Header.QA, net.Header.QB); err != nil {
		return nil, nil, fmt.Errorf("generation %d: the trained network cannot run in the engine: %v", x.g, err)
	}
	b, err := nnue.Marshal(net)
	if err != nil {
		return nil, nil, err
	}
	if err := atomicfile.WriteBytes(genPath(c.Dir, x.g), 0o644, b); err != nil {
		return nil, nil, err
	}
	r.Network = genPath(c.Dir, x.g)
	if n, err := nnue.Unmarshal(b); err == nil {
		// The gate names the network by its checksum, as it names one read
		// back from its file after a resume.
		r.NetworkCRC, net.Header.CRC32 = n.Header.CRC32, n.Header.CRC32
	}
	return net, set, nil
}

// teacherLine checks, before any work, that a teacher whose line value
// --keep-score-weight keeps has one, and one that is not 0.
func teacherLine(e eval.Evaluator, spec string, r *hatetris.Rules) error {
	v, err := eval.LineValue(e, r)
	switch {
	case err != nil:
		return fmt.Errorf("--keep-score-weight: the teacher %s: %v", spec, err)
	case v == 0:
		return fmt.Errorf("--keep-score-weight: the teacher %s values a line at 0 (a network without a score weight, or weights without a score term): nothing to keep", spec)
	}
	return nil
}

// residual is what a residual run's targets subtract from the teacher's
// best value, and how its network is played (nnue:FILE+h:W/s:HAND, s
// the targets' fitted spread). A hand-made teacher is its own base (HAND
// its spec, W 1); for a hybrid teacher NET+h:W:HAND (TeacherSpec, read
// by evalspec.HybridParts with files relative to the working folder, as
// the CLI reads --teacher) it is the hand-made part, W times HAND, and
// the network is played in the teacher's network's place. A hybrid with
// a +g or +n term, or whose network values lines (a score weight: the
// trained network, at score weight 0, would not), is refused.
func (c Config) residual() (base eval.Evaluator, hand string, w float64, err error) {
	part, hand, w, ok, err := evalspec.HybridParts(c.TeacherSpec, "")
	switch {
	case err != nil:
		return nil, "", 0, fmt.Errorf("--teacher: %v", err)
	case !ok && strings.Contains(c.TeacherSpec, "+h:"):
		return nil, "", 0, fmt.Errorf("--teacher %s: a hybrid teacher of --target-rule residual is NET+h:W:HAND, without +g or +n terms", c.TeacherSpec)
	case !ok:
		return c.Teacher, c.TeacherSpec, 1, nil
	}
	lt, err1 := eval.LineValue(c.Teacher, c.rules())
	lp, err2 := eval.LineValue(part, c.rules())
	if err1 != nil || err2 != nil || math.Abs(lt-lp) > 1e-9*math.Max(1, math.Abs(lt)) {
		return nil, "", 0, fmt.Errorf("--teacher %s: its network values the lines scored (a line is worth %.6g to the teacher, %.6g to its hand-made part); a residual network, at score weight 0, would not", c.TeacherSpec, lt, lp)
	}
	return part, hand, w, nil
}

// keptScoreWeight is a start's score weight sw in the units of a network
// trained on targets squashed with the fitted scale's spread (0: tanh,
// the start's own units).
func keptScoreWeight(sw, spread float64) float64 {
	if spread > 0 {
		return sw / spread
	}
	return sw
}

// shift is the held-out check on wells of net's own master beam.
func (x *gen) shift(ctx context.Context, net *nnue.Network, tf *targetsFile, wells []hatetris.Well, set []train.Sample) (*Shift, error) {
	c := x.cfg
	t0 := time.Now()
	nev, err := eval.NewNNUE(net)
	if err != nil {
		return nil, err
	}
	sf, err := Sample(ctx, SampleConfig{Rules: c.Rules, Eval: nev, BeamWidth: c.MasterBeamWidth, Pieces: c.MasterPieces, Quiescence: !c.NoQuiescence,
		Samples: c.ShiftCheck, Seed: c.Seed, Stream: 1<<20 + uint64(x.g), Distinct: true, Workers: c.Workers})
	if err != nil {
		return nil, err
	}
	// The targets with the squash this generation's were made with.
	ts, err := rescale(ctx, x.targetConfig(), sf.Wells, tf.Center, tf.Scale)
	if err != nil {
		return nil, err
	}
	sh := &Shift{Wells: len(sf.Wells)}
	sh.MSE, sh.Spearman = predictError(net, c.Rules, sf.Wells, ts.Targets, nil)
	sh.ValidMSE, sh.ValidSpearman = predictError(net, c.Rules, wells, tf.Targets, func(i int) bool { return train.IsValid(set[i].Feats) })
	sh.Seconds = time.Since(t0).Seconds()
	return sh, nil
}

// rescale computes the targets of wells with a given squash: tanh((v -
// center) / scale), or tanh(v) when scale is 0.
func rescale(ctx context.Context, tc TargetConfig, wells []hatetris.Well, center, scale float64) (*TargetSet, error) {
	outs, err := targets.Outcomes(ctx, targets.Config{Rules: tc.Rules, Eval: tc.Eval, BeamWidth: tc.BeamWidth, Pieces: tc.Pieces, Rule: tc.Rule, Workers: tc.Workers, Base: tc.Base}, wells)
	if err != nil {
		return nil, err
	}
	squash := math.Tanh
	if scale != 0 {
		squash = func(v float64) float64 { return math.Tanh((v - center) / scale) }
	}
	ts := &TargetSet{Targets: make([]float32, len(outs)), Center: center, Scale: scale}
	for i, o := range outs {
		ts.Targets[i] = tc.Rule.Target(o, tc.Pieces, squash)
	}
	return ts, nil
}

// predictError is the mean squared error of tanh(net) against the targets
// and the Spearman correlation of net's values with them, over the wells
// keep accepts (nil: all).
func predictError(net *nnue.Network, r *hatetris.Rules, wells []hatetris.Well, ts []float32, keep func(int) bool) (mse, rho float64) {
	var v, t []float64
	for i := range wells {
		if keep != nil && !keep(i) {
			continue
		}
		f := net.Evaluate(wells[i][r.Bar:r.Depth])
		v, t = append(v, f), append(t, float64(ts[i]))
		d := math.Tanh(f) - float64(ts[i])
		mse += d * d
	}
	return mse / float64(max(len(v), 1)), spearman(v, t)
}

// maxStageBytes bounds a stage's JSON file (targets.json holds a number
// per sampled well).
const maxStageBytes = 1 << 30

// load reads a JSON stage output; false if it is missing or unreadable
// (the stage then runs again).
func load(path string, v any) bool {
	b, err := boundedfile.ReadFile(path, maxStageBytes, "stage file")
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
