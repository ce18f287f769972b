package flats

// keyIndex maps keys below 2^keyBits to dense indices 0..n-1 in insertion
// order: an open-addressing table (linear probing, power-of-two size)
// whose slots are single words, key<<idxBits | index+1 (0 = empty), so a
// probe touches one word and the table stays small enough for the cache;
// several times faster than a Go map on the counting paths.
type keyIndex struct {
	slots []uint64
	keys  []uint64 // in insertion order
	mask  uint64
}

const (
	// keyBits bounds the keys: an edge key is two compact states of 18
	// bits (compactState), a pair key two rows of at most MaxWidth bits.
	keyBits = 36
	// idxBits bounds the indices: fewer than 2^28 keys. An edge leaves
	// one of at most MaxDepth<<MaxWidth live states (or Empty) for one of
	// fewer than 64 others (a grow adds one run of 1..4 cells, a fall
	// lowers by 1..4 rows, or a sink), well under 2^28 in all.
	idxBits = 64 - keyBits
	idxMask = 1<<idxBits - 1
)

// newKeyIndex returns an empty index with room for about n/2 keys before
// it grows (n a power of two).
func newKeyIndex(n int) *keyIndex {
	return &keyIndex{slots: make([]uint64, n), keys: make([]uint64, 0, n/2), mask: uint64(n - 1)}
}

func hash64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// get returns k's index, adding k if it is new (added reports it). k must
// be below 2^keyBits.
func (t *keyIndex) get(k uint64) (i int, added bool) {
	for h := hash64(k) & t.mask; ; h = (h + 1) & t.mask {
		s := t.slots[h]
		if s == 0 {
			t.keys = append(t.keys, k)
			t.slots[h] = k<<idxBits | uint64(len(t.keys))
			if uint64(len(t.keys))*2 > t.mask {
				t.grow()
			}
			return len(t.keys) - 1, true
		}
		if s>>idxBits == k {
			return int(s&idxMask) - 1, false
		}
	}
}

func (t *keyIndex) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	t.mask = uint64(len(t.slots) - 1)
	for i, k := range t.keys {
		h := hash64(k) & t.mask
		for t.slots[h] != 0 {
			h = (h + 1) & t.mask
		}
		t.slots[h] = k<<idxBits | uint64(i+1)
	}
}
