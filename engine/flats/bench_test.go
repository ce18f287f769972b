package flats

import (
	"context"
	"testing"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// recordMoves returns the moves of the record replays, a game's end marked
// by a nil entry in ends.
func recordMoves(b *testing.B) (*hatetris.Rules, []Move, []bool) {
	var moves []Move
	var ends []bool
	games := testRecords(b)
	for _, g := range games {
		for i := range g.Steps {
			if m, ok := FromStep(g.Rules, &g.Steps[i]); ok {
				moves = append(moves, m)
				ends = append(ends, false)
			}
		}
		ends[len(ends)-1] = true
	}
	return games[0].Rules, moves, ends
}

// BenchmarkTracker: one move through the tracker (events into a reused
// slice), over the record replays' moves.
func BenchmarkTracker(b *testing.B) {
	r, moves, ends := recordMoves(b)
	tr := NewTracker(r)
	ev := make([]Event, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(moves)
		var err error
		if ev, err = tr.Apply(&moves[j], ev[:0]); err != nil {
			b.Fatal(err)
		}
		if ends[j] {
			ev = tr.End(ev[:0])
		}
	}
}

// BenchmarkCountRecords: counting every record replay (already replayed)
// into fresh counts, pathwise and permeability included.
func BenchmarkCountRecords(b *testing.B) {
	games := testRecords(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := CountGames(games); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAbsorb: absorption over the (shape, height) graph of the
// records.
func BenchmarkAbsorb(b *testing.B) {
	c, err := CountGames(testRecords(b))
	if err != nil {
		b.Fatal(err)
	}
	g := c.Graph()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Absorb(g)
	}
}

// BenchmarkMFClearability: the max-flow reading for every shape of the
// records' shape-only graph (two max-flows per shape).
func BenchmarkMFClearability(b *testing.B) {
	c, err := CountGames(testRecords(b))
	if err != nil {
		b.Fatal(err)
	}
	g := c.ShapeGraph()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MFClearability(g)
	}
}

// BenchmarkCount10x5: the exact 10x5 counts, well graph included.
func BenchmarkCount10x5(b *testing.B) {
	r, _ := bfs.NewRules(10, 5, bfs.RuleQntm)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g, err := bfs.BuildWellGraph(r, nil, 1<<23)
		if err != nil {
			b.Fatal(err)
		}
		c, err := CountWellGraph(g, AllGames)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(g.Len()), "wells")
		b.ReportMetric(c.Games, "games")
	}
}

// BenchmarkTermG: the G term on the record replays' wells, per well.
func BenchmarkTermG(b *testing.B) {
	term, err := NewTerm(recordTable(b), 1)
	if err != nil {
		b.Fatal(err)
	}
	var wells []hatetris.Well
	for _, g := range testRecords(b) {
		for _, s := range g.Steps {
			wells = append(wells, s.Before)
		}
	}
	tw := term.NewWorker(hatetris.Standard())
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0.0
	for i := 0; i < b.N; i++ {
		sum += tw.Evaluate(&wells[i%len(wells)], 0, 0)
	}
	_ = sum
}

// BenchmarkBeamHand and BenchmarkBeamHandG: the same beam search (10x20,
// width 30, 40 pieces, one worker) with the hand-made evaluation alone
// and with the G term added.
func BenchmarkBeamHand(b *testing.B) { benchBeam(b, false) }

// BenchmarkBeamHandG is BenchmarkBeamHand with the G term.
func BenchmarkBeamHandG(b *testing.B) { benchBeam(b, true) }

func benchBeam(b *testing.B, withG bool) {
	var ev eval.Evaluator = eval.NewHand(eval.DefaultWeights())
	if withG {
		term, err := NewTerm(recordTable(b), -2.1413)
		if err != nil {
			b.Fatal(err)
		}
		ev = eval.Sum{Base: ev, Terms: []eval.Evaluator{term}}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := beam.Run(context.Background(), beam.Config{BeamWidth: 30, MaxPieces: 40, Eval: ev, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Children), "children")
	}
}

// BenchmarkMFClearability10x5: the max-flow reading for every shape of the
// exact 10x5 counts (all games; 1,022 shapes).
func BenchmarkMFClearability10x5(b *testing.B) {
	r, _ := bfs.NewRules(10, 5, bfs.RuleQntm)
	g, err := bfs.BuildWellGraph(r, nil, 1<<23)
	if err != nil {
		b.Fatal(err)
	}
	c, err := CountWellGraph(g, AllGames)
	if err != nil {
		b.Fatal(err)
	}
	sg := c.ShapeGraph()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MFClearability(sg)
	}
}
