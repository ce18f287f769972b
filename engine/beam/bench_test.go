package beam

import (
	"context"
	"testing"
)

// BenchmarkBeam1000: one width-1000 search from the empty well (hand-made
// evaluation); reports children evaluated per second per worker.
func BenchmarkBeam1000(b *testing.B) { benchBeam(b, 1000, false) }

// BenchmarkBeam1000Q: the same with quiescence.
func BenchmarkBeam1000Q(b *testing.B) { benchBeam(b, 1000, true) }

func benchBeam(b *testing.B, width int, q bool) {
	var children int64
	var secs float64
	for b.Loop() {
		res, err := Run(context.Background(), Config{Width: width, Quiescence: q, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		children += res.Children
		secs += res.Seconds
	}
	b.ReportMetric(float64(children)/secs, "children/s/core")
	b.ReportMetric(secs/float64(children)*1e9, "ns/child")
}
