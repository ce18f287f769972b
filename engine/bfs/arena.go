package bfs

import "sync/atomic"

// wordArena is one block of uint64 words for the big, short-lived arrays
// of a level (the children buffers, the deduplicated partitions), handed
// out by an atomic bump pointer and released all at once. On Linux it is
// mapped outside the Go heap and advised to use transparent huge pages, so
// a level of hundreds of megabytes faults in 2 MB at a time instead of
// 4 kB (page faults are a large cost on a virtual machine) and the garbage
// collector has nothing to do with it. Elsewhere, or if the mapping fails,
// it is an ordinary slice.
//
// The words must not be used after release.
type wordArena struct {
	mem   []uint64
	next  atomic.Int64
	unmap func()
}

// newWordArena returns an arena of n words.
func newWordArena(n int) *wordArena {
	a := &wordArena{}
	if n <= 0 {
		return a
	}
	if mem, unmap, ok := mapWords(n); ok {
		a.mem, a.unmap = mem, unmap
	}
	// Else (no mapping: not Linux, or the address space is limited) an
	// empty arena: every alloc comes from the heap, growing with what is
	// used rather than reserving n words up front.
	return a
}

// alloc returns an empty slice with room for n words, from the arena if it
// has room (safe for concurrent use), else from the Go heap. Words from a
// reused arena are not zero.
func (a *wordArena) alloc(n int) []uint64 {
	if a != nil && n > 0 {
		end := a.next.Add(int64(n))
		if end <= int64(len(a.mem)) {
			return a.mem[end-int64(n) : end-int64(n) : end]
		}
	}
	return make([]uint64, 0, n)
}

// reuse returns a emptied, if it holds n words, else a fresh arena of n
// words (a is then released). A reused arena keeps the pages the kernel
// has already mapped and zeroed (on a virtual machine zeroing fresh pages
// is a cost of its own); its words are no longer zero, so callers write
// before they read.
func (a *wordArena) reuse(n int) *wordArena {
	if a != nil && len(a.mem) >= n {
		a.next.Store(0)
		return a
	}
	a.release()
	return newWordArena(n)
}

// release unmaps the arena.
func (a *wordArena) release() {
	if a == nil {
		return
	}
	if a.unmap != nil {
		a.unmap()
	}
	a.mem, a.unmap = nil, nil
}
