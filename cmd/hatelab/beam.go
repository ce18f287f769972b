package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
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
		width, maxDepth, workers int
		wellW, wellD, bar        int
		quiescence, resume, js   bool
		evalName, weights, ckpt  string
	)
	cmd := &cobra.Command{
		Use:   "beam --width N [--quiescence] [--eval hand] [--weights FILE] [--max-depth D] [--checkpoint DIR] [--resume] [--json]",
		Short: "Beam-search a HATETRIS game and print its replay",
		Long: `Beam-search HATETRIS from the empty well: keep the best N wells at each depth
(hand-made evaluation, optional bird-in-hand quiescence lookahead), expand them
under the real AI with the loop rule, until no child survives. The best game
(highest score, then longest) is rebuilt, played to game over, checked with the
real game and printed as keys and a Base2048 replay. A progress line per depth
goes to standard error. With --checkpoint DIR the beam is saved after every
depth; --resume continues an interrupted search to the identical game.`,
		Example: `  hatelab beam --width 1000 --quiescence
  hatelab beam --json --width 1000 --quiescence
  hatelab beam --width 100000 --quiescence --checkpoint ckpt --resume`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := hatetris.NewRules(wellW, wellD, bar)
			if err != nil {
				return err
			}
			if width < 1 {
				return fmt.Errorf("--width %d: want at least 1", width)
			}
			if resume && ckpt == "" {
				return errors.New("--resume needs --checkpoint DIR")
			}
			ev, err := eval.ByName(evalName, weights)
			if err != nil {
				return err
			}
			errw := cmd.ErrOrStderr()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			res, err := beam.Run(ctx, beam.Config{
				Rules: r, Width: width, MaxDepth: maxDepth, Quiescence: quiescence, Eval: ev,
				Workers: workers, CheckpointDir: ckpt, Resume: resume,
				OnDepth: func(ds beam.DepthStats) error {
					printDepth(errw, ds)
					return nil
				},
			})
			if errors.Is(err, beam.ErrConfig) {
				return err
			}
			if err != nil {
				return failure(err)
			}
			out := cmd.OutOrStdout()
			if js {
				return writeJSON(out, beamJSON{Score: res.Score, PiecesPlaced: res.PiecesPlaced, Keys: res.Keys,
					Replay: res.Replay, Seconds: res.Seconds, Children: res.Children})
			}
			_, err = fmt.Fprintf(out, "score:          %d\npieces placed:  %d\nbest at depth:  %d\nloop rule:      changed the piece %d times\nseconds:        %.2f\nchildren:       %d\nreplay:         %s\n",
				res.Score, res.PiecesPlaced, res.BestDepth, res.LoopChanges, res.Seconds, res.Children, res.Replay)
			if err != nil {
				return failure(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&width, "width", 1000, "beam width: wells kept at each depth")
	f.BoolVar(&quiescence, "quiescence", false, "value wells by their best single-line-clear chain (bird in hand)")
	f.StringVar(&evalName, "eval", "hand", "evaluation: hand or nnue")
	f.StringVar(&weights, "weights", "", "weights file: JSON for --eval hand (default: datasets/weights/dnf86.json's values), a network (.hlnn) for --eval nnue")
	f.IntVar(&maxDepth, "max-depth", 0, "stop after this many pieces (0: until the beam dies)")
	f.StringVar(&ckpt, "checkpoint", "", "directory for a checkpoint after every depth")
	f.BoolVar(&resume, "resume", false, "continue from the checkpoint in --checkpoint")
	f.BoolVar(&js, "json", false, `print one JSON object {"score","pieces_placed","keys","replay","seconds","children"}`)
	f.IntVar(&workers, "workers", 0, "goroutines (0: all cores; the result does not depend on it)")
	f.IntVar(&wellW, "well-width", 10, "well width (4..16)")
	f.IntVar(&wellD, "well-depth", 20, "well depth in rows, bar rows included (at most 16 below the bar)")
	f.IntVar(&bar, "bar", 4, "rows above the bar")
	return cmd
}

func printDepth(w io.Writer, ds beam.DepthStats) {
	fmt.Fprintf(w, "depth %4d  kept %7d  score %d..%d  value %.1f..%.1f  children %9d  families %5d  loops %d  %.2fs\n",
		ds.Depth, ds.Kept, ds.MinScore, ds.MaxScore, ds.WorstValue, ds.BestValue, ds.Children, ds.Families, ds.LoopsAvoided, ds.Seconds)
}
