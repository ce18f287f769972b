package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newBeamCmd())
}

// beamJSON is the --json output of `hatelab beam`.
type beamJSON struct {
	Score        int     `json:"score"`
	PiecesPlaced int     `json:"pieces_placed"`
	Keys         string  `json:"keys"`
	Replay       string  `json:"replay"`
	Seconds      float64 `json:"seconds"`
	Children     int64   `json:"children"`
}

func newBeamCmd() *cobra.Command {
	var (
		beamWidth, maxPieces, workers int
		well                          flags.Well
		quiescence, resume, js        bool
		evalName, weights, ckpt       string
	)
	cmd := &cobra.Command{
		Use:   "beam --beam-width N [--quiescence] [--eval SPEC] [--weights FILE] [--max-pieces P] [--checkpoint DIR] [--resume] [--json]",
		Short: "Beam-search a HATETRIS game and print its replay",
		Long: `Beam-search HATETRIS from the empty well: keep the best N wells at each level
(--eval, optional bird-in-hand quiescence lookahead), expand them under the real
AI with the loop rule, until no child survives. The best game
(highest score, then longest) is rebuilt, played to game over, checked with the
real game and printed as a Base2048 replay (--json adds its keys). A progress line per level
goes to standard error. With --checkpoint DIR the beam is saved after every
level; --resume continues an interrupted search to the identical game.

Limits, checked before the search: the workers' candidate pools (48 bytes a
candidate, --beam-width x 1.25 per worker) must fit in the memory the process
can take (MemAvailable, RLIMIT_AS, cgroup memory.max); a 4-wide well under a
bar of one row is refused (its beam clears lines forever, and its best game
cannot be played to game over); without --max-pieces a search that has not
ended after ` + strconv.Itoa(maxOpenPieces) + ` pieces stops with an error.

The default evaluation is tuned, the best hand-made evaluation in the arena
(datasets/weights/tuned-03.json: lines alone plus row transitions, rows with
holes and column transitions; on the test openings with quiescence it beats
both lines alone and D&F's weights at beam widths 1,000 and 10,000). --eval
hand is D&F's 86-point weights, the default before it: it replays the games
of older runs. --weights FILE without --eval is --eval hand with FILE's
weights (--eval weights:FILE). The first line on standard error names the
evaluation.

Evaluations (--eval; the same specs as hatelab-beam beam --eval and the arms of
hatelab arena):
` + evalspec.Help,
		Example: `  hatelab beam --beam-width 1000 --quiescence
  hatelab beam --beam-width 1000 --quiescence --eval hand
  hatelab beam --beam-width 1000 --eval hand+stack-height
  hatelab beam --beam-width 1000 --quiescence --eval nnue
  hatelab beam --beam-width 1000 --quiescence --eval nnue:datasets/weights/gen-00.hlnn
  hatelab beam --json --beam-width 1000 --quiescence
  hatelab beam --beam-width 100000 --quiescence --checkpoint ckpt --resume`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := hatetris.NewRules(well.Width, well.Depth, well.Bar)
			if err != nil {
				return nameFlag(err, map[string]string{"width": "--well-width", "depth": "--well-depth", "bar": "--bar"})
			}
			if beamWidth < 1 {
				return fmt.Errorf("--beam-width %d: want at least 1", beamWidth)
			}
			if resume && ckpt == "" {
				return errors.New("--resume needs --checkpoint DIR")
			}
			if err := checkBeamRun(r, beamWidth, maxPieces, workers, ckpt); err != nil {
				return err
			}
			if err := checkInputFile("--weights", weights); err != nil {
				return err
			}
			if weights != "" && !cmd.Flags().Changed("eval") {
				evalName = "hand" // --weights FILE alone: FILE's hand-made weights, as before tuned
			}
			ev, err := evalspec.ParseFlags(evalName, weights, r)
			if err != nil {
				return err
			}
			errw := cmd.ErrOrStderr()
			fmt.Fprintf(errw, "evaluation %s\n", ev.Name())
			ctx, stop, interrupted := interruptible()
			defer stop()
			res, err := beam.Run(ctx, beam.Config{
				Rules: r, BeamWidth: beamWidth, MaxPieces: maxPieces, Quiescence: quiescence, Eval: ev,
				Workers: workers, CheckpointDir: ckpt, Resume: resume,
				OnLevel: func(ds beam.LevelStats) error {
					printLevel(errw, ds)
					if maxPieces == 0 && ds.Level >= maxOpenPieces {
						return fmt.Errorf("beam: no end after %d pieces: the beam may never die in this well; set --max-pieces", ds.Level)
					}
					return nil
				},
			})
			if errors.Is(err, beam.ErrConfig) {
				if resume && !cmd.Flags().Changed("eval") && strings.Contains(err.Error(), "eval="+eval.NewHand(eval.DefaultWeights()).Name()+" ") {
					// A checkpoint of the default before tuned.
					return fmt.Errorf("%w (the search was begun with hand, the default --eval before tuned: resume it with --eval hand)", err)
				}
				return err
			}
			if err != nil {
				if ierr := interrupted(err); ierr != err {
					return ierr // Ctrl-C: one line, exit 130
				}
				return failure(err)
			}
			out := cmd.OutOrStdout()
			if js {
				return writeJSON(out, beamJSON{Score: res.Score, PiecesPlaced: res.Pieces, Keys: res.Keys,
					Replay: res.Replay, Seconds: res.Seconds, Children: res.Children})
			}
			_, err = fmt.Fprintf(out, "score:          %d\npieces placed:  %d\nbest at level:  %d\nloop rule:      changed the piece %d times\nseconds:        %.2f\nchildren:       %d\nreplay:         %s\n",
				res.Score, res.Pieces, res.BestLevel, res.LoopChanges, res.Seconds, res.Children, res.Replay)
			if err != nil {
				return failure(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	flags.BeamWidth(f, &beamWidth, 1000, "wells kept at each level")
	// --width here is the old name of --beam-width (the well's width is
	// --well-width in every command).
	flags.Alias(f, &beamWidth, "width", flags.BeamWidthFlag)
	f.BoolVar(&quiescence, "quiescence", false, "value wells by their best single-line-clear chain (bird in hand)")
	f.StringVar(&evalName, "eval", evalspec.BestHand, "the evaluation, a spec (Evaluations above)")
	f.StringVar(&weights, "weights", "", "weights file: JSON hand-made weights for --eval hand (--eval weights:FILE; --weights without --eval is --eval hand), a network (.hlnn) for --eval nnue (--eval nnue:FILE)")
	flags.DecimalVar(cmd.Flags(), &maxPieces, "max-pieces", 0, "stop after this many pieces (0: until the beam dies)")
	flags.Alias(f, &maxPieces, "max-depth", "max-pieces")
	f.StringVar(&ckpt, "checkpoint", "", "folder for a checkpoint after every level")
	f.BoolVar(&resume, "resume", false, "continue from the checkpoint in --checkpoint")
	f.BoolVar(&js, "json", false, `print one JSON object {"score","pieces_placed","keys","replay","seconds","children"}`)
	flags.Workers(f, &workers, 0, "goroutines, 0 to 1024 (0: all cores; the result does not depend on it)")
	flags.WellVars(f, &well, "")
	return cmd
}

// maxOpenPieces bounds a search without --max-pieces: the beam of a
// standard well dies within a few thousand pieces; one that has not after
// this many is taken not to end.
const maxOpenPieces = 100_000

// checkBeamRun checks what beam.Run would only find out during the
// search: a 4-wide well without --max-pieces, the memory of the pools,
// and a --checkpoint that names something other than a folder.
func checkBeamRun(r *hatetris.Rules, width, maxPieces, workers int, ckpt string) error {
	if maxPieces < 0 {
		return fmt.Errorf("--max-pieces %d: want 0 (until the beam dies) or more", maxPieces)
	}
	if r.Width == 4 && r.Bar == 1 {
		// A horizontal I fills a 4-wide row on its own: under a bar of one
		// row the beam clears lines forever (measured: every depth, beam
		// widths 1 and 50), and with --max-pieces its best game cannot be
		// played on to game over either.
		return errors.New("--well-width 4 --bar 1: this game need not end (a horizontal I clears a row by itself, and the beam never dies): use --bar 2 or more, or a wider well")
	}
	if err := flags.CheckBeamWidth(flags.BeamWidthFlag, width); err != nil {
		return err
	}
	if workers < 0 || workers > beam.MaxWorkers {
		return fmt.Errorf("--workers %d: want 0 (all cores) to %d", workers, beam.MaxWorkers)
	}
	n := workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if err := checkMemory(fmt.Sprintf("--beam-width %d with %d workers", width, n), beam.PoolBytes(width, n)); err != nil {
		return err
	}
	if ckpt != "" {
		if st, err := os.Stat(ckpt); err == nil && !st.IsDir() {
			return fmt.Errorf("--checkpoint %s: not a folder", ckpt)
		}
	}
	return nil
}

func printLevel(w io.Writer, ds beam.LevelStats) {
	if ds.Kept == 0 { // no score or value range to show
		fmt.Fprintf(w, "level %4d  kept %7d  (the beam died)  children %9d  %.2fs\n", ds.Level, ds.Kept, ds.Children, ds.Seconds)
		return
	}
	fmt.Fprintf(w, "level %4d  kept %7d  score %s  value %s  children %9d  families %5d  loops %d  %.2fs\n",
		ds.Level, ds.Kept, progress.IntRange(ds.MinScore, ds.MaxScore), progress.FloatRange(ds.WorstValue, ds.BestValue, 1),
		ds.Children, ds.Families, ds.LoopsAvoided, ds.Seconds)
}
