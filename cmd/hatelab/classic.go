package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
)

func init() { rootCmd.AddCommand(classicCmd()) }

// classicCmd returns a fresh `hatelab classic` command tree.
func classicCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "classic",
		Short: "Classic survival Tetris under tetr-ai's rules (seed-exact)",
	}
	cmd.AddCommand(newClassicPlayCmd(), newClassicSweepCmd(), newClassicStatsCmd())
	return cmd
}

// classicPlayJSON is the --json output of `hatelab classic play`.
type classicPlayJSON struct {
	Pieces int64 `json:"pieces"`
	Lines  int64 `json:"lines"`
}

func newClassicPlayCmd() *cobra.Command {
	var (
		rows, cols int
		seed       int64
		agent      string
		asJSON     bool
		maxPieces  int64
	)
	cmd := &cobra.Command{
		Use:   "play --rows R [--cols C] --seed S [--agent NAME] [--json]",
		Short: "Play one game and print its pieces and lines",
		Long: `Play one game of classic survival Tetris: pieces from tetr-ai's
pcg32_k2_fast stream for --seed, hard drop only, no preview, top-out checked
before clears. With --agent tetr-ai the game is the one tetr-ai's binary plays.`,
		Example: `  hatelab classic play --rows 10 --seed 6 --json
  hatelab classic play --rows 8 --seed 8000 --agent bcts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("rows") || !cmd.Flags().Changed("seed") {
				return fmt.Errorf("classic play needs --rows and --seed")
			}
			r, err := classic.NewRules(rows, cols)
			if err != nil {
				return err
			}
			a, err := classic.NewAgent(agent)
			if err != nil {
				return err
			}
			res := classic.Play(r, a, seed, maxPieces)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), classicPlayJSON{res.Pieces, res.Lines})
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "pieces=%d lines=%d\n", res.Pieces, res.Lines)
			return failure(err)
		},
	}
	cmd.Flags().IntVar(&rows, "rows", 20, "board height (4..31)")
	cmd.Flags().IntVar(&cols, "cols", 10, "board width (4..14)")
	cmd.Flags().Int64Var(&seed, "seed", 0, "tetr-ai seed (truncated to 32 bits)")
	cmd.Flags().StringVar(&agent, "agent", "tetr-ai", "agent: "+strings.Join(classic.AgentNames, ", "))
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"pieces":P,"lines":L}`)
	cmd.Flags().Int64Var(&maxPieces, "max-pieces", 0, "stop after this many pieces (0: play to the end)")
	return cmd
}

// parseRange reads "5-12", "7" or "5,7,9".
func parseRange(s string) ([]int, error) {
	var out []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("bad rows %q", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a {
				return nil, fmt.Errorf("bad rows %q", s)
			}
		}
		for r := a; r <= b; r++ {
			if r < classic.MinRows || r > classic.MaxRows {
				return nil, fmt.Errorf("rows %d out of range %d..%d", r, classic.MinRows, classic.MaxRows)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func newClassicSweepCmd() *cobra.Command {
	var (
		rowsSpec string
		cols     int
		seeds    int
		agent    string
		out      string
		workers  int
		quiet    bool
	)
	cmd := &cobra.Command{
		Use:   "sweep --rows 5-12 --seeds N --agent NAME --out FILE.csv",
		Short: "Play seeds R*1000.. R*1000+N-1 at each height across all cores, streaming CSV",
		Long: `Play N games per height (tetr-ai's seeds R*1000 .. R*1000+N-1) on all
cores and append one CSV line per finished game (` + classic.CSVHeader + `).
The sweep is resumable: rerun the same command after a kill and the games
already in FILE are skipped (a partial last line is dropped). Lines come in
completion order; 'hatelab classic stats FILE' summarises them.`,
		Example: `  hatelab classic sweep --rows 5-12 --seeds 1000 --agent tetr-ai --out tetr-ai.csv`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := parseRange(rowsSpec)
			if err != nil {
				return err
			}
			if seeds < 1 {
				return fmt.Errorf("--seeds must be at least 1")
			}
			if out == "" {
				return fmt.Errorf("classic sweep needs --out FILE.csv")
			}
			if _, err := classic.NewRules(rows[0], cols); err != nil {
				return err
			}
			a, err := classic.NewAgent(agent)
			if err != nil {
				return err
			}
			w, err := classic.OpenCSV(out)
			if err != nil {
				return failure(err)
			}
			jobs := classic.Remaining(classic.Jobs(rows, cols, seeds), a.Name(), w.Done)
			// The first interrupt stops handing out games and lets the
			// running ones finish (their records are kept); a second one
			// kills the process.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			go func() { <-ctx.Done(); stop() }()
			rep := progressview.Auto("classic sweep " + a.Name())
			if quiet {
				rep = nil
			}
			err = classic.Sweep(ctx, jobs, func() classic.Agent {
				a, _ := classic.NewAgent(agent)
				return a
			}, workers, w.Write, rep)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d games played, %d already in %s\n",
				len(jobs), len(w.Done), out)
			return failure(err)
		},
	}
	cmd.Flags().StringVar(&rowsSpec, "rows", "5-12", "heights: 5-12, 7 or 5,7,9")
	cmd.Flags().IntVar(&cols, "cols", 10, "board width (4..14)")
	cmd.Flags().IntVar(&seeds, "seeds", 1000, "games per height")
	cmd.Flags().StringVar(&agent, "agent", "tetr-ai", "agent: "+strings.Join(classic.AgentNames, ", "))
	cmd.Flags().StringVar(&out, "out", "", "CSV file to append to (resumed if it exists)")
	cmd.Flags().IntVar(&workers, "workers", 0, "parallel games (0: all cores)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no progress on standard error")
	return cmd
}

func newClassicStatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats FILE.csv",
		Short: "Per-agent, per-height statistics of a sweep CSV",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			recs, err := classic.ReadCSV(f)
			if err != nil {
				return err
			}
			st := classic.Summarize(recs)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), classic.FormatStats(st))
			return failure(err)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
