//lint:file-ignore ST1001 GoMLX graph code reads as formulas with the graph package dot-imported, as GoMLX itself writes it.

package train

import (
	"math"
	"math/rand/v2"
	"slices"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/hatelab/hatelab/engine/nnue"
)

// Variable names in the GoMLX store (root scope).
const (
	varW1 = "w1" // [F,H]
	varB1 = "b1" // [H]
	varW2 = "w2" // [H,1]
	varB2 = "b2" // [1]
)

// initVariables creates the network's variables with the values of start
// when it is not nil (training from a previous generation), else with
// initialWeights' seeded values.
func initVariables(store *model.Store, fs *nnue.FeatureSet, hidden int, seed uint64, start *nnue.Network) {
	f := fs.Count()
	var w1, b1, w2 []float32
	b2 := []float32{0}
	if start != nil {
		w1, b1, w2 = slices.Clone(start.W1), slices.Clone(start.B1), slices.Clone(start.W2)
		b2[0] = start.B2
	} else {
		w1, b1, w2 = initialWeights(f, hidden, seed)
	}
	root := store.RootScope()
	root.VariableWithValue(varW1, tensors.FromFlatDataAndDimensions(w1, f, hidden))
	root.VariableWithValue(varB1, tensors.FromFlatDataAndDimensions(b1, hidden))
	root.VariableWithValue(varW2, tensors.FromFlatDataAndDimensions(w2, hidden, 1))
	root.VariableWithValue(varB2, tensors.FromFlatDataAndDimensions(b2, 1))
}

// initialWeights are a network's seeded starting values for f features
// and hidden units: W1 uniform with standard deviation 1/sqrt(f) (the
// peer's scale: features unseen in training stay near 0), W2 uniform in
// +-1/sqrt(hidden), biases 0.
func initialWeights(f, hidden int, seed uint64) (w1, b1, w2 []float32) {
	w1, b1, w2 = make([]float32, f*hidden), make([]float32, hidden), make([]float32, hidden)
	rng := rand.New(rand.NewPCG(seed, 0x7472616e))
	a := math.Sqrt(3 / float64(f))
	for i := range w1 {
		w1[i] = float32((2*rng.Float64() - 1) * a)
	}
	a = 1 / math.Sqrt(float64(hidden))
	for j := range w2 {
		w2[j] = float32((2*rng.Float64() - 1) * a)
	}
	return w1, b1, w2
}

// Random returns the network training starts from without a start
// network (Config.Start nil): seeded random weights, D&F's generation 0
// (their README, section Training), to set beside a bootstrap from the
// hand-made evaluation (engine/nnue/gen0).
func Random(fs *nnue.FeatureSet, hidden int, act nnue.Activation, seed uint64) (*nnue.Network, error) {
	n, err := nnue.NewNetwork(fs, hidden, act)
	if err != nil {
		return nil, err
	}
	w1, b1, w2 := initialWeights(fs.Count(), hidden, seed)
	copy(n.W1, w1)
	copy(n.B1, b1)
	copy(n.W2, w2)
	n.Header.Output = "tanh"
	return n, nil
}

// activation is the graph form of nnue.Activation.
func activation(act nnue.Activation, x *Node) *Node {
	switch act {
	case nnue.ClippedReLU:
		return ClipScalar(x, 0, 1)
	case nnue.Tanh:
		return Tanh(x)
	}
	return ClipScalar(x, -1, 1)
}

// modelFn is the engine's network in GoMLX: int32 feature indices [B,K]
// -> Gather of W1 rows [B,K,H] -> sum over K -> + B1 -> activation ->
// . W2 + B2 -> tanh (the training output; the engine ranks before it).
// The result is [B,1].
func modelFn(act nnue.Activation) func(scope *model.Scope, idx *Node) *Node {
	return func(scope *model.Scope, idx *Node) *Node {
		g := idx.Graph()
		root := scope.Store().RootScope()
		w1 := root.GetVariable(varW1).NodeValue(g)
		b1 := root.GetVariable(varB1).NodeValue(g)
		w2 := root.GetVariable(varW2).NodeValue(g)
		b2 := root.GetVariable(varB2).NodeValue(g)
		rows := Gather(w1, InsertAxes(idx, -1)) // [B,K,H]
		acc := Add(ReduceSum(rows, 1), InsertAxes(b1, 0))
		h := activation(act, acc)
		out := Add(MatMul(h, w2), InsertAxes(b2, 0)) // [B,1]
		return Tanh(out)
	}
}

// clampW1 wraps an optimizer: after its update, W1 is clamped to
// +-limit (so that the int16 accumulator cannot overflow; see
// nnue.Quantize).
type clampW1 struct {
	optimizer.Interface
	limit float64
}

// UpdateGraph implements optimizer.Interface.
func (c clampW1) UpdateGraph(scope *model.Scope, g *Graph, loss *Node) {
	c.Interface.UpdateGraph(scope, g, loss)
	v := scope.Store().RootScope().GetVariable(varW1)
	v.SetNodeValue(ClipScalar(v.NodeValue(g), -c.limit, c.limit))
}

// export copies the store's variables into an engine network.
func export(store *model.Store, fs *nnue.FeatureSet, hidden int, act nnue.Activation) (*nnue.Network, error) {
	n, err := nnue.NewNetwork(fs, hidden, act)
	if err != nil {
		return nil, err
	}
	root := store.RootScope()
	for _, c := range []struct {
		name string
		dst  []float32
	}{{varW1, n.W1}, {varB1, n.B1}, {varW2, n.W2}} {
		v, err := root.GetVariable(c.name).Value()
		if err != nil {
			return nil, err
		}
		data, err := tensors.CopyFlatData[float32](v)
		if err != nil {
			return nil, err
		}
		copy(c.dst, data)
	}
	v, err := root.GetVariable(varB2).Value()
	if err != nil {
		return nil, err
	}
	b2, err := tensors.CopyFlatData[float32](v)
	if err != nil {
		return nil, err
	}
	n.B2 = b2[0]
	n.Header.Output = "tanh"
	return n, nil
}

// fitBound is where fitOutput brings a network's int16 error bound back
// to once it passes nnue.MaxErrorBound: a margin below the limit, so that
// the next epochs do not cross it again at once.
const fitBound = 0.95 * nnue.MaxErrorBound

// fitOutput keeps the network one the engine can run: when the int16
// error bound of the store's network (nnue.Quantized.ErrorBound) passes
// nnue.MaxErrorBound, which Quantize refuses, the output weights W2 are
// scaled down until it is fitBound (nnue.OutputFit): a projection after
// the epoch's steps, before its validation, so the network validated,
// kept as best and exported is the one the engine runs. It returns the
// scale (0 when none was applied). A network no output scale can fit is
// left as it is, for Quantize to refuse in one line at the end.
func (t *trainer) fitOutput() (float64, error) {
	cfg := t.cfg
	n, err := export(t.store, cfg.Features, cfg.Hidden, cfg.Activation)
	if err != nil {
		return 0, err
	}
	if s, err := nnue.OutputFit(n, nnue.MaxErrorBound); err != nil || s == 1 {
		return 0, nil
	}
	s, err := nnue.OutputFit(n, fitBound)
	if err != nil {
		return 0, nil
	}
	w2 := make([]float32, len(n.W2))
	for j, w := range n.W2 {
		w2[j] = float32(float64(w) * s)
	}
	if err := t.store.RootScope().GetVariable(varW2).SetValue(tensors.FromFlatDataAndDimensions(w2, cfg.Hidden, 1)); err != nil {
		return 0, err
	}
	return s, nil
}
