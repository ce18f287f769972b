package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/agreement"
	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/internal/clip"
	"github.com/hatelab/hatelab/internal/flags"
)

// newNNUEAgreeCmd measures how often evaluations keep the children a
// reference evaluation's beam keeps.
func newNNUEAgreeCmd() *cobra.Command {
	var (
		reference, suite  string
		beamWidth, pieces int
		quiescence        bool
	)
	cmd := &cobra.Command{
		Use:   "agree --reference EVAL --suite SUITE --beam-width W --pieces P EVAL...",
		Short: "How often evaluations keep the children a reference evaluation's beam keeps",
		Long: `Run the reference evaluation's beam (width W, P pieces) from each start of the
suite and, at every level, rank the children of the kept wells (the wells the
beam ranks next: each placement of the piece HATETRIS sends, by its mild
choice, without the loop rule) by the reference and by each evaluation (a
spec, as 'hatelab beam --eval' and the arena's arms read it), each by its
value of the child and its score, without quiescence. Print, over all the
levels: "kept", the mean share of the reference's top W children that the
evaluation's top W holds too (1: the same beam); "best", the share of levels
where the evaluation's best child is in the reference's top W; "far", the
mean share of the evaluation's top W that the reference ranks below its top
2W (wells its beam would not keep at twice the width); and the mean Spearman
correlation of its values of the children with the reference's.

A network trained on the wells a beam kept has seen few of the wells it must
rank below them; this asks whether it keeps what its teacher keeps. It is a
diagnostic, not a comparison: which evaluation plays better is decided by an
arena match. Only levels with more than 2W children are measured (on fewer,
any evaluation keeps most of the reference's beam); equal values are ordered
by the higher score, then the smaller well, never by the reference. Suites of
tie-seed variants (empty:N) are refused: they would repeat one start.

` + evalspec.Help,
		Example: `  hatelab nnue agree --reference nnue:datasets/weights/teacher/gen-02.hlnn+h:0.00176563:tuned \
      --suite games:30:17:20 --beam-width 1000 --pieces 10 tuned nnue:datasets/weights/distill-static/gen-02.hlnn`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if reference == "" {
				return fmt.Errorf("--reference EVAL is required")
			}
			if suite == "" {
				return fmt.Errorf("--suite SUITE is required")
			}
			if len(args) > agreement.MaxEvals {
				return fmt.Errorf("%d evaluations: at most %d at once", len(args), agreement.MaxEvals)
			}
			for _, f := range []string{"beam-width", "pieces"} {
				if !cmd.Flags().Changed(f) {
					return fmt.Errorf("--%s is required", f)
				}
			}
			if beamWidth < 1 || beamWidth > agreement.MaxBeamWidth {
				return fmt.Errorf("--beam-width %d: want 1 to %d", beamWidth, agreement.MaxBeamWidth)
			}
			if pieces < 1 || pieces > agreement.MaxPieces {
				return fmt.Errorf("--pieces %d: want 1 to %d", pieces, agreement.MaxPieces)
			}
			stopSetup := exitOnInterrupt()
			r := hatetris.Standard()
			ref, err := evalspec.Parse(reference, "", nil)
			if err != nil {
				return fmt.Errorf("--reference %s: %v", clip.Quote(reference), err)
			}
			evals := make([]eval.Evaluator, len(args))
			for i, a := range args {
				if evals[i], err = evalspec.Parse(a, "", nil); err != nil {
					return fmt.Errorf("evaluation %s: %v", clip.Quote(a), err)
				}
			}
			s, err := arena.ParseSuite(suite, r)
			if err != nil {
				return fmt.Errorf("--suite: %v", err)
			}
			stopSetup()
			c := agreement.Config{Rules: r, Reference: ref, Evals: evals, BeamWidth: beamWidth, Pieces: pieces, Quiescence: quiescence}
			if err := c.Check(); err != nil {
				return err
			}
			ctx, stop, interrupted := interruptible()
			defer stop()
			res, err := agreement.Measure(ctx, c, s.Starts)
			if err != nil {
				if ierr := interrupted(err); ierr != err {
					return ierr
				}
				var in *agreement.InputError
				if errors.As(err, &in) {
					return err
				}
				return failure(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "reference %s, suite %s (%s, %s), beam width %d, %s%s\n", shownSpec(reference), s.Spec, s.ID(),
				count(len(s.Starts), "start"), beamWidth, count(pieces, "piece"), map[bool]string{true: ", quiescence", false: ""}[quiescence])
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "evaluation\tlevels\tchildren\tkept\tbest\tfar\tSpearman")
			for i, x := range res {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%s\n", shownSpec(args[i]), x.Levels, x.Children, x.Kept, x.Best, x.Far, rankcorr.Format(x.Spearman))
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&reference, "reference", "", "the evaluation whose beam runs and whose ranking the others are compared with")
	f.StringVar(&suite, "suite", "", "the starts (an arena suite: openings:N:P:S, records:N:S, games:N:S:MIN, ...)")
	flags.DecimalVar(f, &beamWidth, "beam-width", 0, "the reference beam's width, and the number of top children compared")
	flags.DecimalVar(f, &pieces, "pieces", 0, "the levels of each start's beam")
	f.BoolVar(&quiescence, "quiescence", false, "the reference beam's lookahead (the children are ranked without it)")
	return cmd
}

// shownSpec is a spec as a table shows it: trimmed, and quoted where it
// holds a character that is not printable.
func shownSpec(s string) string {
	t := strings.TrimSpace(s)
	if strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsPrint(r) }) || len(t) > 200 {
		return clip.Quote(t)
	}
	return t
}

// count is n and a noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
