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

// BenchmarkDepth10k: wall time per depth of a full width-10,000 beam
// (depths 11 to 20 from the empty well, where the beam is full), without
// and with quiescence, all cores.
func BenchmarkDepth10k(b *testing.B) {
	for _, q := range []bool{false, true} {
		name := "plain"
		if q {
			name = "quiescence"
		}
		b.Run(name, func(b *testing.B) {
			var secs float64
			var children int64
			depths := 0
			for b.Loop() {
				res, err := Run(context.Background(), Config{Width: 10000, MaxDepth: 20, Quiescence: q})
				if err != nil {
					b.Fatal(err)
				}
				for _, ds := range res.Depths[10:] {
					secs += ds.Seconds
					children += ds.Children
					depths++
				}
			}
			b.ReportMetric(secs/float64(depths), "s/depth")
			b.ReportMetric(float64(children)/float64(depths), "children/depth")
		})
	}
}
