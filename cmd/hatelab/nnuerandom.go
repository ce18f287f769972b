package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/internal/flags"
)

// newNNUERandomCmd writes a seeded random network: D&F's generation 0.
func newNNUERandomCmd() *cobra.Command {
	var (
		out, variant, name string
		hidden             int
		seed               uint64
	)
	cmd := &cobra.Command{
		Use:   "random --out FILE [--seed 1] [--hidden 32] [--variant shared]",
		Short: "Write a seeded random NNUE network (D&F's generation 0), the start a cycle can take instead of fit0's",
		Long: `Write the network that training starts from when it has no start network:
seeded random weights (W1 uniform with standard deviation 1/sqrt(F), W2 uniform
in +-1/sqrt(H), biases 0), as D&F's cycle starts (generation 0 with random
weights). 'hatelab nnue cycle --start FILE' takes it instead of fit0's
bootstrap from the hand-made evaluation, so the two starts can be compared in
the arena. Same seed, same bytes.`,
		Example: `  hatelab nnue random --out random-00.hlnn --seed 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := nnue.ParseVariant(variant)
			if err != nil {
				return fmt.Errorf("--variant: %v", err)
			}
			if hidden < 1 || hidden > nnue.MaxHidden {
				return fmt.Errorf("--hidden %d: want 1 to %d", hidden, nnue.MaxHidden)
			}
			if out == "" {
				return fmt.Errorf("--out FILE is required")
			}
			if err := checkWeightsOut("--out", out); err != nil {
				return err
			}
			r := hatetris.Standard()
			fs, err := nnue.NewFeatureSet(v, r.Width, r.Depth-r.Bar)
			if err != nil {
				return err
			}
			n, err := train.Random(fs, hidden, nnue.HardTanh, seed)
			if err != nil {
				return err
			}
			n.Header.Name = name
			n.Header.Provenance = fmt.Sprintf("hatelab nnue random --variant %s --hidden %d --seed %d (seeded random weights, engine/nnue/train.Random)", v, hidden, seed)
			q, err := nnue.Quantize(n, 0, 0)
			if err != nil {
				return err
			}
			if err := nnue.Save(out, n); err != nil {
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s\n", out, q)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "weights file to write (.hlnn)")
	f.StringVar(&name, "name", "random-00", "network name recorded in the file")
	f.StringVar(&variant, "variant", "shared", "features: shared (knewjade) or positional (D&F)")
	flags.DecimalVar(f, &hidden, "hidden", train.DefaultHidden, "hidden units")
	flags.DecimalVar(f, &seed, "seed", 1, "seed of the weights")
	return cmd
}
