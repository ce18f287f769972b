package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/nnue/gen0"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newNNUECmd())
}

func newNNUECmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "nnue",
		Short: "NNUE networks: fit a generation-0 network, describe a weights file",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newNNUEFit0Cmd(), newNNUERandomCmd(), newNNUEInfoCmd(), newNNUECycleCmd(), newNNUEMergeCmd(), newNNUESoupCmd(), newNNUEPositionalCmd(), newNNUERanksCmd(), newNNUEAgreeCmd())
	return cmd
}

func newNNUEFit0Cmd() *cobra.Command {
	var (
		out, variant, name, ev   string
		beamWidth, maxPieces     int
		perLevel, hidden         int
		minCount, maxFeat, works int
		quiescence, js           bool
		ridge                    float64
		seed                     uint64
	)
	cmd := &cobra.Command{
		Use:   "fit0 --out FILE [--eval hand|tuned] [--beam-width 1000] [--quiescence] [--per-level 16] [--hidden 32] [--seed 1]",
		Short: "Fit a generation-0 NNUE network to the hand-made evaluation by least squares",
		Long: `Run a beam with the hand-made evaluation (by default D&F's weights, dnf86, the
arm hand: the bootstrap of every committed network; --eval tuned fits
datasets/weights/tuned-03.json, the best hand-made evaluation in the arena),
draw wells from every level (and
the outcomes of the AI's piece in each), and fit an NNUE network to the
hand-made values by least squares (engine/nnue/gen0), so that
'hatelab beam --eval nnue' runs before any training. The network is written
as an engine/nnue weights file whose header records this command; the fit is
deterministic (seeded, any number of workers).`,
		Example: `  hatelab nnue fit0 --out datasets/weights/gen-00.hlnn --beam-width 1000 --quiescence`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := nnue.ParseVariant(variant)
			if err != nil {
				return fmt.Errorf("--variant: %v", err)
			}
			hw, err := evalspec.Hand(ev, "")
			if err != nil {
				return fmt.Errorf("--eval %s: %v", clip.Quote(ev), err)
			}
			gc := gen0.Config{Rules: hatetris.Standard(), BeamWidth: beamWidth, Quiescence: quiescence, Weights: &hw,
				MaxPieces: maxPieces, PerLevel: perLevel, Variant: v, Hidden: hidden, MinCount: minCount,
				MaxFeatures: maxFeat, Ridge: ridge, Seed: seed, Workers: works}
			if err := checkFit0(out, gc); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			n, rep, err := gen0.Fit(ctx, gc)
			if err != nil {
				return failure(err)
			}
			n.Header.Name = name
			evalFlag := "" // dnf86's command as it always was: gen-00.hlnn regenerates byte for byte
			if ev != "hand" {
				evalFlag = " --eval " + ev
			}
			n.Header.Provenance = fmt.Sprintf("hatelab nnue fit0%s --beam-width %d --quiescence=%v --max-pieces %d --per-level %d --variant %s --hidden %d --min-count %d --max-features %d --ridge %g --seed %d (least squares on the hand-made evaluation %s, engine/nnue/gen0)",
				evalFlag, beamWidth, quiescence, maxPieces, perLevel, v, hidden, minCount, maxFeat, ridge, seed, hw.Name)
			n.Header.Metrics = map[string]float64{
				"valid_rmse": rep.ValidRMSE, "valid_r2": rep.ValidR2, "train_rmse": rep.TrainRMSE,
				"samples": float64(rep.Samples), "valid_child_pairs_ordered_as_hand": rep.HandPairs,
				"target_min": rep.TargetMin, "target_max": rep.TargetMax, "beam_score": float64(rep.BeamScore),
			}
			if err := nnue.Save(out, n); err != nil {
				return failure(err)
			}
			w := cmd.OutOrStdout()
			if js {
				return writeJSON(w, rep)
			}
			_, err = fmt.Fprintf(w, "master beam:     width %d, %d levels, score %d\nsamples:         %d (%d train, %d validation), %d features fitted\nvalidation:      RMSE %.1f (linear model alone %.1f), R2 %.3f; train RMSE %.1f (hand-made values %.0f..%.0f)\nchild pairs:     %.3f ordered as the hand-made evaluation orders them (%d validation parents)\nint16:           max |int16 - float| %.4f (bound %.4f, qa %d, qb %d); identical child orderings %.3f\nwrote:           %s (%.1fs)\n",
				beamWidth, rep.Levels, rep.BeamScore, rep.Samples, rep.Train, rep.Valid, rep.Fitted, rep.ValidRMSE, rep.LinearRMSE,
				rep.ValidR2, rep.TrainRMSE, rep.TargetMin, rep.TargetMax, rep.HandPairs, rep.OrderParents, rep.Int16MaxErr,
				rep.Int16Bound, rep.QA, rep.QB, rep.SameOrder, out, rep.Seconds)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "weights file to write (.hlnn)")
	f.StringVar(&name, "name", "gen-00", "network name recorded in the file")
	f.StringVar(&ev, "eval", "hand", "the hand-made evaluation fitted, a spec: hand (D&F's, dnf86: every committed network's bootstrap), tuned (tuned-03), weights:FILE, hand+RULE... (hatelab beam --help)")
	flags.DecimalVar(f, &beamWidth, "beam-width", 1000, "master beam width (hand-made evaluation, D&F's weights)")
	f.BoolVar(&quiescence, "quiescence", false, "master beam with the quiescence lookahead")
	flags.DecimalVar(f, &maxPieces, "max-pieces", 0, "stop the master beam after this many pieces (0: until it dies)")
	flags.DecimalVar(f, &perLevel, "per-level", 16, "kept wells drawn per level (each with the outcomes of its piece)")
	f.StringVar(&variant, "variant", "shared", "features: shared (knewjade) or positional (D&F)")
	flags.DecimalVar(f, &hidden, "hidden", train.DefaultHidden, "hidden units")
	flags.DecimalVar(f, &minCount, "min-count", 3, "fit only features seen at least this often")
	flags.DecimalVar(f, &maxFeat, "max-features", 3000, "fit at most this many features (the most frequent)")
	f.Float64Var(&ridge, "ridge", 1, "ridge added to the normal equations")
	flags.DecimalVar(f, &seed, "seed", 1, "seed of the draws and the random hidden units")
	flags.DecimalVar(f, &works, "workers", 0, "goroutines for the beam (0: all cores; the result does not depend on it)")
	f.BoolVar(&js, "json", false, "print the fit report as JSON")
	return cmd
}

func newNNUEInfoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "info FILE",
		Short: "Describe an NNUE weights file: header, sizes, quantisation",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := nnue.Load(args[0])
			if err != nil {
				return err
			}
			q, err := nnue.Quantize(n, n.Header.QA, n.Header.QB)
			if err != nil {
				return err
			}
			h := n.Header
			var m []string
			for k, v := range h.Metrics {
				m = append(m, fmt.Sprintf("%s=%g", k, v))
			}
			slices.Sort(m)
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "name:        %s (generation %d)\nnetwork:     %s, output %s, score weight %g\nint16 error: at most %.4g\nprovenance:  %s\nmetrics:     %s\n",
				h.Name, h.Generation, q, h.Output, n.ScoreWeight, q.ErrorBound(), h.Provenance, strings.Join(m, " "))
			return err
		},
	}
}

func newNNUECycleCmd() *cobra.Command {
	var (
		dir, start                                string
		gens, masterBeamWidth, masterPieces       int
		masterOpenings, masterDeep, masterDeepMin int
		samples, targetBeamWidth, targetPieces    int
		epochs, batch, works, shiftCheck          int
		noQ, quiet, js, stratify, keepSW          bool
		lr, collapse, rankWeight, children        float64
		targetRule, targetScale, teacher          string
		masterDeepGames                           string
		seed                                      uint64
		gate                                      bool
		gateBaseline                              string
		gateSuites                                []string
		gateBeamWidths                            []int
	)
	cmd := &cobra.Command{
		Use:   "cycle --dir DIR --generations N --master-beam-width W --samples S [--start FILE] [--target-beam-width 512 --target-pieces 10]",
		Short: "Run NNUE training generations: master beam, samples, targets, GoMLX training, export",
		Long: `Run training generations (engine/nnue/cycle): from the network of the previous
generation (generation 0: --start, e.g. datasets/weights/gen-00.hlnn), a master
beam with quiescence whose kept wells are reservoir-sampled, a target beam per
sample (best value after --target-pieces pieces, -1 if it dies), training from
the previous weights with GoMLX (pure-Go backend), and export to DIR/gen-NN.hlnn
with a report per generation. Run it again with the same DIR after a kill to
resume; the result is the same. With --teacher SPEC another evaluation plays the
master and target beams (distillation); with --target-rule residual the network
learns what the teacher's search adds to its own value of a well and is played
added to it (datasets/weights/teacher/README.md).`,
		Example: `  hatelab nnue cycle --dir runs/c1 --start datasets/weights/gen-00.hlnn --generations 2 --master-beam-width 1000 --samples 4000`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if epochs < 1 || batch < 1 || !(lr > 0) || math.IsInf(lr, 0) {
				return fmt.Errorf("--epochs %d and --batch %d must be at least 1, --lr %g a finite positive number", epochs, batch, lr)
			}
			rule, err := targets.ParseRule(targetRule)
			if err != nil {
				return fmt.Errorf("--target-rule: %v", err)
			}
			cfg := cycle.Config{Dir: dir, Generations: gens, MasterBeamWidth: masterBeamWidth, MasterPieces: masterPieces, MasterOpenings: masterOpenings, NoQuiescence: noQ,
				MasterDeep: masterDeep, MasterDeepMin: masterDeepMin, MasterDeepGames: masterDeepGames,
				Samples: samples, Stratify: stratify, Children: children, TargetBeamWidth: targetBeamWidth, TargetPieces: targetPieces, TargetRule: rule,
				TargetScale: targetScale, KeepScoreWeight: keepSW, Collapse: collapse, ShiftCheck: shiftCheck, Seed: seed, Workers: works,
				Train: train.Config{MaxEpochs: epochs, Batch: batch, LearningRate: lr, RankWeight: rankWeight}}
			if targetBeamWidth < 1 || targetPieces < 1 {
				return fmt.Errorf("--target-beam-width %d and --target-pieces %d must be at least 1", targetBeamWidth, targetPieces)
			}
			if teacher = strings.TrimSpace(teacher); teacher != "" {
				t, err := evalspec.Parse(teacher, "", nil)
				if err != nil {
					return fmt.Errorf("--teacher: %v", err)
				}
				if rule == targets.Residual && !strings.Contains(teacher, "+h:") {
					// The network is played as nnue:FILE+h:W:TEACHER (a hybrid
					// teacher NET+h:W:HAND: as nnue:FILE+h:W/s:HAND, which the
					// cycle's Check sees to).
					if _, err := evalspec.Parse("nnue+h:1:"+teacher, "", nil); err != nil {
						return fmt.Errorf("--teacher %s: --target-rule residual needs a hand-made teacher or a hybrid NET+h:W:HAND, one whose hand-made part the network is played with (%v)", teacher, err)
					}
				}
				cfg.Teacher, cfg.TeacherSpec = t, teacher
			}
			if err := cfg.Check(); err != nil {
				return err
			}
			if gate {
				widthsSet := slices.ContainsFunc([]string{"gate-beam-widths", "gate-beam-width", "gate-width"}, cmd.Flags().Changed)
				gs, err := newGates(gateSuites, gateBaseline, gateBeamWidths, widthsSet, dir)
				if err != nil {
					return err
				}
				for i := range gs {
					gs[i].Parallel = works
				}
				cfg.Gate = gs.Judge
				if err := cfg.Check(); err != nil {
					return err
				}
			}
			if start != "" {
				n, err := nnue.Load(start)
				if err != nil {
					return fmt.Errorf("--start: %v", err)
				}
				cfg.Start = n
				if err := cfg.Check(); err != nil {
					return err
				}
			}
			if !quiet {
				cfg.Progress = progressview.Auto("nnue cycle")
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			reps, err := cycle.Run(ctx, cfg)
			var se *cycle.SettingsError
			if errors.As(err, &se) {
				return err
			}
			if err != nil {
				return failure(err)
			}
			w := cmd.OutOrStdout()
			if js {
				return writeJSON(w, reps)
			}
			return printCycleReports(w, reps)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "directory of the run (resumes when it exists)")
	f.StringVar(&start, "start", "", "generation-0 network (needed on the first run of a directory)")
	flags.DecimalVar(f, &gens, "generations", 1, "generations to run")
	f.BoolVar(&gate, "gate", false, "judge each new network in arena matches against the previous one and --gate-baseline at every --gate-suite (the first's games in DIR/gate-NN.jsonl and DIR/gate-NN-wW.jsonl, the K-th's in DIR/gate-NN-gK-wW.jsonl); a network whose mean over one gate's games is lower fails that gate, and one that fails any is not the next generation's start")
	f.StringArrayVar(&gateSuites, "gate-suite", []string{"openings:20:8:101"}, "a gate: an arena suite, seeded openings (not the master beam's wells) or a deep games:N:SEED:MINSCORE suite (the lab's long games; never records:, the deep test set), played at --gate-beam-widths, or at width N alone with @wN (e.g. games:20:7:20@w10000); repeat it for more gates, each of which a new network must pass")
	f.StringVar(&gateBaseline, "gate-baseline", evalspec.BestHand, "the gate's other arm, an arena arm spec (tuned: the best hand-made evaluation in the arena, datasets/weights/tuned-03.json, which beats both lines alone and D&F's weights on the test openings; score: lines alone, the default before tuned; hand: D&F's weights, the committed scale run's gate; a run begun with another baseline resumes its gate matches only with that one)")
	flags.DecimalsVar(f, &gateBeamWidths, "gate-beam-widths", []int{1000}, "the beam widths of every --gate-suite without @wN, comma-separated (with quiescence), e.g. 1000,10000: the gate's paired differences are summed over them")
	flags.DecimalsAlias(f, &gateBeamWidths, "gate-beam-width", "gate-beam-widths")
	flags.DecimalsAlias(f, &gateBeamWidths, "gate-width", "gate-beam-widths")
	flags.DecimalVar(f, &masterBeamWidth, "master-beam-width", 1000, "master beam width")
	flags.Alias(f, &masterBeamWidth, "master-width", "master-beam-width")
	flags.DecimalVar(f, &masterPieces, "master-pieces", 0, "stop the master beam after this many pieces (0: until it dies)")
	flags.DecimalVar(f, &masterOpenings, "master-openings", 0, "run the master beam (each --master-beam-width wide) from this many seeded random 8-piece openings instead of the empty well alone, so that the samples come from many games (seed 1,000,000 + 1,000 --seed + the generation: never a test suite; 0: one beam from the empty well)")
	flags.DecimalVar(f, &masterDeep, "master-deep", 0, "also run master beams (each --master-beam-width wide) from this many mid-game wells of the lab's own long games (datasets/beams; the arena suite games:N:SEED:MIN, seed as --master-openings'), each with the AI's memory, so that the samples include deep wells; sampled wells of world-record replays (the deep test set) are dropped (0: none)")
	flags.DecimalVar(f, &masterDeepMin, "master-deep-min", 0, "with --master-deep, draw wells at this many lines or more")
	f.StringVar(&masterDeepGames, "master-deep-games", "", "with --master-deep, draw the wells from all the games of this file (the form of datasets/beams/games.jsonl; the suite games:N:SEED:MIN:FILE) instead of the arena's pool, the first 9 games of datasets/beams/games.jsonl")
	f.BoolVar(&noQ, "no-quiescence", false, "master beam without quiescence")
	flags.DecimalVar(f, &samples, "samples", 4000, "wells sampled from the master beam per generation")
	f.BoolVar(&stratify, "stratify", false, "draw the samples evenly over depth (bands of 10 pieces) and stack height instead of one reservoir")
	f.Float64Var(&children, "children", 0, "replace this share (0 to 1) of the sampled wells by a random child each: a well the next piece makes from it, poor placements included, which a beam must rank but never keeps")
	flags.DecimalVar(f, &targetBeamWidth, "target-beam-width", 512, "target beam width")
	flags.Alias(f, &targetBeamWidth, "target-width", "target-beam-width")
	flags.DecimalVar(f, &targetPieces, "target-pieces", 10, "pieces of each target beam")
	f.StringVar(&targetRule, "target-rule", "best", "target rule: best (best value after --target-pieces, -1 if the beam dies), dnf (D&F 2023: runs twice the pieces; -1 dead by --target-pieces, the value if alive at twice, blended between), lines (the lines the beam cleared in --target-pieces, -1 if it dies; needs --target-scale fitted) residual (best minus the teacher's own value of the well, or for a hybrid teacher NET+h:W:HAND minus W times HAND's; needs --teacher and --target-scale fitted) or static (the teacher's own value of the well, no target beam: the network imitates the teacher; needs --teacher)")
	f.StringVar(&targetScale, "target-scale", "tanh", "target scale: tanh (tanh of the value) or fitted (tanh of the value centred on the median and scaled so the 10th and 90th percentiles map to -+0.8)")
	f.StringVar(&teacher, "teacher", "", "an evaluation spec (e.g. tuned; with --target-rule residual a hand-made one or a hybrid NET+h:W:HAND) that guides the master and target beams instead of each generation's network: the network learns the teacher's wells and what the teacher's search makes of them; with --target-rule residual, what that search adds to the teacher's own value, the network then played added to the teacher (nnue:FILE+h:W:SPEC, W in the network's provenance); for a hybrid teacher, what its search adds to its hand-made part W*HAND, the network then played in the teacher's network's place (nnue:FILE+h:W2:HAND, W2 in the provenance)")
	f.BoolVar(&keepSW, "keep-score-weight", false, "give each trained network its start's score weight (with --teacher, the teacher's value of a line; in the trained output's units) instead of 0, so that a beam values lines already scored as the targets did")
	f.Float64Var(&collapse, "collapse", 0.9, "fail a generation whose targets crowd: more than this share within one tenth of [-1, 1] (0: no guard)")
	flags.DecimalVar(f, &shiftCheck, "shift-check", 0, "wells drawn from each new network's own master beam to check its predictions off its training distribution (0: none)")
	flags.DecimalVar(f, &epochs, "epochs", train.DefaultMaxEpochs, fmt.Sprintf("most training epochs (early stopping after %d without progress)", train.DefaultPatience))
	flags.DecimalVar(f, &batch, "batch", train.DefaultBatch, "training batch")
	f.Float64Var(&lr, "lr", train.DefaultLearningRate, "Adam learning rate")
	f.Float64Var(&rankWeight, "rank-weight", 0, "add this weight times a ranking loss to the mean squared error: a pairwise logistic loss over the pairs of a batch with the same number of filled cells, each weighted by its target gap, batches cut from the samples sorted by that number; early stopping then follows the same kind of sum on the held-out wells (0 to 1000; 0: mean squared error alone)")
	flags.DecimalVar(f, &seed, "seed", 1, "seed of sampling and training")
	flags.DecimalVar(f, &works, "workers", 0, "goroutines (0: all cores; the result does not depend on it)")
	f.BoolVar(&quiet, "quiet", false, "no progress on standard error")
	f.BoolVar(&js, "json", false, "print the reports as JSON")
	return cmd
}

// checkFit0 validates fit0's flags before any work: every number in
// range (naming the flag) and --out a new path or a weights file (never a
// device, a folder, or another kind of file).
func checkFit0(out string, c gen0.Config) error {
	switch {
	case out == "":
		return errors.New("--out FILE is required")
	case c.BeamWidth < 1 || c.BeamWidth > beam.MaxWidth:
		return fmt.Errorf("--beam-width %d: want 1 to %d", c.BeamWidth, beam.MaxWidth)
	case c.PerLevel < 1:
		return fmt.Errorf("--per-level %d: want at least 1", c.PerLevel)
	case c.Hidden < 1 || c.Hidden > nnue.MaxHidden:
		return fmt.Errorf("--hidden %d: want 1 to %d", c.Hidden, nnue.MaxHidden)
	case c.MaxPieces < 0:
		return fmt.Errorf("--max-pieces %d is negative (0: until the beam dies)", c.MaxPieces)
	case c.MinCount < 1:
		return fmt.Errorf("--min-count %d: want at least 1", c.MinCount)
	case c.MaxFeatures < 1:
		return fmt.Errorf("--max-features %d: want at least 1", c.MaxFeatures)
	case !(c.Ridge > 0) || math.IsInf(c.Ridge, 0):
		return fmt.Errorf("--ridge %g: want a finite positive number", c.Ridge)
	case c.Workers < 0:
		return fmt.Errorf("--workers %d is negative (0: all cores)", c.Workers)
	}
	if err := c.Check(); err != nil {
		return err
	}
	return checkWeightsOut("--out", out)
}

// checkWeightsOut refuses an output path that exists and is not a
// weights file: a device, FIFO or folder (atomicfile.CheckTarget), or a
// regular file that does not begin with the weights magic.
func checkWeightsOut(flag, path string) error {
	if err := atomicfile.CheckTarget(path); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("%s %s: its folder %s does not exist", flag, path, filepath.Dir(path))
	}
	if err := atomicfile.CheckWritable(path); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	f, _, err := boundedfile.Open(path, math.MaxInt64, "weights file")
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", flag, unwrapPathError(err))
	}
	defer f.Close()
	head := make([]byte, len(nnue.Magic))
	if n, _ := io.ReadFull(f, head); n > 0 && string(head[:n]) != nnue.Magic {
		return fmt.Errorf("%s %s exists and is not a weights file: refusing to replace it (remove it or choose another path)", flag, path)
	}
	return nil
}

// printCycleReports writes one paragraph per generation's report.
func printCycleReports(w io.Writer, reps []cycle.Report) error {
	for _, r := range reps {
		best := r.Epochs[len(r.Epochs)-1]
		for _, e := range r.Epochs {
			if e.Best {
				best = e
			}
		}
		if _, err := fmt.Fprintf(w, "generation %d: master score %d (%d pieces; without quiescence %d), %d samples (%d sampled), %d dead targets, mean target %.3f, valid MSE %.4f (epoch %d of %d), valid Spearman %.3f (previous generation %.3f, %d wells), %.0fs master, %.0fs targets, %.0fs train -> %s\n",
			r.Generation, r.MasterScore, r.MasterPieces, r.MasterPlain, r.Samples, r.Sampled, r.DeadTargets, r.MeanTarget, best.ValidMSE, best.Epoch,
			len(r.Epochs), r.ValidSpearman, r.PrevValidSpearman, r.ValidSamples, r.SecondsByStage["master"], r.SecondsByStage["targets"], r.SecondsByStage["train"], r.Network); err != nil {
			return failure(err)
		}
		if _, err := fmt.Fprintf(w, "  targets: histogram %v (20 bins of 0.1 over [-1, 1]), %.0f%% within one tenth of the range\n", r.TargetHistogram, 100*r.TargetCrowding); err != nil {
			return failure(err)
		}
		if sh := r.Shift; sh != nil {
			if _, err := fmt.Fprintf(w, "  shift check: %d wells of its own master beam: MSE %.4f, Spearman %.3f (validation wells: MSE %.4f, Spearman %.3f)\n",
				sh.Wells, sh.MSE, sh.Spearman, sh.ValidMSE, sh.ValidSpearman); err != nil {
				return failure(err)
			}
		}
		if err := printGates(w, r); err != nil {
			return failure(err)
		}
	}
	return nil
}

// printGates writes a gated generation's gates, one line each with a
// line per width (a report of a cycle gated before there were several
// has its verdict's line alone), and whether the network was kept.
func printGates(w io.Writer, r cycle.Report) error {
	if r.Gate == "" {
		return nil
	}
	if len(r.Gates) == 0 {
		_, err := fmt.Fprintf(w, "  gate: %s\n", r.Gate)
		return err
	}
	for k, g := range r.Gates {
		word := "passed"
		if !g.Pass {
			word = "failed"
		}
		at := "beam width " + joinInts(g.BeamWidths)
		if len(g.BeamWidths) > 1 {
			at = "beam widths " + strings.ReplaceAll(joinInts(g.BeamWidths), ",", ", ")
		}
		if _, err := fmt.Fprintf(w, "  gate %d of %d, %s (%s) at %s: %s, %+g lines summed against its start\n",
			k+1, len(r.Gates), g.Suite, g.SuiteID, at, word, g.Diff); err != nil {
			return err
		}
		for _, m := range g.Widths {
			if _, err := fmt.Fprintf(w, "    beam width %d: %s; %s\n", m.BeamWidth, m.VsPrev.Verdict(), m.VsBaseline.Verdict()); err != nil {
				return err
			}
		}
	}
	word := "kept as the next generation's start"
	if r.NextStart != "" {
		word = fmt.Sprintf("rejected: generation %d starts from %s", r.Generation+1, strings.TrimSuffix(filepath.Base(r.NextStart), ".hlnn"))
	}
	_, err := fmt.Fprintf(w, "  gate: %s\n", word)
	return err
}

// newGates are the cycle's gates of --gate: one per suite (a suite spec,
// with @wN for a gate at that width alone, cycle.ParseGate), with the
// baseline arm (an arena arm spec without @ settings) and the widths of
// the suites without @wN (widthsSet: --gate-beam-widths was given, so
// some gate must play at them), checked before any work.
func newGates(suites []string, baseline string, widths []int, widthsSet bool, dir string) (cycle.Gates, error) {
	if len(widths) == 0 {
		return nil, fmt.Errorf("--gate-beam-widths: no width")
	}
	for i, w := range widths {
		if err := flags.CheckBeamWidth("gate-beam-widths", w); err != nil {
			return nil, err
		}
		if slices.Contains(widths[:i], w) {
			return nil, fmt.Errorf("--gate-beam-widths: %d given twice", w)
		}
	}
	gs, err := cycle.ParseGates(suites, widths, nil)
	if err != nil {
		return nil, fmt.Errorf("--gate-suite: %v", err)
	}
	if widthsSet && !slices.ContainsFunc(suites, func(s string) bool { return !strings.Contains(s, "@") }) {
		return nil, fmt.Errorf("--gate-beam-widths: no gate plays at them (every --gate-suite has its @wN)")
	}
	base, err := arena.ParseArm(baseline, nil)
	if err != nil {
		return nil, fmt.Errorf("--gate-baseline: %v", err)
	}
	if base.BeamWidth != 0 || base.Quiescence != nil {
		return nil, fmt.Errorf("--gate-baseline %q: no @ settings (the gate plays at --gate-beam-widths, with quiescence)", baseline)
	}
	for i := range gs {
		gs[i].Baseline, gs[i].Dir = base, dir
	}
	return gs, nil
}
