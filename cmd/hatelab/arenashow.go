package main

import (
	"fmt"
	"os"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/internal/arenareport"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/spf13/cobra"
)

// newArenaShowCmd is `hatelab arena show FILE`: a match file's table and
// verdicts, without playing a game.
func newArenaShowCmd() *cobra.Command {
	var (
		baseline string
		seq      sprtFlags
	)
	cmd := &cobra.Command{
		Use:   "show FILE [--baseline ARM]",
		Short: "Print a match file's table and verdicts without playing a game",
		Long: `Print the table and the verdicts of a match file (hatelab arena --out, or a
committed one in datasets/arena) from its games, without playing any. The
baseline is --baseline, or the arm of the file's first game. A file of fewer
games than its suite's starts times its arms (a match stopped, or still being
played) is shown as it is, with a line that says so: its p-values and intervals
assume a number of games fixed in advance. A match played with a sequential
test (--sprt) is read with the same flags: the file does not record them, and
the verdicts are then the test's, on the leading run of starts both arms played.`,
		Example: `  hatelab arena show datasets/arena/terms-w1000.jsonl --baseline score
  hatelab arena show datasets/arena/teacher-records-sprt-w1000.jsonl --baseline tuned --sprt --sprt-test mean --sprt-lines 1 --sprt-alpha 0.01 --sprt-beta 0.05`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			test, err := seq.test()
			if err != nil {
				return err
			}
			st, err := os.Stat(path)
			if err != nil {
				return fmt.Errorf("%s: %v", path, unwrapPathError(err))
			}
			if err := boundedfile.Check(st, arena.MaxMatchFile, "match file"); err != nil {
				return fmt.Errorf("%s %v", path, err)
			}
			var res *arena.Result
			if baseline == "" {
				res, err = arena.ReadMatchAny(path)
			} else {
				res, err = arena.ReadMatch(path, baseline)
			}
			if err != nil {
				return err
			}
			res.WithSequential(test)
			out := cmd.OutOrStdout()
			if err := arenareport.Table(out, nil, res); err != nil {
				return failure(err)
			}
			arms, played := len(res.Standings.Arms), res.Standings.Played()
			if want := res.Header.Starts * arms; played < want && test == nil {
				_, err = fmt.Fprintf(out, "the file holds %d of the %d games of %d arms on %d starts: a match stopped before its end (its sequential test, if it had one, is not recorded in the file)\n",
					played, want, arms, res.Header.Starts)
			}
			return failure(err)
		},
	}
	cmd.Flags().StringVar(&baseline, "baseline", "", "the arm the others are compared with (default: the arm of the file's first game)")
	seq.register(cmd.Flags(), "read the match with the sequential test it was played with (--sprt-test and the rest as hatelab arena took them)")
	return cmd
}
