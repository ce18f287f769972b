package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/internal/flags"
)

// newNNUERanksCmd ranks a cycle generation's held-out targets by
// evaluations' values of the wells.
func newNNUERanksCmd() *cobra.Command {
	var (
		dir string
		gen int
	)
	cmd := &cobra.Command{
		Use:   "ranks --dir DIR --generation N EVAL...",
		Short: "How well evaluations' values of a cycle generation's held-out wells order their targets (Spearman)",
		Long: `Read generation N of a cycle folder (gen-NN/samples.bin, gen-NN/targets.json
and gen-NN.hlnn, whose features decide which wells training held out) and,
for each evaluation (a spec, as 'hatelab beam --eval' and the arena's arms
read it), print Spearman's rank correlation of its values of the held-out
wells (score 0, no quiescence) with their targets: over all of them, over
those whose target beam lived to its last piece (a target above -1), and over
the live ones within groups of equal filled cells (wells of one level and
score have the same; groups of 10 wells or more, the mean weighted by their
sizes): how well it orders wells that differ in shape alone.

It asks whether an evaluation predicts what the target beams found: the
generation's own network (nnue:DIR/gen-NN.hlnn, run as its int16 network; the
report's valid Spearman is the float network's), its start, a teacher or a
hand-made evaluation, on the same wells. Predicting the targets is not playing
well: which evaluation plays better is decided by an arena match.`,
		Example: `  hatelab nnue ranks --dir datasets/weights/distill --generation 2 tuned nnue:datasets/weights/distill/gen-02.hlnn`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return fmt.Errorf("--dir DIR is required")
			}
			if gen < 1 || gen > cycle.MaxGenerations {
				return fmt.Errorf("--generation %d: want 1 to %d", gen, cycle.MaxGenerations)
			}
			rs, err := cycle.SpecRanks(dir, gen, "", args)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "evaluation\theld-out wells\tSpearman\tlive wells\tSpearman (live)\tlive, within equal cells (wells)")
			for i, r := range rs {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s (%d)\n", args[i], r.Wells, rankcorr.Format(r.Spearman), r.Live, rankcorr.Format(r.LiveSpearman),
					rankcorr.Format(r.CellSpearman), r.CellWells)
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "the cycle folder")
	flags.DecimalVar(f, &gen, "generation", 0, "the generation (1 to the folder's last)")
	return cmd
}
