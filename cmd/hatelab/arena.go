package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/internal/arenareport"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func init() {
	rootCmd.AddCommand(newArenaCmd())
}

func newArenaCmd() *cobra.Command {
	var (
		arms, suite, out               string
		beamWidth, maxPieces, parallel int
		workers                        int
		well                           flags.Well
		quiescence, js, quiet          bool
		seq                            sprtFlags
	)
	cmd := &cobra.Command{
		Use:   "arena --arms A,B[,C...] --suite SPEC --beam-width N [--quiescence] [--out FILE] [--sprt] [--json]",
		Short: "Play a paired match of evaluations over a suite of start wells",
		Long: `Play a paired match: every arm (an evaluation) beam-searches every start of a
suite with the same beam width, quiescence and piece limit, and the scores are
compared start by start with the first arm, the baseline: the mean difference with
a bootstrap interval, wins, losses and ties, and the exact Wilcoxon signed-rank p
(with more than two arms, Holm-adjusted and the intervals widened to the same
family-wise level). With --sprt a sequential test stops the match as soon as it
has decided every arm: on the win rate among non-tied pairs (--sprt-test sign,
H0 0.5 against H1 0.5 + --sprt-delta), or on the mean difference in lines
(--sprt-test mean, fishtest's GSPRT: H0 0 against H1 --sprt-lines). After such
a stop the verdict is the sequential test's: the fixed-sample p and interval
assume a number of games fixed in advance and are not printed.
hatelab arena show FILE prints a match file's table and verdicts without
playing.

Arms (evaluation specs, as hatelab beam --eval takes them, and an arm's own
search settings):
` + arena.ArmHelp + `

Suites: openings:N:PIECES:SEED (seeded random openings), empty:N (the empty well
under N tie-break seeds), records:N:SEED (mid-game wells of the world records, with
the AI's memory: the deep test set), games:N:SEED:MINSCORE[:FILE] (mid-game wells at
MINSCORE lines or more of the lab's own long games, the first 9 of
datasets/beams/games.jsonl (games added later change no suite) or FILE, never a
world record's). records: and games: draw with replacement and can repeat a
start; distinct:SUITE (e.g. distinct:records:600:4630) is the first N distinct
starts of SUITE's draws, each once (not of empty:). The suite's ID, a hash of
its wells, is printed with the result.

With --out FILE every finished game is appended to FILE (JSONL: a header line,
then one line per game); rerun the same command after a kill and the finished
games are skipped. A FILE made with other settings is refused.`,
		Example: `  hatelab arena --arms hand,score --suite openings:20:8:1 --beam-width 1000 --quiescence --out match.jsonl
  hatelab arena --arms hand,nnue:datasets/weights/gen-02-small.hlnn --suite openings:20:8:1 --beam-width 1000 --quiescence --sprt
  hatelab arena --arms hand,hand-holes,hand-erasability --suite empty:5 --beam-width 300 --quiescence --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := hatetris.NewRules(well.Width, well.Depth, well.Bar)
			if err != nil {
				return err
			}
			if err := flags.CheckBeamWidth(flags.BeamWidthFlag, beamWidth); err != nil {
				return err
			}
			if maxPieces < 0 {
				return fmt.Errorf("--max-pieces %d: want 0 (no limit) or more", maxPieces)
			}
			test, err := seq.test()
			if err != nil {
				return err
			}
			if out != "" {
				if err := checkOutput("--out", out, arena.Format, false); err != nil {
					// A match file is resumed, never replaced: no --force.
					return errors.New(strings.Replace(err.Error(), " (name a new file, or add --force)", " (name a new file)", 1))
				}
			}
			s, err := arena.ParseSuite(suite, r)
			if err != nil {
				return fmt.Errorf("--suite: %v", err)
			}
			as, err := arena.ParseArms(arms, r)
			if err != nil {
				return fmt.Errorf("--arms: %v", err)
			}
			m := &arena.Match{Suite: s, Arms: as, BeamWidth: beamWidth, Quiescence: quiescence, MaxPieces: maxPieces,
				Parallel: parallel, BeamWorkers: workers, SPRT: test, Out: out}
			if err := m.Check(); err != nil {
				return err
			}
			errw := cmd.ErrOrStderr()
			fmt.Fprintf(errw, "suite %s (%s, %d starts), %d arms, beam width %d%s\n", s.Spec, s.ID(), len(s.Starts), len(as),
				beamWidth, map[bool]string{true: ", quiescence", false: ""}[quiescence])
			if n := arena.CountDuplicates(s); n > 0 {
				fmt.Fprintf(errw, "note: %d of the suite's %d starts repeat an earlier start (the same well, score and memory; drawn with replacement): every arm plays each as it played the first, and the statistics count every draw (datasets/arena/README.md, Repeated starts)\n", n, len(s.Starts))
			}
			rep := progress.Discard
			if !quiet {
				rep = progressview.Auto("arena")
			}
			total := int64(len(s.Starts) * len(as))
			m.OnGame = func(g arena.Game, st *arena.Standings) {
				info := ""
				if d, n := st.Running(1); n > 0 {
					info = fmt.Sprintf("%s − %s: %+.2f over %d pairs", st.Arms[1], st.Arms[0], d, n)
				}
				rep.Report(progress.Event{Job: "arena", Stage: "games", Done: int64(st.Played()), Total: total, Unit: "games", Info: info})
			}
			ctx, stop, interrupted := interruptible()
			defer stop()
			res, err := m.Run(ctx)
			if err != nil {
				if ierr := interrupted(err); ierr != err {
					return ierr
				}
				var ie *arena.InputError
				if errors.As(err, &ie) {
					return err
				}
				return failure(err)
			}
			rep.Report(progress.Event{Job: "arena", Stage: "games", Done: int64(res.Standings.Played()), Total: total, Unit: "games", Finished: true})
			if js {
				return writeJSON(cmd.OutOrStdout(), arenareport.Summary(m, res))
			}
			if err := arenareport.Table(cmd.OutOrStdout(), m, res); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&arms, "arms", "", "comma-separated arms, the first the baseline (Arms above)")
	f.StringVar(&suite, "suite", "openings:20:8:1", "start wells: openings:N:PIECES:SEED, empty:N, records:N:SEED, games:N:SEED:MINSCORE[:FILE], or distinct:SUITE (SUITE's first N distinct starts)")
	flags.BeamWidth(f, &beamWidth, 1000, "wells kept at each level, for every arm")
	f.BoolVar(&quiescence, "quiescence", false, "bird-in-hand lookahead for every arm")
	flags.DecimalVar(cmd.Flags(), &maxPieces, "max-pieces", 0, "stop each game after this many pieces (0: until the beam dies)")
	flags.DecimalVar(cmd.Flags(), &parallel, "parallel", 0, "games played at once (0: all cores); no game depends on it")
	flags.Workers(f, &workers, 1, "goroutines of each game's beam search (0: 1); no game depends on it")
	flags.Alias(f, &workers, "beam-workers", flags.WorkersFlag)
	f.StringVar(&out, "out", "", "append every finished game to this JSONL file, and resume from it")
	seq.register(f, "stop as soon as a sequential test (--sprt-test) has decided every arm")
	f.BoolVar(&js, "json", false, "print the result as one JSON object")
	f.BoolVar(&quiet, "quiet", false, "no progress bar")
	flags.WellVars(f, &well, "")
	cmd.MarkFlagRequired("arms")
	cmd.AddCommand(newArenaShowCmd())
	return cmd
}

// sprtFlags are the sequential test's flags, the same for a match
// (hatelab arena) and for reading one back (hatelab arena show).
type sprtFlags struct {
	on                        bool
	kind                      string
	delta, lines, alpha, beta float64
}

// register adds the flags to f; on says what --sprt does there.
func (q *sprtFlags) register(f *pflag.FlagSet, on string) {
	f.BoolVar(&q.on, "sprt", false, on)
	f.StringVar(&q.kind, "sprt-test", "sign", "the sequential test: sign (the win rate among non-tied pairs) or mean (the mean difference in lines, fishtest's GSPRT)")
	f.Float64Var(&q.delta, "sprt-delta", 0.2, "--sprt-test sign: H1's win rate is 0.5 + delta (delta above 0)")
	f.Float64Var(&q.lines, "sprt-lines", 1, "--sprt-test mean: H1's mean difference in lines, above 0 (H0: 0)")
	f.Float64Var(&q.alpha, "sprt-alpha", 0.05, "the SPRT's false-positive rate")
	f.Float64Var(&q.beta, "sprt-beta", 0.05, "the SPRT's false-negative rate")
}

// test builds the test --sprt asks for (nil without --sprt).
func (q *sprtFlags) test() (stats.Sequential, error) {
	if !q.on {
		return nil, nil
	}
	var t stats.Sequential
	var named string
	switch q.kind {
	case "sign":
		t, named = stats.SPRT{P0: 0.5, P1: 0.5 + q.delta, Alpha: q.alpha, Beta: q.beta}, "--sprt-delta"
	case "mean":
		t, named = stats.MeanSPRT{D0: 0, D1: q.lines, Alpha: q.alpha, Beta: q.beta}, "--sprt-lines"
	default:
		return nil, fmt.Errorf("--sprt-test %q: want sign or mean", q.kind)
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%s/--sprt-alpha/--sprt-beta: %v", named, err)
	}
	return t, nil
}
