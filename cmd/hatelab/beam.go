package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
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
		wellW, wellD, bar             int
		quiescence, resume, js        bool
		evalName, weights, ckpt       string
	)
	cmd := &cobra.Command{
		Use:   "beam --beam-width N [--quiescence] [--eval hand] [--weights FILE] [--max-pieces P] [--checkpoint DIR] [--resume] [--json]",
		Short: "Beam-search a HATETRIS game and print its replay",
		Long: `Beam-search HATETRIS from the empty well: keep the best N wells at each level
(hand-made evaluation, optional bird-in-hand quiescence lookahead), expand them
under the real AI with the loop rule, until no child survives. The best game
(highest score, then longest) is rebuilt, played to game over, checked with the
real game and printed as keys and a Base2048 replay. A progress line per level
goes to standard error. With --checkpoint DIR the beam is saved after every
level; --resume continues an interrupted search to the identical game.`,
		Example: `  hatelab beam --beam-width 1000 --quiescence
  hatelab beam --json --beam-width 1000 --quiescence
  hatelab beam --beam-width 100000 --quiescence --checkpoint ckpt --resume`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := hatetris.NewRules(wellW, wellD, bar)
			if err != nil {
				return err
			}
			if beamWidth < 1 {
				return fmt.Errorf("--beam-width %d: want at least 1", beamWidth)
			}
			if resume && ckpt == "" {
				return errors.New("--resume needs --checkpoint DIR")
			}
			ev, err := eval.ByName(evalName, weights)
			if err != nil {
				return err
			}
			errw := cmd.ErrOrStderr()
			ctx, stop, interrupted := interruptible()
			defer stop()
			res, err := beam.Run(ctx, beam.Config{
				Rules: r, BeamWidth: beamWidth, MaxPieces: maxPieces, Quiescence: quiescence, Eval: ev,
				Workers: workers, CheckpointDir: ckpt, Resume: resume,
				OnLevel: func(ds beam.LevelStats) error {
					printLevel(errw, ds)
					return nil
				},
			})
			if errors.Is(err, beam.ErrConfig) {
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
	decimalVar(cmd, &beamWidth, "beam-width", 1000, "wells kept at each level")
	decimalVar(cmd, &beamWidth, "width", 1000, "old name of --beam-width")
	f.MarkDeprecated("width", "use --beam-width (--width will name the well's width, as in the other commands)")
	f.BoolVar(&quiescence, "quiescence", false, "value wells by their best single-line-clear chain (bird in hand)")
	f.StringVar(&evalName, "eval", "hand", "evaluation: hand or nnue")
	f.StringVar(&weights, "weights", "", "weights file: JSON for --eval hand (default: datasets/weights/dnf86.json's values), a network (.hlnn) for --eval nnue")
	decimalVar(cmd, &maxPieces, "max-pieces", 0, "stop after this many pieces (0: until the beam dies)")
	decimalVar(cmd, &maxPieces, "max-depth", 0, "old name of --max-pieces")
	f.MarkDeprecated("max-depth", "use --max-pieces")
	f.StringVar(&ckpt, "checkpoint", "", "directory for a checkpoint after every depth")
	f.BoolVar(&resume, "resume", false, "continue from the checkpoint in --checkpoint")
	f.BoolVar(&js, "json", false, `print one JSON object {"score","pieces_placed","keys","replay","seconds","children"}`)
	decimalVar(cmd, &workers, "workers", 0, "goroutines, 0 to 1024 (0: all cores; the result does not depend on it)")
	decimalVar(cmd, &wellW, "well-width", 10, "well width (4..16)")
	decimalVar(cmd, &wellD, "well-depth", 20, "well depth in rows, bar rows included (at most 16 below the bar)")
	decimalVar(cmd, &bar, "bar", 4, "rows above the bar")
	return cmd
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
