//lint:file-ignore ST1001 GoMLX graph code reads as formulas with the graph package dot-imported, as GoMLX itself writes it.

package train

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/train/loss"
)

// RankSharpness is σ of the ranking loss: a pair (a, b) of one group with
// target(a) > target(b) costs softplus(-σ (f(a) - f(b))), weighted by
// target(a) - target(b). Outputs are in (-1, 1), and pairs of one group
// often differ by a few hundredths: σ = 10 gives a pair ranked level a
// loss of log 2 and a pair ranked right by 0.1 about 0.31.
const RankSharpness = 10

// lossFn is the training loss: mean squared error, plus weight times the
// ranking loss of the batch's pairs in one group when weight > 0 (the
// labels are then [B, 2]: target, group).
func lossFn(weight float64) loss.LossFn {
	if weight <= 0 {
		return loss.MeanSquaredError
	}
	return func(labels, predictions []*Node) *Node {
		p := predictions[0] // [B, 1]
		t := SliceAxis(labels[0], 1, AxisRange(0, 1))
		g := SliceAxis(labels[0], 1, AxisRange(1, 2))
		d := Sub(t, p)
		mse := ReduceAllMean(Mul(d, d))
		dp := Sub(p, Transpose(p, 0, 1)) // [B, B]: f(i) - f(j)
		dt := Sub(t, Transpose(t, 0, 1))
		same := Equal(g, Transpose(g, 0, 1))
		w := Where(same, Max(dt, ZerosLike(dt)), ZerosLike(dt)) // target gap of the pairs ranked i over j
		pair := Softplus(MulScalar(dp, -RankSharpness))
		n := Max(ReduceAllSum(w), Scalar(p.Graph(), p.DType(), 1e-9))
		rank := Div(ReduceAllSum(Mul(w, pair)), n)
		return Add(mse, MulScalar(rank, weight))
	}
}

// rankLoss is the ranking loss over every pair of samples in one group
// (not only a batch's), with the outputs p: the validation counterpart of
// lossFn's term (0 when no group has two different targets). Like the
// training term, each pair is weighted by its target gap and the sum
// divided by the gaps' sum.
func rankLoss(p []float32, samples []Sample) float64 {
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(samples[a].Group, samples[b].Group) })
	var sum, wsum float64
	for lo := 0; lo < len(order); {
		hi := lo
		for hi < len(order) && samples[order[hi]].Group == samples[order[lo]].Group {
			hi++
		}
		for _, i := range order[lo:hi] {
			for _, j := range order[lo:hi] {
				if gap := float64(samples[i].Target) - float64(samples[j].Target); gap > 0 {
					sum += gap * softplus(-RankSharpness*(float64(p[i])-float64(p[j])))
					wsum += gap
				}
			}
		}
		lo = hi
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum
}

// softplus is log(1 + e^x), computed without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// groupBatches reorders an epoch's permutation so that its batches hold
// one group each where they can: perm sorted by group (stable, so within a
// group the permutation's order stays), cut into batches of batch (the
// last partial one left out, as without groups), whose order is then
// shuffled with a seed of its own (seed, epoch). A batch spans several
// groups only where a group's end falls inside it (every batch, where a
// group is smaller than a batch); the loss ranks only the pairs of one
// group. The partial batch left out is the tail of the sorted order, so
// its samples come from the groups of the most filled cells.
func groupBatches(perm []int, set []Sample, batch int, seed uint64, epoch int) []int {
	sorted := slices.Clone(perm)
	slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(set[a].Group, set[b].Group) })
	nb := len(sorted) / batch
	out := make([]int, 0, nb*batch)
	for _, b := range rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(epoch)+1)).Perm(nb) {
		out = append(out, sorted[b*batch:(b+1)*batch]...)
	}
	return out
}
