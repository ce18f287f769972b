package bfs

import "testing"

// BenchmarkSearch10x5 is the whole 10x5 search (real rule), 4.4 M states
// expanded... per op.
func BenchmarkSearch10x5(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := Search(Options{Width: 10, Height: 5})
		if err != nil || res.MaxWidth != 174585 {
			b.Fatal(err, res.MaxWidth)
		}
		b.ReportMetric(float64(res.Expanded), "states/op")
	}
}
