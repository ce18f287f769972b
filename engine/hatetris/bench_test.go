package hatetris

import (
	"sync"
	"testing"

	"github.com/hatelab/hatelab/internal/testvectors"
)

var benchOnce sync.Once
var benchWells []Well

// sampleWells returns the fixed benchmark sample: every 10x20 well a piece
// spawned into in the random-game vectors (7,518 wells).
func sampleWells(b testing.TB) []Well {
	benchOnce.Do(func() {
		r := Standard()
		for _, g := range testvectors.ReadJSONL[vecGame](b, "testdata/random_games.jsonl.gz") {
			for _, m := range g.Moves {
				w, err := r.ParseWell(m.Well)
				if err != nil {
					b.Fatal(err)
				}
				benchWells = append(benchWells, w)
			}
		}
	})
	return benchWells
}

// BenchmarkMove: the AI's choice plus the distinct results of the chosen
// piece, per well.
func BenchmarkMove(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	buf := make([]Outcome, 0, 256)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var res []Outcome
		_, res = g.Move(&ws[i%len(ws)], HATETRIS, nil, buf[:0])
		n += len(res)
	}
	b.ReportMetric(float64(n)/float64(b.N), "results/op")
}

// BenchmarkChoose: the AI's choice alone.
func BenchmarkChoose(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Choose(&ws[i%len(ws)], HATETRIS, nil)
	}
}

// BenchmarkAllPieces: the distinct results of all seven pieces, per well.
func BenchmarkAllPieces(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	buf := make([]Outcome, 0, 512)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := buf[:0]
		for p := Piece(0); p < NumPieces; p++ {
			res = g.Outcomes(&ws[i%len(ws)], p, res)
		}
		n += len(res)
	}
	b.ReportMetric(float64(n)/float64(b.N), "results/op")
}

// BenchmarkRankSeen: the real AI with a game history (loop rule), as in
// a replay.
func BenchmarkRankSeen(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	seen := NewSeen()
	for i := range ws {
		seen.Add(&ws[i])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Choose(&ws[i%len(ws)], HATETRIS, seen)
	}
}

// BenchmarkSingleClears: a quiescence chain's step, per well: the first
// piece that cannot clear two lines and its single clears.
func BenchmarkSingleClears(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	buf := make([]Outcome, 0, 256)
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, _ := g.SingleClears(&ws[i%len(ws)], buf[:0])
		n += len(res)
	}
	b.ReportMetric(float64(n)/float64(b.N), "results/op")
}
