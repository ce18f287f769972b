package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
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

// TestOutputKernel: the AVX2 output kernel (where the machine has it)
// gives the Go loop's output exactly, for hard tanh and clipped ReLU at
// H32 and H64 and at the smallest and largest QA, on accumulators whose
// lanes are random int16 values, the int16 extremes and the clamp's
// ends (packed as the accumulators pack them), with output weights at
// +-32767.
func TestOutputKernel(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 kernels in this build or on this machine")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	fs, _ := NewFeatureSet(Shared, 10, 16)
	for _, act := range []Activation{HardTanh, ClippedReLU} {
		for _, hidden := range []int{32, 64} {
			for _, qa := range []int{64, 256, 0} {
				n := randomNetwork(t, fs, hidden, act, 0.001, uint64(hidden))
				for j := range n.W2 {
					n.W2[j] *= 0.01 // an error bound under 1 at small QA
				}
				q, err := Quantize(n, qa, 0)
				if err != nil {
					t.Fatal(err)
				}
				if q.w2h == nil {
					t.Fatalf("%s H%d: no int16 output weights", act, hidden)
				}
				q.w2[0], q.w2h[0] = 32767, 32767
				q.w2[1], q.w2h[1] = -32767, -32767
				qa32 := int64(q.qa)
				special := []int64{-32768, 32767, -1, 0, 1, qa32, qa32 + 1, -qa32, -qa32 - 1}
				a := q.NewAccumulator()
				for trial := 0; trial < 2000; trial++ {
					clear(a.words)
					for j := 0; j < 4*q.words; j++ {
						v := int64(int16(rng.Uint32()))
						if trial%2 == 0 {
							v = special[rng.IntN(len(special))]
						}
						a.words[j/4] += uint64(v) << (16 * (j % 4))
					}
					if got, want := q.Output(a), q.outputGo(a); got != want {
						t.Fatalf("%s H%d qa %d trial %d: kernel %d, Go %d", act, hidden, q.qa, trial, got, want)
					}
				}
			}
		}
	}
}

// TestWindowKernel: the AVX2 window kernel (where the machine has it)
// writes the Go loop's window features for every range of top rows, for
// shared and positional features at heights 11 (eight window rows: one
// group), 16 and 20, on random rows (bits past the width included); the
// slots outside the range it rewrites hold their values for the same
// rows, and it leaves the row slots alone.
func TestWindowKernel(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 kernels in this build or on this machine")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, v := range []Variant{Shared, Positional} {
		for _, height := range []int{11, 16, 20} {
			fs, err := NewFeatureSet(v, 10, height)
			if err != nil {
				t.Fatal(err)
			}
			full := make([]int32, fs.active)
			got := make([]int32, fs.active)
			for trial := 0; trial < 300; trial++ {
				rows := make([]uint16, height)
				for i := range rows {
					rows[i] = uint16(rng.Uint32())
					if trial%3 == 0 {
						rows[i] &= 1<<10 - 1
					}
				}
				fs.windows8Go(full, fs.base, rows, 0, fs.wslots)
				for r0 := 0; r0 < fs.wslots; r0++ {
					for r1 := r0 + 1; r1 <= fs.wslots; r1++ {
						for i := range got {
							got[i] = -1
						}
						fs.windows8(got, fs.base, rows, r0, r1)
						for s := range got {
							inRange := s >= fs.height && (s-fs.height)%fs.wslots >= r0 && (s-fs.height)%fs.wslots < r1
							switch {
							case inRange && got[s] != full[s]:
								t.Fatalf("%s h%d rows %d..%d: slot %d = %d, want %d", v, height, r0, r1, s, got[s], full[s])
							case !inRange && got[s] != -1 && got[s] != full[s]:
								t.Fatalf("%s h%d rows %d..%d: slot %d outside rewritten to %d, not its value %d", v, height, r0, r1, s, got[s], full[s])
							case s < fs.height && got[s] != -1:
								t.Fatalf("%s h%d: row slot %d written", v, height, s)
							}
						}
					}
				}
			}
		}
	}
}

// TestDeltaAnyBand: an incremental update over any band of changed rows
// (the refresh fallback lifted) gives the refresh's sums and features,
// for shared and positional features: the window kernel's groups of
// eight top rows, which overlap near the last top row, are recomputed
// for bands of every size and position, at 32 and 64 hidden units (the
// AVX2 delta kernel's one and two halves).
func TestDeltaAnyBand(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 31, 400)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		v      Variant
		hidden int
	}{{Shared, 32}, {Positional, 32}, {Shared, 64}, {Positional, 64}} {
		v := c.v
		fs, _ := NewFeatureSet(v, 10, 16)
		q, err := Quantize(randomNetwork(t, fs, c.hidden, HardTanh, 0.1, 11), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		q.maxBand = MaxHeight + 1
		parent, dst, full := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
		h := fs.Height()
		for i := range wells {
			prows := below(r, &wells[i])
			q.Refresh(parent, prows)
			for trial := 0; trial < 20; trial++ {
				lo := rng.IntN(h)
				hi := lo + rng.IntN(h-lo)
				rows := append([]uint16(nil), prows...)
				for y := lo; y <= hi; y++ {
					rows[y] = uint16(rng.IntN(1 << 10))
				}
				if !q.Update(dst, parent, rows) {
					t.Fatal("refreshed with the fallback lifted")
				}
				q.Refresh(full, rows)
				if !slices.Equal(dst.words, full.words) || !slices.Equal(dst.feats, full.feats) {
					t.Fatalf("%s: well %d rows %d..%d changed: update != refresh", v, i, lo, hi)
				}
				if o := q.ChildOutput(dst, parent, rows); o != q.Output(full) {
					t.Fatalf("%s: well %d rows %d..%d changed: child output %d, refresh %d", v, i, lo, hi, o, q.Output(full))
				}
			}
		}
	}
}
