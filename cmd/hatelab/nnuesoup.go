package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/nnue"
)

// newNNUESoupCmd writes one network whose parameters are the mean of
// several networks' parameters.
func newNNUESoupCmd() *cobra.Command {
	var o combineOpts
	cmd := &cobra.Command{
		Use:   "soup --out FILE [--weights W1,W2,...] A.hlnn B.hlnn ...",
		Short: "Write one network whose parameters are the mean (or a weighted mean) of several networks' parameters: a model soup, at one network's cost",
		Long: `Write one network whose every parameter (first-layer weights and biases,
output weights and bias, score weight) is the weighted mean of the given
networks' (default: every weight 1/n), engine/nnue.Soup: a "model soup"
(Wortsman et al. 2022, https://arxiv.org/abs/2203.05482). Unlike 'hatelab nnue
merge', which adds the networks' values and runs them side by side at the sum
of their costs, a soup is one network of their hidden size and runs at one
network's cost. It is meaningful only where the networks' hidden units
correspond: several fine-tunes of one start (the cycle's --start), as in
datasets/weights/soup/. The networks must have the same features, hidden size,
activation and output; the weights must be 0 or more and sum to 1 (within
1e-9). Where the
int16 error bound would pass the engine's, the whole output (weights, bias,
score weight) is scaled down, which ranks every well as before (the
provenance records the factor). Whether a soup plays better is for the arena
to say.`,
		Example: `  hatelab nnue soup --out soup.hlnn datasets/weights/teacher/gen-04.hlnn datasets/weights/teacher-big/gen-01.hlnn datasets/weights/teacher-512/gen-01.hlnn`,
		Args:    cobra.RangeArgs(1, maxMergeInputs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.prepare(args); err != nil {
				return err
			}
			if err := nnue.CheckSoupWeights(o.weights); err != nil {
				return fmt.Errorf("--weights: %w", err)
			}
			if err := checkCombinedOut(o.out, args, "souped"); err != nil {
				return err
			}
			nets, parts, err := loadSoupInputs(args, o.weights)
			if err != nil {
				return err
			}
			s, err := nnue.Soup(nets, o.weights)
			if err != nil {
				return err
			}
			if s, parts, err = finishCombined(s, parts, cmd.Flags().Changed("score-weight"), o.scoreWeight); err != nil {
				return err
			}
			return o.write(cmd, s, "soup", parts)
		},
	}
	o.addFlags(cmd, "soup", "each network's weight, comma-separated, 0 or more, summing to 1 within 1e-9 (default: 1/n each, the mean)",
		"the soup's score weight, the value of a line scored in its output's units (default: the weighted mean of the networks'), set before any rescale for the int16 bound")
	return cmd
}

// loadSoupInputs reads the networks of a soup, refusing as soon as one
// cannot join the first (other features, hidden size, activation or
// output), so that at most one network that does not fit is held; parts
// name each input with its weight for the provenance.
func loadSoupInputs(args []string, weights []float64) (nets []*nnue.Network, parts []string, err error) {
	nets = make([]*nnue.Network, len(args))
	for i, a := range args {
		n, err := nnue.Load(a)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 {
			if err := nnue.CheckSoupable(nets[0], n); err != nil {
				return nil, nil, fmt.Errorf("soup: %s %w (%s)", a, err, args[0])
			}
		}
		nets[i] = n
		parts = append(parts, fmt.Sprintf("%g x %s (crc %08x)", weights[i], a, n.Header.CRC32))
	}
	return nets, parts, nil
}
