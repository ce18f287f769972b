package train

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/hatelab/hatelab/engine/nnue"
)

// TestRankLoss: the validation ranking loss on hand-made cases: a pair
// counts only within a group and when the targets differ, weighted by
// their gap.
func TestRankLoss(t *testing.T) {
	sp := func(x float64) float64 { return math.Log1p(math.Exp(x)) }
	for _, c := range []struct {
		name string
		p    []float32
		s    []Sample
		want float64
	}{
		{"ranked right", []float32{0.1, 0}, []Sample{{Target: 0.5, Group: 3}, {Target: 0, Group: 3}}, sp(-1)},
		{"ranked wrong", []float32{0, 0.1}, []Sample{{Target: 0.5, Group: 3}, {Target: 0, Group: 3}}, sp(1)},
		{"other groups", []float32{0, 0.1}, []Sample{{Target: 0.5, Group: 3}, {Target: 0, Group: 4}}, 0},
		{"equal targets", []float32{0, 0.1}, []Sample{{Target: 0.5, Group: 3}, {Target: 0.5, Group: 3}}, 0},
		{"weighted by gap", []float32{0, 0.2, 0.1},
			[]Sample{{Target: 0.4, Group: 1}, {Target: 0.3, Group: 1}, {Target: 0, Group: 1}},
			(0.1*sp(2) + 0.4*sp(1) + 0.3*sp(-1)) / 0.8},
		{"two groups", []float32{0.1, 0, 0, 0.1},
			[]Sample{{Target: 1, Group: 7}, {Target: 0, Group: 7}, {Target: 1, Group: 2}, {Target: 0, Group: 2}},
			(sp(-1) + sp(1)) / 2},
	} {
		if got := rankLoss(c.p, c.s); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRankGraph: the training loss GoMLX computes for a batch is the mean
// squared error plus the weight times rankLoss over the batch.
func TestRankGraph(t *testing.T) {
	backend, err := Backend()
	if err != nil {
		t.Fatal(err)
	}
	p := []float32{0.3, -0.2, 0.9, 0.1, -0.7, 0.05}
	s := []Sample{{Target: 0.5, Group: 1}, {Target: -0.1, Group: 1}, {Target: 0.2, Group: 1},
		{Target: 0.4, Group: 2}, {Target: -1, Group: 2}, {Target: 0.4, Group: 9}}
	lab := make([]float32, 0, 2*len(s))
	for _, x := range s {
		lab = append(lab, x.Target, float32(x.Group))
	}
	for _, w := range []float64{0.5, 2} {
		exec, err := graph.NewExec(backend, func(l, q *graph.Node) *graph.Node { return lossFn(w)([]*graph.Node{l}, []*graph.Node{q}) })
		if err != nil {
			t.Fatal(err)
		}
		res, err := exec.Call(tensors.FromFlatDataAndDimensions(lab, len(s), 2), tensors.FromFlatDataAndDimensions(p, len(s), 1))
		if err != nil {
			t.Fatal(err)
		}
		got := scalar(res[0])
		want := meanSquared(p, s) + w*rankLoss(p, s)
		if math.Abs(got-want) > 1e-5 {
			t.Errorf("weight %v: GoMLX %v, want %v", w, got, want)
		}
	}
}

// TestGroupBatches: an epoch's batches hold one group each but where a
// group's size is not a multiple of the batch (a batch spans as many
// groups as group ends fall inside it: at most groups-1 ends in all), every sample appears at most once, the full batches only,
// and the order depends on the seed and epoch alone.
func TestGroupBatches(t *testing.T) {
	var set []Sample
	for g, n := range []int{37, 64, 5, 90, 16} {
		for range n {
			set = append(set, Sample{Group: int32(g)})
		}
	}
	perm := make([]int, len(set))
	for i := range perm {
		perm[i] = (i * 97) % len(set) // a permutation: 97 is prime to 212
	}
	const batch = 16
	out := groupBatches(perm, set, batch, 1, 0)
	if len(out) != len(set)/batch*batch {
		t.Fatalf("%d samples, want %d", len(out), len(set)/batch*batch)
	}
	seen := map[int]bool{}
	mixed := 0
	for lo := 0; lo < len(out); lo += batch {
		groups := map[int32]bool{}
		for _, i := range out[lo : lo+batch] {
			if seen[i] {
				t.Fatalf("sample %d twice", i)
			}
			seen[i] = true
			groups[set[i].Group] = true
		}
		mixed += len(groups) - 1
	}
	if mixed > 4 {
		t.Errorf("%d group ends inside batches, want at most 4 (5 groups)", mixed)
	}
	if !slices.Equal(out, groupBatches(perm, set, batch, 1, 0)) {
		t.Error("not deterministic")
	}
	if slices.Equal(out, groupBatches(perm, set, batch, 1, 1)) {
		t.Error("the same order in another epoch")
	}
}

// TestTrainRank: with a rank weight the network learns the teacher's
// order within groups (its validation ranking loss well below log 2, a
// level ranking's), early stopping follows the validation loss, and a folder made
// without a rank weight is refused by a run with one.
func TestTrainRank(t *testing.T) {
	fs, data := tinyData(t, 2000)
	for i := range data {
		data[i].Group = int32(i % 5)
	}
	dir := t.TempDir()
	cfg := Config{Features: fs, Hidden: 8, Batch: 64, MaxEpochs: 6, Patience: 6, LearningRate: 3e-3, Clamp: 0.5, Seed: 1, Dir: dir}
	if _, err := Train(context.Background(), cfg, data); err != nil {
		t.Fatal(err)
	}
	cfg.RankWeight = 1
	if _, err := Train(context.Background(), cfg, data); err == nil {
		t.Fatal("a folder of a run without a rank weight resumed with one")
	}
	cfg.Dir = ""
	res, err := Train(context.Background(), cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	first, best := res.Epochs[0], res.Epochs[res.BestEpoch]
	if best.ValidLoss <= best.ValidMSE || first.ValidLoss == 0 {
		t.Fatalf("no validation loss with the rank term: %+v", res.Epochs)
	}
	for _, e := range res.Epochs {
		if e.ValidLoss < best.ValidLoss {
			t.Fatalf("epoch %d's validation loss %v is below the best epoch's %v", e.Epoch, e.ValidLoss, best.ValidLoss)
		}
	}
	if res.Net.Header.Metrics["valid_loss"] != best.ValidLoss || res.Net.Header.Metrics["valid_mse"] != best.ValidMSE {
		t.Errorf("metrics %v, best epoch %+v", res.Net.Header.Metrics, best)
	}
	if r := best.ValidLoss - best.ValidMSE; r > 0.5 {
		t.Errorf("validation ranking loss %v, not below 0.5 (log 2 ranks at chance)", r)
	}
}

// TestTrainNonFiniteLoss: an epoch whose validation loss is not finite (a
// start network with a NaN weight) stops training with an error naming
// it, not a crash; a rank weight past MaxRankWeight is refused.
func TestTrainNonFiniteLoss(t *testing.T) {
	fs, data := tinyData(t, 600)
	start, err := nnue.NewNetwork(fs, 8, nnue.HardTanh)
	if err != nil {
		t.Fatal(err)
	}
	start.W2[0] = float32(math.NaN())
	cfg := Config{Features: fs, Hidden: 8, Batch: 64, MaxEpochs: 2, Seed: 1, Start: start, Dir: t.TempDir()}
	if _, err := Train(context.Background(), cfg, data); err == nil || !strings.Contains(err.Error(), "validation loss is NaN") {
		t.Fatalf("NaN weights: %v", err)
	}
	cfg.Start, cfg.Dir, cfg.RankWeight = nil, "", MaxRankWeight*2
	if _, err := Train(context.Background(), cfg, data); !errors.Is(err, ErrConfig) {
		t.Fatalf("rank weight %v: %v", cfg.RankWeight, err)
	}
}
