package flats

import (
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
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
