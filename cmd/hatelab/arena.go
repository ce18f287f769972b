package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newArenaCmd())
}

// arenaJSON is the --json output of `hatelab arena`.
type arenaJSON struct {
	Suite       string             `json:"suite"`
	SuiteSpec   string             `json:"suite_spec"`
	Starts      int                `json:"starts"`
	BeamWidth   int                `json:"beam_width"`
	Quiescence  bool               `json:"quiescence"`
	MaxPieces   int                `json:"max_pieces,omitempty"`
	Games       int                `json:"games"`
	Stopped     bool               `json:"stopped_by_sprt,omitempty"`
	Arms        []arenaArmJSON     `json:"arms"`
	Comparisons []arena.Comparison `json:"comparisons"`
}

type arenaArmJSON struct {
	Arm   string  `json:"arm"`
	Eval  string  `json:"eval"`
	Games int     `json:"games"`
	Mean  float64 `json:"mean_score"`
}

func newArenaCmd() *cobra.Command {
	var (
		arms, suite, out               string
		beamWidth, maxPieces, parallel int
		beamWorkers                    int
		well                           flags.Well
		quiescence, sprt, js, quiet    bool
		delta, alpha, beta             float64
	)
	cmd := &cobra.Command{
		Use:   "arena --arms A,B[,C...] --suite SPEC --beam-width N [--quiescence] [--out FILE] [--sprt] [--json]",
		Short: "Play a paired match of evaluations over a suite of start wells",
		Long: `Play a paired match: every arm (an evaluation) beam-searches every start of a
suite with the same beam width, quiescence and piece limit, and the scores are
compared start by start with the first arm, the baseline: the mean difference with
a bootstrap interval, wins, losses and ties, and the exact Wilcoxon signed-rank p
(Holm-adjusted over the arms when there are more than two). With --sprt a
sequential test on the win rate among non-tied pairs (H0 p = 0.5 against
H1 p = 0.5 + delta) stops the match as soon as it has decided every arm.

Arms: ` + arena.ArmSpecs + `.
Suites: openings:N:PIECES:SEED (seeded random openings), empty:N (the empty well
under N tie-break seeds), records:N:SEED (mid-game wells of the world records, with
the AI's memory). The suite's ID, a hash of its wells, is printed with the result.

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
			var test *arena.SPRT
			if sprt {
				t := arena.SPRT{P0: 0.5, P1: 0.5 + delta, Alpha: alpha, Beta: beta}
				if err := t.Check(); err != nil {
					return fmt.Errorf("--sprt-delta/--sprt-alpha/--sprt-beta: %v", err)
				}
				test = &t
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
				Parallel: parallel, BeamWorkers: beamWorkers, SPRT: test, Out: out}
			if err := m.Check(); err != nil {
				return err
			}
			errw := cmd.ErrOrStderr()
			fmt.Fprintf(errw, "suite %s (%s, %d starts), %d arms, beam width %d%s\n", s.Spec, s.ID(), len(s.Starts), len(as),
				beamWidth, map[bool]string{true: ", quiescence", false: ""}[quiescence])
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
				return writeJSON(cmd.OutOrStdout(), arenaResultJSON(m, res))
			}
			if err := printArena(cmd.OutOrStdout(), m, res); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&arms, "arms", "", "comma-separated arms, the first the baseline: "+arena.ArmSpecs)
	f.StringVar(&suite, "suite", "openings:20:8:1", "start wells: openings:N:PIECES:SEED, empty:N or records:N:SEED")
	flags.BeamWidth(f, &beamWidth, 1000, "wells kept at each level, for every arm")
	f.BoolVar(&quiescence, "quiescence", false, "bird-in-hand lookahead for every arm")
	flags.DecimalVar(cmd.Flags(), &maxPieces, "max-pieces", 0, "stop each game after this many pieces (0: until the beam dies)")
	flags.DecimalVar(cmd.Flags(), &parallel, "parallel", 0, "games played at once (0: all cores); no game depends on it")
	flags.DecimalVar(cmd.Flags(), &beamWorkers, "beam-workers", 1, "workers of each game's beam search")
	f.StringVar(&out, "out", "", "append every finished game to this JSONL file, and resume from it")
	f.BoolVar(&sprt, "sprt", false, "stop as soon as a sequential test on the win rate has decided every arm")
	f.Float64Var(&delta, "sprt-delta", 0.2, "the SPRT's H1 win rate is 0.5 + delta")
	f.Float64Var(&alpha, "sprt-alpha", 0.05, "the SPRT's false-positive rate")
	f.Float64Var(&beta, "sprt-beta", 0.05, "the SPRT's false-negative rate")
	f.BoolVar(&js, "json", false, "print the result as one JSON object")
	f.BoolVar(&quiet, "quiet", false, "no progress bar")
	flags.WellVars(f, &well, "")
	cmd.MarkFlagRequired("arms")
	return cmd
}

func arenaResultJSON(m *arena.Match, res *arena.Result) arenaJSON {
	st := res.Standings
	out := arenaJSON{Suite: res.Header.Suite, SuiteSpec: res.Header.SuiteSpec, Starts: res.Header.Starts,
		BeamWidth: m.BeamWidth, Quiescence: m.Quiescence, MaxPieces: m.MaxPieces, Games: st.Played(),
		Stopped: res.Stopped, Comparisons: st.Comparisons()}
	for i, a := range m.Arms {
		mean, n := st.Mean(i)
		out.Arms = append(out.Arms, arenaArmJSON{Arm: a.Spec, Eval: a.Eval.Name(), Games: n, Mean: mean})
	}
	for i := range out.Comparisons {
		c := &out.Comparisons[i]
		for _, v := range []*float64{&c.Diff.Lo, &c.Diff.Hi, &c.Diff.Estimate} {
			if math.IsNaN(*v) {
				*v = 0
			}
		}
	}
	return out
}

func printArena(w io.Writer, m *arena.Match, res *arena.Result) error {
	st := res.Standings
	fmt.Fprintf(w, "suite %s (ID %s, %d starts), beam width %d, quiescence %v\n", res.Header.SuiteSpec, res.Header.Suite,
		res.Header.Starts, m.BeamWidth, m.Quiescence)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "arm\tgames\tmean\tdiff\t95% interval\twins\tlosses\tties\tWilcoxon p\tHolm p\t")
	mean0, n0 := st.Mean(0)
	fmt.Fprintf(tw, "%s\t%d\t%.2f\tbaseline\t\t\t\t\t\t\t\n", m.Arms[0].Spec, n0, mean0)
	for i, c := range st.Comparisons() {
		mean, n := st.Mean(i + 1)
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%+.2f\t[%+.2f, %+.2f]\t%d\t%d\t%d\t%s\t%s\t\n", c.Arm, n, mean, c.Diff.Estimate,
			c.Diff.Lo, c.Diff.Hi, c.Wins, c.Losses, c.Ties, arena.FormatP(c.P), arena.FormatP(c.PHolm))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var lines []string
	for _, c := range st.Comparisons() {
		lines = append(lines, c.Verdict())
	}
	if res.Stopped {
		lines = append(lines, "the sequential test stopped the match before every game was played")
	}
	if len(m.Arms) > 2 {
		lines = append(lines, "p-values are Holm-adjusted over the arms' comparisons with the baseline")
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}
