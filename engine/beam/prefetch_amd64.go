//go:build !purego

package beam

// prefetch asks the processor to bring the memo entry e into the cache
// (both lines it may span); it only hints, so it changes no value.
//
//go:noescape
func prefetch(e *qentry)

// prefetchSlot asks the processor to bring the hash-table slot s into
// the cache; it only hints.
//
//go:noescape
func prefetchSlot(s *uint64)
