package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/arena/tune"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/internal/atomicfile"
)

func init() {
	cmd := &cobra.Command{Use: "eval", Short: "Work on the hand-made evaluation (tune its weights in the arena)"}
	cmd.AddCommand(newEvalTuneCmd())
	rootCmd.AddCommand(cmd)
}

func newEvalTuneCmd() *cobra.Command {
	var (
		suite, out, ckpt, weights, terms string
		beamWidth, evals, parallel       int
		quiescence, force                bool
		step                             float64
	)
	cmd := &cobra.Command{
		Use:   "tune --suite SPEC --beam-width N [--quiescence] --out tuned.json [--checkpoint DIR]",
		Short: "Tune the hand-made weights with arena games as the objective (Nelder-Mead)",
		Long: `Tune the hand-made evaluation's weights: every candidate plays every start of a
training suite at the given beam width, and Nelder-Mead (gonum/optimize) searches
for the highest mean score (mean pieces break ties). Candidates multiply the
starting weights (dnf86, or --weights) by exp(x): signs are kept. The search is
deterministic; with --checkpoint DIR every evaluation is logged there and a rerun
of the same command replays the log and continues where it stopped.
Validate the result on a disjoint suite with hatelab arena.`,
		Example: `  hatelab eval tune --suite openings:20:8:2 --beam-width 300 --quiescence --evals 150 --out tuned.json --checkpoint tune-ck
  hatelab arena --arms hand,score,weights:tuned.json --suite openings:20:8:1 --beam-width 1000 --quiescence`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out: name the file for the tuned weights")
			}
			if err := checkWeightsOutput(out, weights, force); err != nil {
				return err
			}
			if err := flags.CheckBeamWidth(flags.BeamWidthFlag, beamWidth); err != nil {
				return err
			}
			s, err := arena.ParseSuite(suite, nil)
			if err != nil {
				return fmt.Errorf("--suite: %v", err)
			}
			start := eval.DefaultWeights()
			if weights != "" {
				if start, err = eval.LoadWeights(weights); err != nil {
					return fmt.Errorf("--weights: %v", err)
				}
			}
			c := tune.Config{Suite: s, BeamWidth: beamWidth, Quiescence: quiescence, Start: start, Evals: evals, Step: step, Parallel: parallel}
			if terms != "" {
				c.Terms = strings.Split(terms, ",")
			}
			if ckpt != "" {
				if err := os.MkdirAll(ckpt, 0o755); err != nil {
					return fmt.Errorf("--checkpoint: %v", err)
				}
				c.Log = filepath.Join(ckpt, "evaluations.jsonl")
			}
			if err := c.Check(); err != nil {
				return fmt.Errorf("%v (see --terms, --evals, --step, --parallel)", err)
			}
			errw := cmd.ErrOrStderr()
			c.Note = func(format string, a ...any) { fmt.Fprintf(errw, format+"\n", a...) }
			ctx, stop, interrupted := interruptible()
			defer stop()
			res, err := tune.Run(ctx, c)
			if err != nil {
				if ierr := interrupted(err); ierr != err {
					return ierr
				}
				var ie *tune.InputError
				if errors.As(err, &ie) {
					return err
				}
				return failure(err)
			}
			w := res.Best.Weights
			w.Name = strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
			if len(w.Name) > eval.MaxWeightsName {
				w.Name = w.Name[:eval.MaxWeightsName]
			}
			w.Provenance = fmt.Sprintf(tuneProvenance+"--suite %s (ID %s) --beam-width %d --quiescence=%v --evals %d: mean score %.2f, mean pieces %.1f on the training suite after %d evaluations (starting weights %s)",
				s.Spec, s.ID(), beamWidth, quiescence, evals, res.Best.Score, res.Best.Pieces, len(res.Evals), start.Name)
			if err := w.Check(); err != nil {
				return failure(err)
			}
			b, err := json.MarshalIndent(w, "", "  ")
			if err != nil {
				return failure(err)
			}
			if err := atomicfile.WriteBytes(out, 0o644, append(b, '\n')); err != nil {
				return failure(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "tuned weights in %s: mean score %.2f (start %.2f) over %d training starts, %d evaluations (%d read back)\n",
				out, res.Best.Score, res.Evals[0].Score, len(s.Starts), len(res.Evals), res.Replayed)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&suite, "suite", "openings:20:8:2", "training suite (keep it disjoint from the suite you validate on)")
	flags.DecimalVar(cmd.Flags(), &beamWidth, "beam-width", 300, "beam width of every training game")
	f.BoolVar(&quiescence, "quiescence", false, "bird-in-hand lookahead in every training game")
	flags.DecimalVar(cmd.Flags(), &evals, "evals", 100, "evaluations (each one game per training start), 1 to 100000")
	f.Float64Var(&step, "step", 0.5, "initial simplex size, in log units of the weights")
	f.StringVar(&terms, "terms", "", "comma-separated weights to tune (default: every non-zero weight but future_factor)")
	f.StringVar(&weights, "weights", "", "starting weights (JSON; default dnf86)")
	f.StringVar(&out, "out", "", "file for the tuned weights (JSON; an existing file this command did not write needs --force)")
	f.BoolVar(&force, "force", false, "replace an existing --out that this command did not write")
	f.StringVar(&ckpt, "checkpoint", "", "folder for the evaluations log: a rerun resumes from it")
	flags.DecimalVar(cmd.Flags(), &parallel, "parallel", 0, "games played at once (0: all cores)")
	return cmd
}

// checkWeightsOutput refuses an --out that is not a new path, an empty
// file or weights this command wrote (another weights file, a committed
// one, needs --force), that is the starting --weights, or that cannot be
// written: all before any game.
func checkWeightsOutput(path, start string, force bool) error {
	if err := atomicfile.CheckWritable(path); err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if atomicfile.SameFile(path, start) != "" {
		return fmt.Errorf("--out %s is the starting --weights: name another file for the tuned weights", path)
	}
	if st.Size() == 0 {
		return nil
	}
	w, err := eval.LoadWeights(path)
	switch {
	case err != nil:
		return fmt.Errorf("--out %s: the file exists and is not a weights file: refusing to replace it (name a new file)", path)
	case !force && !strings.HasPrefix(w.Provenance, tuneProvenance):
		return fmt.Errorf("--out %s: the file exists and was not written by hatelab eval tune: refusing to replace it (name a new file, or add --force)", path)
	}
	return nil
}

// tuneProvenance begins the provenance of every weights file eval tune
// writes.
const tuneProvenance = "hatelab eval tune "
