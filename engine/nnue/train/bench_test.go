package train

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
)

// BenchmarkTrainKJ: training throughput of a knewjade-sized network
// (shared 10x16: F = 5,120, K = 120; H = 32; batch 1,024) on the pure-Go
// backend, on seeded random features; reports training samples per
// second of wall time in the epochs after the first (which compiles the
// graphs), validation passes included.
func BenchmarkTrainKJ(b *testing.B) {
	fs, _ := nnue.NewFeatureSet(nnue.Shared, 10, 16)
	rng := rand.New(rand.NewPCG(1, 1))
	data := make([]Sample, 18000)
	for i := range data {
		f := make([]int32, fs.Active())
		for s := range f {
			if s < 16 {
				f[s] = int32(rng.IntN(1024))
			} else {
				f[s] = int32(1024 + rng.IntN(4096))
			}
		}
		data[i] = Sample{Feats: f, Target: float32(2*rng.Float64() - 1)}
	}
	var secs float64
	var samples int
	for b.Loop() {
		res, err := Train(context.Background(), Config{Features: fs, Hidden: 32, Batch: 1024, MaxEpochs: 3, Patience: 5, Seed: 1}, data)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range res.Epochs[1:] {
			secs += e.Seconds
			samples += e.Steps * 1024
		}
	}
	b.ReportMetric(float64(samples)/secs, "samples/s")
}
