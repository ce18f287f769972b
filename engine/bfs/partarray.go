package bfs

// partArray is one value per partition, allocated a chunk of partitions at
// a time when first written. A wide, tall well has millions of partitions
// (2^(B-64) for a key of B > 72 bits: 16 M for 11x8), while its first
// levels hold a few hundred states: arrays sized from the well's geometry
// took gigabytes before the search had done anything (issue 30); these
// grow with the states that are there. Reading a partition never written
// gives the zero value. ref allocates: goroutines that write partitions of
// one array in parallel allocate its chunks first (ref on one partition
// of each).
type partArray[T any] struct {
	chunks [][]T
	n      int
}

// partChunkBits is the log2 of a chunk's partitions.
const partChunkBits = 6

// newPartArray returns an array of n partitions, none allocated.
func newPartArray[T any](n int) partArray[T] {
	return partArray[T]{chunks: make([][]T, (n+1<<partChunkBits-1)>>partChunkBits), n: n}
}

// len is the number of partitions.
func (a *partArray[T]) len() int { return a.n }

// at returns partition p's value (zero if never written).
func (a *partArray[T]) at(p int) T {
	if c := a.chunks[p>>partChunkBits]; c != nil {
		return c[p&(1<<partChunkBits-1)]
	}
	var zero T
	return zero
}

// ref returns partition p's value to write, allocating its chunk.
func (a *partArray[T]) ref(p int) *T {
	i := p >> partChunkBits
	c := a.chunks[i]
	if c == nil {
		c = make([]T, min(1<<partChunkBits, a.n-i<<partChunkBits))
		a.chunks[i] = c
	}
	return &c[p&(1<<partChunkBits-1)]
}

// chunkUsed reports whether chunk i (partitions i<<partChunkBits..) is
// allocated.
func (a *partArray[T]) chunkUsed(i int) bool { return a.chunks[i] != nil }

// each calls f for every partition allocated (a superset of those
// written), in increasing order.
func (a *partArray[T]) each(f func(p int, v *T)) {
	for i, c := range a.chunks {
		for j := range c {
			f(i<<partChunkBits+j, &c[j])
		}
	}
}

// slice returns the values as one slice of n (for a level file's header).
func (a *partArray[T]) slice() []T {
	out := make([]T, a.n)
	for i, c := range a.chunks {
		copy(out[i<<partChunkBits:], c)
	}
	return out
}
