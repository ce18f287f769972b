package classic

import "testing"

// benchPieces plays b.N pieces at the given height with a, over successive
// seeds, and reports pieces/s.
func benchPieces(b *testing.B, rows int, a Agent) {
	r := mustRules(b, rows, 10)
	b.ReportAllocs()
	b.ResetTimer()
	left := int64(b.N)
	for seed := int64(rows * 1000); left > 0; seed++ {
		res := Play(r, a, seed, left)
		left -= max(res.Pieces, 1)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pieces/s")
}

func BenchmarkTetrAIRows12(b *testing.B)      { benchPieces(b, 12, TetrAI{}) }
func BenchmarkTetrAIRows20(b *testing.B)      { benchPieces(b, 20, TetrAI{}) }
func BenchmarkDellacherieRows12(b *testing.B) { benchPieces(b, 12, Dellacherie()) }
func BenchmarkBCTSRows12(b *testing.B)        { benchPieces(b, 12, BCTS()) }

func BenchmarkPieceStream(b *testing.B) {
	p := NewPieces(1)
	var s Piece
	for b.Loop() {
		s += p.Next()
	}
	_ = s
}

func TestPlayAllocatesNothing(t *testing.T) {
	r := mustRules(t, 12, 10)
	for _, a := range []Agent{TetrAI{}, Dellacherie(), BCTS()} {
		// The board escapes once per game (it is handed to an interface);
		// the per-piece path allocates nothing.
		if n := testing.AllocsPerRun(3, func() { Play(r, a, 12630, 2000) }); n > 1 {
			t.Errorf("%s: %v allocations per 2000-piece game", a.Name(), n)
		}
	}
}
