package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
)

func init() { rootCmd.AddCommand(classicCmd()) }

// Caps of `hatelab classic sweep`, named in its flags' help.
const (
	// maxSweepSeeds caps --seeds (games per height): 28 heights of it make
	// 2.8 million games, a CSV of about 110 MB, under classic.MaxCSVBytes.
	maxSweepSeeds = 100_000
	// maxSweepParallel caps --parallel: games are CPU-bound, so more
	// games at once than cores only cost memory.
	maxSweepParallel = 256
)

// classicCmd returns a fresh `hatelab classic` command tree. Without a
// subcommand it prints its help; an unknown subcommand is an error (a
// command with subcommands and no Run of its own would print its help and
// exit 0).
func classicCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "classic",
		Short: "Classic survival Tetris under tetr-ai's rules (seed-exact)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
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
			if maxPieces < 0 {
				return fmt.Errorf("--max-pieces %d is negative (0 plays to the end)", maxPieces)
			}
			r, err := classic.NewRules(rows, cols)
			if err != nil {
				return nameFlag(err, map[string]string{"rows": "--rows", "cols": "--cols"})
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
	flags.DecimalVar(cmd.Flags(), &rows, "rows", 20, "board height (4..31)")
	flags.DecimalVar(cmd.Flags(), &cols, "cols", 10, "board width (4..14)")
	flags.DecimalVar(cmd.Flags(), &seed, "seed", 0, "tetr-ai seed (truncated to 32 bits)")
	cmd.Flags().StringVar(&agent, "agent", "tetr-ai", "agent: "+strings.Join(classic.AgentNames, ", "))
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"pieces":P,"lines":L}`)
	flags.DecimalVar(cmd.Flags(), &maxPieces, "max-pieces", 0, "stop after this many pieces (0: play to the end; not negative)")
	return cmd
}

// parseRange reads the heights of --rows: "5-12", "7" or "5,7,9" (or a
// mix, "5-6,20"), in plain decimal (no sign, no leading zero: "010" is
// refused, not read as octal 8 or as 10). A height listed twice ("5,5",
// "5-6,6") is an error, so that no game is played and written twice.
func parseRange(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	num := func(t string) (int, error) {
		t = strings.TrimSpace(t)
		if t == "" || strings.HasPrefix(t, "-") {
			return 0, fmt.Errorf("bad rows %s (want 5-12, 7 or 5,7,9)", clip.Quote(s))
		}
		v, err := flags.ParseDecimal(t)
		if err != nil {
			if t != strings.TrimSpace(s) {
				return 0, fmt.Errorf("bad rows %s: %s: %v", clip.Quote(s), clip.Quote(t), err)
			}
			return 0, fmt.Errorf("bad rows %s: %v", clip.Quote(s), err)
		}
		if v < classic.MinRows || v > classic.MaxRows {
			return 0, fmt.Errorf("rows %d out of range %d..%d", v, classic.MinRows, classic.MaxRows)
		}
		return int(v), nil
	}
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := num(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = num(hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("bad rows %s: %d-%d is empty", clip.Quote(s), a, b)
			}
		}
		for r := a; r <= b; r++ {
			if seen[r] {
				return nil, fmt.Errorf("rows %d listed twice in %s", r, clip.Quote(s))
			}
			seen[r] = true
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
		parallel int
		quiet    bool
	)
	cmd := &cobra.Command{
		Use:   "sweep --rows 5-12 --seeds N --agent NAME --out FILE.csv",
		Short: "Play seeds R*1000.. R*1000+N-1 at each height across all cores, streaming CSV",
		Long: `Play N games per height (tetr-ai's seeds R*1000 .. R*1000+N-1) on all
cores and append one CSV line per finished game (` + classic.CSVHeader + `).
The sweep is resumable: rerun the same command after a kill and the games
already in FILE are skipped (a partial last line is dropped). Lines come in
completion order; 'hatelab classic stats FILE' summarises them.

An existing FILE must be a sweep CSV (our header, well-formed records, no
game twice): anything else is refused and left as it is. A height listed
twice in --rows is an error. Caps: --seeds ` + strconv.Itoa(maxSweepSeeds) + ` per height, --parallel ` + strconv.Itoa(maxSweepParallel) + `.
Numbers are plain decimal: 010 is refused, not read as octal.`,
		Example: `  hatelab classic sweep --rows 5-12 --seeds 1000 --agent tetr-ai --out tetr-ai.csv`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := parseRange(rowsSpec)
			if err != nil {
				return err
			}
			if parallel < 0 || parallel > maxSweepParallel {
				return fmt.Errorf("--parallel %d out of range 0..%d (0: all cores)", parallel, maxSweepParallel)
			}
			a, err := classic.CheckSweep(rows, cols, seeds, maxSweepSeeds, agent, out)
			if err != nil {
				return err
			}
			w, err := classic.OpenCSV(out)
			if err != nil {
				return csvOpenError(err)
			}
			jobs := classic.Remaining(classic.Jobs(rows, cols, seeds), a.Name(), w.Done)
			// The first interrupt stops handing out games and lets the
			// running ones finish (their records are kept); a second one
			// kills the process.
			ctx, stop, interrupted := interruptible()
			defer stop()
			rep := progressview.Auto("classic sweep " + a.Name())
			if quiet {
				rep = nil
			}
			err = classic.Sweep(ctx, jobs, func() classic.Agent {
				a, _ := classic.NewAgent(agent)
				return a
			}, parallel, w.Write, rep)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err := interrupted(err); err != nil {
				if errors.Is(err, errInterrupted) {
					return err // the games finished are in the file
				}
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d games played, %d already in %s\n",
				len(jobs), len(w.Done), out)
			return failure(err)
		},
	}
	cmd.Flags().StringVar(&rowsSpec, "rows", "5-12", "heights: 5-12, 7 or 5,7,9 (each at most once)")
	flags.DecimalVar(cmd.Flags(), &cols, "cols", 10, "board width (4..14)")
	flags.DecimalVar(cmd.Flags(), &seeds, "seeds", 1000, "games per height (1.."+strconv.Itoa(maxSweepSeeds)+")")
	cmd.Flags().StringVar(&agent, "agent", "tetr-ai", "agent: "+strings.Join(classic.AgentNames, ", "))
	cmd.Flags().StringVar(&out, "out", "", "sweep CSV to append to (resumed if it exists; any other file is refused)")
	flags.DecimalVar(cmd.Flags(), &parallel, "parallel", 0, "games played at once (0: all cores; at most "+strconv.Itoa(maxSweepParallel)+"); no game depends on it")
	flags.Alias(cmd.Flags(), &parallel, flags.WorkersFlag, "parallel")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no progress on standard error")
	return cmd
}

// csvOpenError classes an error of classic.OpenCSV: a file that is not a
// sweep CSV, or a path that cannot be opened (missing folder, no
// permission, a folder), is bad input (exit 2); any other I/O error is a
// failure (exit 1).
func csvOpenError(err error) error {
	var ce *classic.CSVError
	if errors.As(err, &ce) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) ||
		errors.Is(err, syscall.EISDIR) {
		return err
	}
	return failure(err)
}

func newClassicStatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats FILE.csv",
		Short: "Per-agent, per-height statistics of a sweep CSV",
		Long: `Per-agent, per-height statistics of a sweep CSV written by 'classic sweep'.
The file must start with the header ` + classic.CSVHeader + ` and hold at
least one game; a malformed line, a game (agent, rows, cols, seed) listed
twice, a line longer than ` + strconv.Itoa(classic.MaxCSVLine) + ` bytes or a file larger than ` + strconv.Itoa(classic.MaxCSVBytes>>20) + ` MiB
is an error (exit 2). A partial last line, left by a killed sweep, is ignored.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, _, err := boundedfile.Open(args[0], math.MaxInt64, "sweep CSV")
			if boundedfile.IsRefused(err) {
				return fmt.Errorf("%s %v", clip.Quote(args[0]), err)
			}
			if err != nil {
				return fmt.Errorf("cannot read %s: %v", clip.Quote(args[0]), unwrapPathError(err))
			}
			defer f.Close()
			recs, err := classic.ReadCSV(f)
			var ce *classic.CSVError
			switch {
			case errors.As(err, &ce):
				return fmt.Errorf("%s is not a sweep CSV: %v", clip.Quote(args[0]), err)
			case err != nil:
				return fmt.Errorf("cannot read %s: %v", clip.Quote(args[0]), unwrapPathError(err))
			case len(recs) == 0:
				return fmt.Errorf("%s holds no games", clip.Quote(args[0]))
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
