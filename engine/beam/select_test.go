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

// TestMergePools: the tournament merge of k pools emits exactly the best
// width distinct children of all of them (each with its first copy in
// order), as sorting every child would, for pool counts that are and are
// not powers of two, on seeded random children with duplicates within and
// across pools and ties in value; the pools compacted (sorted,
// deduplicated) or finished with a sorted best share of 0, 1, 5 or 50
// children (merge sorts the rest of a pool when it gets there) or more
// than they hold.
func TestMergePools(t *testing.T) {
	for _, k := range []int{1, 2, 3, 5, 8, 16, 17} {
		for _, width := range []int{1, 7, 100, 1000} {
			for _, share := range []int{-1, 0, 1, 5, 50, 1 << 20} {
				mergePools(t, k, width, share)
			}
		}
	}
}

// mergePools checks merge on k pools, compacted (share < 0) or finished
// with share.
func mergePools(t *testing.T, k, width, share int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(k), uint64(width)))
	pools := make([]*pool, k)
	for i := range pools {
		pools[i] = &pool{}
		pools[i].reset(width)
	}
	var all []cand
	for i := 0; i < 4*width+50; i++ {
		x := rng.IntN(2*width + 10)
		var c cand
		c.well[15] = uint16(x)
		c.score = int32(x % 3)
		c.value = float64(x%11) + float64(c.score)/4
		c.from = uint32(i) << 8
		all = append(all, c)
		p := pools[rng.IntN(k)]
		p.c = append(p.c, c) // below the limit: no shrink
	}
	for _, p := range pools {
		if share < 0 {
			p.compact()
		} else {
			p.finish(share)
		}
	}
	slices.SortFunc(all, cmpCand)
	var want []cand
	for i := range all {
		if len(want) == width {
			break
		}
		if len(want) > 0 && sameKey(&all[i], &want[len(want)-1]) {
			continue
		}
		want = append(want, all[i])
	}
	var got []cand
	merge(pools, width, func(c *cand) { got = append(got, *c) })
	if !slices.Equal(got, want) {
		t.Fatalf("%d pools, width %d, share %d: merged %d children, want %d (or different ones)", k, width, share, len(got), len(want))
	}
}
