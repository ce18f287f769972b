package targets

import (
	"context"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/eval"
)

// BenchmarkTargets: targets of the sample wells with the generation-0
// network, width 512 and 10 pieces, all cores; reports targets per second
// of wall time.
func BenchmarkTargets(b *testing.B) {
	ev, err := eval.LoadNNUE("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		b.Fatal(err)
	}
	wells := sampleWells(b)
	var n int
	var secs float64
	for b.Loop() {
		t0 := time.Now()
		if _, err := Compute(context.Background(), Config{Eval: ev}, wells); err != nil {
			b.Fatal(err)
		}
		secs += time.Since(t0).Seconds()
		n += len(wells)
	}
	b.ReportMetric(float64(n)/secs, "targets/s")
}
