package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestRowKernels: the AVX2 kernels (where the machine has them) give the
// Go loops' words exactly, for both row strides (H32, H64) and halves,
// including empty lists and repeated features.
func TestRowKernels(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 kernels in this build or on this machine")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, stride := range []int{8, 16} {
		const rows = 300
		w1 := make([]uint64, rows*stride)
		for i := range w1 {
			w1[i] = rng.Uint64()
		}
		for _, n := range []int{0, 1, 2, 7, 120, 240} {
			feats := make([]int32, n)
			for i := range feats {
				feats[i] = int32(rng.IntN(rows))
			}
			for off := 0; off < stride; off += 8 {
				var start [8]uint64
				for i := range start {
					start[i] = rng.Uint64()
				}
				want, got := start, start
				addRows8Go(&want, w1, stride, off, feats)
				addRows8(&got, w1, stride, off, feats)
				if got != want {
					t.Fatalf("stride %d off %d n %d: add %x, want %x", stride, off, n, got, want)
				}
				want, got = start, start
				swapRows8Go(&want, w1, stride, off, feats)
				swapRows8(&got, w1, stride, off, feats)
				if got != want {
					t.Fatalf("stride %d off %d n %d: swap %x, want %x", stride, off, n, got, want)
				}
			}
		}
	}
}
