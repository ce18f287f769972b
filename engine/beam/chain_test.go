//go:build unix

package beam

import (
	"context"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// chainCounts counts the evaluations of a one-worker search with
// quiescence: the children evaluated (future 0: the memo missed them),
// the wells of their quiescence chains (future > 0) and the children
// whose chain was empty (no well can be reached by a single-line clear).
type chainCounts struct {
	children, chainWells, empty int64
	open                        bool // the last child has no chain well yet
}

func (n *chainCounts) done() {
	if n.open {
		n.empty++
		n.open = false
	}
}

// countingEval wraps an evaluation (one without EvaluateClears: the
// network's) and counts its calls; its workers pass SetParent on, so the
// search takes the path it takes without the wrapper.
type countingEval struct {
	eval.Evaluator
	n *chainCounts
}

func (e countingEval) NewWorker(r *hatetris.Rules) eval.Worker {
	w := e.Evaluator.NewWorker(r)
	pw, _ := w.(eval.ParentWorker)
	return &countingWorker{Worker: w, pw: pw, n: e.n}
}

type countingWorker struct {
	eval.Worker
	pw eval.ParentWorker
	n  *chainCounts
}

func (w *countingWorker) SetParent(p *hatetris.Well) {
	if w.pw != nil {
		w.pw.SetParent(p)
	}
}

func (w *countingWorker) Evaluate(x *hatetris.Well, score, future int) float64 {
	if future == 0 {
		w.n.done()
		w.n.children++
		w.n.open = true
	} else {
		w.n.chainWells++
		w.n.open = false
	}
	return w.Worker.Evaluate(x, score, future)
}

// TestQuiescenceChainCounts pins how many wells the quiescence chains of
// a width-1,000 search with generation 0 visit in its first 20 pieces
// (the counts a speed change must leave as they are, like the kept
// wells: 4.7 chain wells per evaluated child, 30 % of children without
// any), and that counting changes nothing: the wrapped search gives the
// plain one's result.
func TestQuiescenceChainCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("two width-1,000 searches")
	}
	nn, err := eval.LoadNNUE(gen0Path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{BeamWidth: 1000, MaxPieces: 20, Quiescence: true, Workers: 1, Eval: nn}
	plain, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var n chainCounts
	cfg.Eval = countingEval{nn, &n}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.done()
	if res.Score != plain.Score || res.Children != plain.Children || res.Replay != plain.Replay {
		t.Fatalf("counting changed the search: score %d children %d, plain %d %d", res.Score, res.Children, plain.Score, plain.Children)
	}
	t.Logf("%d children, %d evaluated (memo misses), %d chain wells (%.2f a child), %d empty chains (%.1f %%)",
		res.Children, n.children, n.chainWells, float64(n.chainWells)/float64(n.children), n.empty, 100*float64(n.empty)/float64(n.children))
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"children", res.Children, 603958},
		{"evaluated children", n.children, 571218},
		{"chain wells", n.chainWells, 2687623},
		{"empty chains", n.empty, 168876},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}

// BenchmarkBeamNNUEChains is BenchmarkBeamNNUE's width-1,000 search with
// quiescence, its evaluations counted: it reports the chain wells per
// evaluated child, the share of evaluated children without a chain, and
// the CPU time per evaluated well (child or chain well: each costs a
// network evaluation and a single-clear generation), where cpu-ns/child
// (BenchmarkBeamNNUE) is about 1 + chain-wells/child of them.
func BenchmarkBeamNNUEChains(b *testing.B) {
	nn, err := eval.LoadNNUE(gen0Path)
	if err != nil {
		b.Skip(err)
	}
	var n chainCounts
	var cpu float64
	var children int64
	for b.Loop() {
		t0 := processCPU()
		res, err := Run(context.Background(), Config{BeamWidth: 1000, Quiescence: true, Eval: countingEval{nn, &n}, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		cpu += (processCPU() - t0).Seconds()
		n.done()
		children += res.Children
	}
	b.ReportMetric(float64(n.chainWells)/float64(n.children), "chain-wells/child")
	b.ReportMetric(100*float64(n.empty)/float64(n.children), "empty-chain-%")
	b.ReportMetric(cpu/float64(n.children+n.chainWells)*1e9, "cpu-ns/well")
	b.ReportMetric(cpu/float64(children)*1e9, "cpu-ns/child")
}
