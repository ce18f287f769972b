package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/nnue"
)

// newNNUESoupCmd writes one network whose parameters are the mean of
// several networks' parameters.
func newNNUESoupCmd() *cobra.Command {
	var (
		out, name   string
		weights     []float64
		scoreWeight float64
	)
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
activation and output; the weights must be 0 or more and sum to 1. Where the
int16 error bound would pass the engine's, the whole output (weights, bias,
score weight) is scaled down, which ranks every well as before (the
provenance records the factor). Whether a soup plays better is for the arena
to say.`,
		Example: `  hatelab nnue soup --out soup.hlnn datasets/weights/teacher/gen-04.hlnn datasets/weights/teacher-big/gen-01.hlnn datasets/weights/teacher-512/gen-01.hlnn`,
		Args:    cobra.RangeArgs(1, maxMergeInputs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out FILE is required")
			}
			if len(weights) == 0 {
				for range args {
					weights = append(weights, 1/float64(len(args)))
				}
			}
			if len(weights) != len(args) {
				return fmt.Errorf("--weights: %d weights for %d networks", len(weights), len(args))
			}
			if math.IsNaN(scoreWeight) || math.IsInf(scoreWeight, 0) || math.Abs(scoreWeight) > 1e6 {
				return fmt.Errorf("--score-weight %g: want a finite number within ±1e6", scoreWeight)
			}
			sum := 0.0
			for i, w := range weights {
				if err := nnue.CheckMergeWeight(w); err != nil {
					return fmt.Errorf("--weights: weight %d %v", i+1, err)
				}
				if w < 0 {
					return fmt.Errorf("--weights: weight %d is %g (a soup is a mean: want weights of 0 or more)", i+1, w)
				}
				sum += w
			}
			if math.Abs(sum-1) > 1e-9 {
				return fmt.Errorf("--weights: the weights sum to %g (a soup is a mean: want weights summing to 1)", sum)
			}
			if err := checkCombinedOut(out, args, "souped"); err != nil {
				return err
			}
			nets, parts, err := loadSoupInputs(args, weights)
			if err != nil {
				return err
			}
			s, err := nnue.Soup(nets, weights)
			if err != nil {
				return err
			}
			s, parts, err = finishCombined(s, parts, cmd.Flags().Changed("score-weight"), scoreWeight)
			if err != nil {
				return err
			}
			s.Header.Name = name
			s.Header.Provenance = "hatelab nnue soup: " + strings.Join(parts, " + ")
			q, err := nnue.Quantize(s, 0, 0)
			if err != nil {
				return err
			}
			if err := nnue.Save(out, s); err != nil {
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s\n", out, q)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "weights file to write (.hlnn)")
	f.StringVar(&name, "name", "soup", "network name recorded in the file")
	f.Float64SliceVar(&weights, "weights", nil, "each network's weight, comma-separated, 0 or more, summing to 1 (default: 1/n each, the mean)")
	f.Float64Var(&scoreWeight, "score-weight", 0, "the soup's score weight, the value of a line scored in its output's units (default: the weighted mean of the networks'), set before any rescale for the int16 bound")
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
			if _, err := nnue.Soup([]*nnue.Network{nets[0], n}, []float64{0.5, 0.5}); err != nil {
				return nil, nil, fmt.Errorf("%s and %s: %w", args[0], a, err)
			}
		}
		nets[i] = n
		parts = append(parts, fmt.Sprintf("%g x %s (crc %08x)", weights[i], a, n.Header.CRC32))
	}
	return nets, parts, nil
}
