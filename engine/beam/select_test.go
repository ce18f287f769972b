package beam

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPoolShrink: a pool that shrinks when full (hash dedup and
// selection) keeps, level after level, exactly what the sorting
// compaction keeps, with the same threshold after every shrink, on seeded
// random children with many duplicates (the same well and score from
// several parents) and ties in value, for several widths.
func TestPoolShrink(t *testing.T) {
	for _, c := range []struct {
		width, offers, wells int
	}{
		{1, 50, 5}, {3, 200, 20}, {10, 1000, 40}, {100, 5000, 400}, {100, 5000, 90}, {1000, 30000, 5000},
	} {
		rng := rand.New(rand.NewPCG(uint64(c.width), uint64(c.offers)))
		var got, want pool
		got.reset(c.width)
		want.reset(c.width)
		shrinks := 0
		for i := 0; i < c.offers; i++ {
			// A well (one of c.wells) and a score; its value is a function
			// of both, with ties between different wells.
			x := rng.IntN(c.wells)
			var k cand
			k.well[15] = uint16(x)
			k.well[14] = uint16(x * 7 % 13)
			k.score = int32(x % 3)
			k.value = float64(x%17) + float64(k.score)/4
			k.from = uint32(i)<<8 | uint32(rng.IntN(256))
			wasThr := got.hasThr
			got.offer(&k)
			// The reference: the sorting compaction.
			if want.hasThr {
				if o := order(&k, &want.thr); o >= 0 || sameKey(&k, &want.thr) {
					continue
				}
			}
			want.c = append(want.c, k)
			if len(want.c) == cap(want.c) {
				want.compact()
				shrinks++
				if got.hasThr != want.hasThr || got.hasThr && got.thr != want.thr {
					t.Fatalf("width %d offer %d: threshold %v %+v, want %v %+v (before %v)", c.width, i, got.hasThr, got.thr, want.hasThr, want.thr, wasThr)
				}
			}
		}
		got.compact()
		want.compact()
		if !slices.Equal(got.c, want.c) {
			t.Fatalf("width %d: the pools differ after the level (%d and %d children)", c.width, len(got.c), len(want.c))
		}
		if c.offers > 2*c.width+64 && shrinks == 0 {
			t.Fatalf("width %d: the pool never filled", c.width)
		}
		t.Logf("width %d: %d shrinks, %d kept", c.width, shrinks, len(got.c))
	}
}
