package bfs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomKeys returns n distinct sorted keys as (hi, lo) pairs, hi below
// 2^hiBits.
func randomKeys(rng *rand.Rand, n int, hiBits uint) []uint64 {
	type k struct{ hi, lo uint64 }
	seen := map[k]bool{}
	var ks []k
	for len(ks) < n {
		x := k{rng.Uint64() & (1<<hiBits - 1), rng.Uint64()}
		if !seen[x] {
			seen[x] = true
			ks = append(ks, x)
		}
	}
	slices.SortFunc(ks, func(a, b k) int {
		if less128(a.hi, a.lo, b.hi, b.lo) {
			return -1
		}
		return 1
	})
	out := make([]uint64, 0, 2*n)
	for _, x := range ks {
		out = append(out, x.hi, x.lo)
	}
	return out
}

func TestRunRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dense := make([]uint64, 0, 2*10000)
	for i := uint64(0); i < 10000; i++ {
		dense = append(dense, 0, 1000+i)
	}
	cases := []struct {
		name string
		keys []uint64
	}{
		{"empty", nil},
		{"one key", []uint64{0, 42}},
		{"zero key", []uint64{0, 0}},
		{"max key", []uint64{math.MaxUint64, math.MaxUint64}},
		{"max delta", []uint64{0, 0, math.MaxUint64, math.MaxUint64}},
		{"carry", []uint64{0, math.MaxUint64, 1, 0, 1, math.MaxUint64, 2, 0}},
		{"64-bit deltas", []uint64{0, 0, 0, math.MaxUint64}},
		{"a full block", dense[:2*runBlockKeys]},
		{"a block and one", dense[:2*runBlockKeys+2]},
		{"dense", dense},
		{"random 64-bit", randomKeys(rng, 9000, 0)},
		{"random 80-bit", randomKeys(rng, 9000, 16)},
		{"random 128-bit", randomKeys(rng, 5000, 64)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := encodeRun(tc.keys)
			if r.n != int64(len(tc.keys)/2) {
				t.Fatalf("n = %d, want %d", r.n, len(tc.keys)/2)
			}
			if want := (len(tc.keys)/2 + runBlockKeys - 1) / runBlockKeys; len(r.index) != want {
				t.Fatalf("%d blocks, want %d", len(r.index), want)
			}
			var got []uint64
			for i := range r.index {
				got = r.block(i, got)
			}
			if !slices.Equal(got, tc.keys) && len(tc.keys) > 0 {
				t.Fatalf("block: keys differ")
			}
			p, err := parseRun(r.data)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.index, r.index) || p.n != r.n {
				t.Fatalf("parseRun: index %v n %d, want %v %d", p.index, p.n, r.index, r.n)
			}
			got = got[:0]
			for off := 0; off < len(r.data); {
				var size int
				got, size, err = decodeBlock(r.data[off:], got)
				if err != nil {
					t.Fatal(err)
				}
				off += size
			}
			if !slices.Equal(got, tc.keys) && len(tc.keys) > 0 {
				t.Fatalf("decodeBlock: keys differ")
			}
		})
	}
}

// TestRunDamaged: a flipped byte anywhere in a run is refused (the header
// checks or the checksum), never a panic.
func TestRunDamaged(t *testing.T) {
	r := encodeRun(randomKeys(rand.New(rand.NewPCG(3, 4)), 300, 8))
	for i := range r.data {
		d := slices.Clone(r.data)
		d[i] ^= 0x41
		if _, err := parseRun(d); err == nil {
			t.Fatalf("byte %d flipped: accepted", i)
		}
	}
	if _, err := parseRun(r.data[:len(r.data)-1]); err == nil {
		t.Fatal("truncated run accepted")
	}
}

func TestVarint128(t *testing.T) {
	for _, v := range [][2]uint64{{0, 0}, {0, 127}, {0, 128}, {0, math.MaxUint64}, {1, 0}, {math.MaxUint64, math.MaxUint64}, {1 << 63, 0}} {
		b := appendVarint128(nil, v[0], v[1])
		hi, lo, n := readVarint128(b)
		if n != len(b) || hi != v[0] || lo != v[1] {
			t.Errorf("%x: read %x %x %d of %d bytes", v, hi, lo, n, len(b))
		}
	}
	for _, v := range [][2]uint64{{0, 0}, {0, 1}, {0, 127}, {0, 128}, {0, 1 << 63}, {0, math.MaxUint64}, {1, 0}, {3, 5}, {1 << 40, 0}, {math.MaxUint64, 0}} {
		if got, want := varintLen128(v[0], v[1]), len(appendVarint128(nil, v[0], v[1])); got != want {
			t.Errorf("varintLen128(%x) = %d, want %d", v, got, want)
		}
	}
	if _, _, n := readVarint128([]byte{0x80, 0x00}); n != 0 {
		t.Error("overlong varint accepted")
	}
}

// FuzzDecodeBlock: any bytes either parse into a run whose keys encode back
// to the same bytes, or are refused; never a panic.
func FuzzDecodeBlock(f *testing.F) {
	f.Add(encodeRun([]uint64{0, 1, 0, 300, 5, 0}).data)
	f.Add(encodeRun(randomKeys(rand.New(rand.NewPCG(5, 6)), 50, 64)).data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseRun(data)
		if err != nil {
			return
		}
		var keys []uint64
		for i := range r.index {
			keys = r.block(i, keys)
		}
		if int64(len(keys)/2) != r.n {
			t.Fatalf("%d keys, run says %d", len(keys)/2, r.n)
		}
		// Blocks may hold fewer than runBlockKeys keys, so re-encode
		// block by block.
		var again []byte
		for i := range r.index {
			one := r.block(i, nil)
			again = append(again, encodeRun(one).data...)
		}
		if string(again) != string(data) {
			t.Fatalf("re-encoded bytes differ")
		}
	})
}

// TestSortWords: the radix sort sorts like slices.Sort, for every width,
// with repeated words and with digits shared by all words.
func TestSortWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		n     int
		width uint
		mask  uint64
	}{{0, 64, math.MaxUint64}, {1, 64, math.MaxUint64}, {511, 64, math.MaxUint64}, {512, 64, math.MaxUint64}, {5000, 64, math.MaxUint64},
		{5000, 43, 1<<43 - 1}, {5000, 43, 0x7ff << 20}, {3000, 11, 1<<11 - 1}, {4000, 1, 1}, {2000, 0, 0}} {
		a := make([]uint64, tc.n)
		for i := range a {
			a[i] = rng.Uint64() & tc.mask
		}
		want := slices.Clone(a)
		slices.Sort(want)
		var tmp []uint64
		tmp = sortWords(a, tmp, tc.width)
		if !slices.Equal(a, want) {
			t.Errorf("n %d width %d: not sorted", tc.n, tc.width)
		}
		_ = tmp
	}
}
