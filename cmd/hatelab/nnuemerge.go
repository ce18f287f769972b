package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/internal/atomicfile"
)

// maxMergeInputs bounds the networks one merge or soup reads (each at most
// nnue's file bound; their hidden units at most nnue.MaxHidden in all).
const maxMergeInputs = 16

// newNNUEMergeCmd writes one network that is a weighted sum of several.
func newNNUEMergeCmd() *cobra.Command {
	var o combineOpts
	cmd := &cobra.Command{
		Use:   "merge --out FILE [--weights W1,W2,...] A.hlnn B.hlnn ...",
		Short: "Write one network whose value is the mean (or a weighted sum) of several networks' values: an ensemble the engine runs as one network",
		Long: `Write one network whose output is the weighted sum of the given networks'
outputs (default: their mean, every weight 1/n): their hidden layers side by
side, each output weight scaled by its network's weight, the score weights
summed the same way (engine/nnue.Merge). The networks must have the same
features and activation; their hidden units together at most 256. The
merged network is quantised with one pair of scales, so its integer values can
differ from the sum of the networks' integer values by their rounding; where
that would put its int16 error bound past the engine's, the whole output
(weights, bias, score weight) is scaled down, which ranks every well as before
(the provenance records the factor). --score-weight sets the merged network's
value of a line scored (e.g. one network given a score weight). Whether an
ensemble plays better is for the arena to say: in
datasets/weights/openings-run/README.md none did.`,
		Example: `  hatelab nnue merge --out ens.hlnn datasets/weights/scale-run/gen-04.hlnn datasets/weights/scale-run/gen-05.hlnn`,
		Args:    cobra.RangeArgs(1, maxMergeInputs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.prepare(args); err != nil {
				return err
			}
			zero := true
			for i, w := range o.weights {
				if err := nnue.CheckMergeWeight(w); err != nil {
					return fmt.Errorf("--weights: weight %d %v", i+1, err)
				}
				zero = zero && w == 0
			}
			if zero {
				return fmt.Errorf("--weights: every weight is 0 (the merged network would value every well the same)")
			}
			if err := checkCombinedOut(o.out, args, "merged"); err != nil {
				return err
			}
			nets, parts, err := loadMergeInputs(args, o.weights)
			if err != nil {
				return err
			}
			m, parts, err := mergeNetworks(nets, o.weights, parts, cmd.Flags().Changed("score-weight"), o.scoreWeight)
			if err != nil {
				return err
			}
			return o.write(cmd, m, "merge", parts)
		},
	}
	o.addFlags(cmd, "merged", "each network's weight, comma-separated (default: 1/n each, the mean)",
		"the merged network's score weight, the value of a line scored in its output's units (default: the weighted sum of the networks'), set before any rescale for the int16 bound")
	return cmd
}

// combineOpts are the settings merge and soup share: the file written,
// the name recorded, each network's weight and the score weight.
type combineOpts struct {
	out, name   string
	weights     []float64
	scoreWeight float64
}

// addFlags registers --out, --name (default name), --weights and
// --score-weight with their help texts.
func (o *combineOpts) addFlags(cmd *cobra.Command, name, weightsHelp, scoreHelp string) {
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "weights file to write (.hlnn)")
	f.StringVar(&o.name, "name", name, "network name recorded in the file")
	f.Float64SliceVar(&o.weights, "weights", nil, weightsHelp)
	f.Float64Var(&o.scoreWeight, "score-weight", 0, scoreHelp)
}

// prepare checks what needs no file: --out given, one weight for each
// network (default 1/n each), a finite --score-weight.
func (o *combineOpts) prepare(args []string) error {
	if o.out == "" {
		return fmt.Errorf("--out FILE is required")
	}
	if len(o.weights) == 0 {
		for range args {
			o.weights = append(o.weights, 1/float64(len(args)))
		}
	}
	if len(o.weights) != len(args) {
		return fmt.Errorf("--weights: %d weights for %d networks", len(o.weights), len(args))
	}
	if math.IsNaN(o.scoreWeight) || math.IsInf(o.scoreWeight, 0) || math.Abs(o.scoreWeight) > 1e6 {
		return fmt.Errorf("--score-weight %g: want a finite number within ±1e6", o.scoreWeight)
	}
	return nil
}

// write names the network, records its provenance ("hatelab nnue VERB:
// parts"), checks that the engine can quantise it, saves it to --out and
// says what it wrote.
func (o *combineOpts) write(cmd *cobra.Command, m *nnue.Network, verb string, parts []string) error {
	m.Header.Name = o.name
	m.Header.Provenance = "hatelab nnue " + verb + ": " + strings.Join(parts, " + ")
	q, err := nnue.Quantize(m, 0, 0)
	if err != nil {
		return err
	}
	if err := nnue.Save(o.out, m); err != nil {
		return failure(err)
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s\n", o.out, q)
	return err
}

// checkCombinedOut refuses an --out that is one of the networks read
// (what says which: "merged", "souped"), under any spelling (a symlink, a
// hard link, an absolute path): the inputs are read before the atomic
// write, so the result itself would be right, but the input the user
// named would be gone. It then checks --out as any weights file written.
func checkCombinedOut(out string, args []string, what string) error {
	for _, a := range args {
		if filepath.Clean(a) == filepath.Clean(out) {
			return fmt.Errorf("--out %s is one of the networks %s: choose another path", out, what)
		}
	}
	if a := atomicfile.SameFile(out, args...); a != "" {
		return fmt.Errorf("--out %s is the file of %s, one of the networks %s: choose another path", out, a, what)
	}
	return checkWeightsOut("--out", out)
}

// loadMergeInputs reads the networks of a merge, refusing as soon as the
// networks read cannot merge, so that at most one network past the limit
// is held (each file may be large: up to nnue.MaxFileBytes); parts name
// each input with its weight for the provenance.
func loadMergeInputs(args []string, weights []float64) (nets []*nnue.Network, parts []string, err error) {
	nets = make([]*nnue.Network, len(args))
	hidden := 0
	for i, a := range args {
		n, err := nnue.Load(a)
		if err != nil {
			return nil, nil, err
		}
		if hidden += n.Hidden; hidden > nnue.MaxHidden {
			return nil, nil, fmt.Errorf("merge: %d hidden units in the first %d networks, more than %d", hidden, i+1, nnue.MaxHidden)
		}
		if f, f0 := n.Features, nets[0]; i > 0 && (f.Variant() != f0.Features.Variant() || f.Width() != f0.Features.Width() || f.Height() != f0.Features.Height()) {
			return nil, nil, fmt.Errorf("merge: %s has features %s, %s %s", a, f, args[0], f0.Features)
		}
		if i > 0 && n.Activation != nets[0].Activation {
			return nil, nil, fmt.Errorf("merge: %s's activation is %s, %s's %s", a, n.Activation, args[0], nets[0].Activation)
		}
		nets[i] = n
		parts = append(parts, fmt.Sprintf("%g x %s (crc %08x)", weights[i], a, n.Header.CRC32))
	}
	return nets, parts, nil
}

// mergeNetworks merges nets with weights (nnue.Merge), sets the score
// weight when asked, and rescales the output (weights, bias and score
// weight alike: every well ranks as before) to bring the integer
// network's error bound, which the merged first layer's one hidden scale
// can raise, back under the engine's; parts gains what was done.
func mergeNetworks(nets []*nnue.Network, weights []float64, parts []string, setScore bool, scoreWeight float64) (*nnue.Network, []string, error) {
	m, err := nnue.Merge(nets, weights)
	if err != nil {
		return nil, nil, err
	}
	return finishCombined(m, parts, setScore, scoreWeight)
}

// finishCombined sets a merged or souped network's score weight when
// asked, and rescales its output (weights, bias and score weight alike:
// every well ranks as before) to bring the integer network's error bound
// under the engine's; parts gains what was done.
func finishCombined(m *nnue.Network, parts []string, setScore bool, scoreWeight float64) (*nnue.Network, []string, error) {
	if setScore {
		m.ScoreWeight = scoreWeight
		parts = append(parts, fmt.Sprintf("score weight set to %g", scoreWeight))
	}
	s, err := nnue.OutputFit(m, 0.95*nnue.MaxErrorBound)
	if err != nil {
		return nil, nil, err
	}
	if s < 1 {
		for j := range m.W2 {
			m.W2[j] = float32(s * float64(m.W2[j]))
		}
		m.B2 = float32(s * float64(m.B2))
		m.ScoreWeight *= s
		parts = append(parts, fmt.Sprintf("all scaled by %.6g for the int16 error bound", s))
	}
	return m, parts, nil
}
