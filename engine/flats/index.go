package flats

// keyIndex maps uint64 keys to dense indices 0..n-1 in insertion order:
// an open-addressing table (linear probing, power-of-two size, keys kept
// in the slots so a probe touches one cache line) several times faster
// than a Go map on the counting paths.
type keyIndex struct {
	slots []slot
	keys  []uint64 // in insertion order
	mask  uint64
}

type slot struct {
	key uint64
	idx int32 // index+1, 0 = empty
}

// newKeyIndex returns an empty index with room for about n/2 keys before
// it grows (n a power of two).
func newKeyIndex(n int) *keyIndex {
	return &keyIndex{slots: make([]slot, n), keys: make([]uint64, 0, n/2), mask: uint64(n - 1)}
}

func hash64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// get returns k's index, adding k if it is new (added reports it).
func (t *keyIndex) get(k uint64) (i int, added bool) {
	for h := hash64(k) & t.mask; ; h = (h + 1) & t.mask {
		s := &t.slots[h]
		if s.idx == 0 {
			t.keys = append(t.keys, k)
			s.key, s.idx = k, int32(len(t.keys))
			if uint64(len(t.keys))*2 > t.mask {
				t.grow()
			}
			return len(t.keys) - 1, true
		}
		if s.key == k {
			return int(s.idx - 1), false
		}
	}
}

func (t *keyIndex) grow() {
	t.slots = make([]slot, 2*len(t.slots))
	t.mask = uint64(len(t.slots) - 1)
	for i, k := range t.keys {
		h := hash64(k) & t.mask
		for t.slots[h].idx != 0 {
			h = (h + 1) & t.mask
		}
		t.slots[h] = slot{k, int32(i + 1)}
	}
}
