package bfs

import "os"

// A level is a set of states (the wells after some number of pieces) and
// its set hash. Its states live in a store of one kind per storage mode:
//
//	memLevel   memory mode: sorted partitions of words, in memory
//	dirLevel   disk mode (Options.SpillDir): a file per partition
//	runLevel   compressed levels (Options.Compress): one compressed run
//	           of the plain keys, in memory (compressedrun.go, compress.go)
//	fileRunLevel  compressed disk mode: a compressed run in files
//	           (compressdisk.go)
//
// The two partitioned kinds (partStore) are what the deduplication fills,
// partition by partition, and what level files are written from.
type level struct {
	store  levelStore
	P      int       // the search's partitions
	hash   [2]uint64 // the set hash (see setHash), once hashed
	hashed bool
}

// levelStore holds a level's states.
type levelStore interface {
	// size is the number of states; storedBytes the memory (or disk)
	// that holds them.
	size() int64
	storedBytes() int64
	// units is the number of pieces the expansion takes one at a time
	// (partitions or blocks); expandUnit expands unit i into w's
	// buffers, setting w.err on an error.
	units() int
	expandUnit(w *worker, c *codec, sc scorer, i int, track bool)
	// release frees the states (memory, files).
	release()
}

// partStore is a store of sorted partitions of words.
type partStore interface {
	levelStore
	// part returns partition p; a store on disk reads it into scratch
	// (onDisk), which the caller may then reuse.
	part(p int, scratch []uint64) ([]uint64, error)
	onDisk() bool
	// set stores partition p. Goroutines may set distinct partitions at
	// once once reserveChunk has been called for their chunks.
	set(p int, words []uint64) error
	reserveChunk(i int)
	counts() *partArray[int64]
}

// newLevel returns a level of P partitions held by store.
func newLevel(P int, store levelStore) *level { return &level{P: P, store: store} }

// newMemLevel returns an empty memory-mode level of P partitions.
func newMemLevel(P int) *level {
	return newLevel(P, &memLevel{mem: newPartArray[[]uint64](P), count: newPartArray[int64](P)})
}

func (l *level) parts() int         { return l.P }
func (l *level) size() int64        { return l.store.size() }
func (l *level) storedBytes() int64 { return l.store.storedBytes() }

// release frees the level; a nil level (a failed step's) has nothing to
// free.
func (l *level) release() {
	if l == nil || l.store == nil {
		return
	}
	l.store.release()
}

// partitioned returns the level's partitions, if it is held so.
func (l *level) partitioned() (partStore, bool) {
	ps, ok := l.store.(partStore)
	return ps, ok
}

// sumCounts is the states of a partitioned store.
func sumCounts(a *partArray[int64]) int64 {
	n := int64(0)
	a.each(func(_ int, c *int64) { n += *c })
	return n
}

// memLevel: per partition, a sorted array of words in memory.
type memLevel struct {
	mem    partArray[[]uint64]
	count  partArray[int64]
	arena  *wordArena // where the partitions live (nil: the heap)
	shared bool       // the arena belongs to the search, not the level
}

func (l *memLevel) size() int64               { return sumCounts(&l.count) }
func (l *memLevel) storedBytes() int64        { return 8 * l.size() }
func (l *memLevel) units() int                { return l.count.len() }
func (l *memLevel) onDisk() bool              { return false }
func (l *memLevel) counts() *partArray[int64] { return &l.count }

func (l *memLevel) expandUnit(w *worker, c *codec, sc scorer, i int, track bool) {
	w.expandPart(c, sc, uint32(i), l.mem.at(i), track)
}

func (l *memLevel) part(p int, _ []uint64) ([]uint64, error) { return l.mem.at(p), nil }

func (l *memLevel) set(p int, words []uint64) error {
	if len(words) == 0 && l.count.at(p) == 0 && l.mem.at(p) == nil {
		return nil // an empty partition allocates nothing
	}
	*l.count.ref(p) = int64(len(words))
	*l.mem.ref(p) = words
	return nil
}

func (l *memLevel) reserveChunk(i int) {
	l.count.ref(i << partChunkBits)
	l.mem.ref(i << partChunkBits)
}

func (l *memLevel) release() {
	l.mem = partArray[[]uint64]{}
	if !l.shared {
		l.arena.release()
	}
	l.arena = nil
}

// dirLevel: per partition, a file of sorted words (part-NNNNN.bin) in dir.
type dirLevel struct {
	dir   string
	count partArray[int64]
}

func (l *dirLevel) size() int64               { return sumCounts(&l.count) }
func (l *dirLevel) storedBytes() int64        { return 8 * l.size() }
func (l *dirLevel) units() int                { return l.count.len() }
func (l *dirLevel) onDisk() bool              { return true }
func (l *dirLevel) counts() *partArray[int64] { return &l.count }

func (l *dirLevel) expandUnit(w *worker, c *codec, sc scorer, i int, track bool) {
	words, err := l.part(i, w.scratch)
	if err != nil {
		w.err = err
		return
	}
	if words != nil {
		w.scratch = words
	}
	w.expandPart(c, sc, uint32(i), words, track)
}

func (l *dirLevel) part(p int, scratch []uint64) ([]uint64, error) {
	if l.count.at(p) == 0 {
		return nil, nil
	}
	return readWordsFile(partPath(l.dir, p), scratch[:0])
}

func (l *dirLevel) set(p int, words []uint64) error {
	if len(words) == 0 && l.count.at(p) == 0 {
		return nil
	}
	*l.count.ref(p) = int64(len(words))
	if len(words) == 0 {
		return nil
	}
	return writeWordsFile(partPath(l.dir, p), words, false)
}

func (l *dirLevel) reserveChunk(i int) { l.count.ref(i << partChunkBits) }

func (l *dirLevel) release() { os.RemoveAll(l.dir) }

// runLevel: every plain key in increasing order, one compressed run in
// memory.
type runLevel struct{ r *run }

func (l *runLevel) size() int64        { return l.r.n }
func (l *runLevel) storedBytes() int64 { return l.r.size() }
func (l *runLevel) units() int         { return len(l.r.index) }
func (l *runLevel) release()           { l.r = &run{} }

func (l *runLevel) expandUnit(w *worker, c *codec, sc scorer, i int, track bool) {
	w.expandBlock(c, sc, l.r, i, track)
}

// fileRunLevel: a compressed run in files.
type fileRunLevel struct{ r *fileRun }

func (l *fileRunLevel) size() int64        { return l.r.n }
func (l *fileRunLevel) storedBytes() int64 { return l.r.bytes }
func (l *fileRunLevel) units() int         { return len(l.r.blocks) }
func (l *fileRunLevel) release()           { l.r.release() }

func (l *fileRunLevel) expandUnit(w *worker, c *codec, sc scorer, i int, track bool) {
	w.expandFblock(c, sc, l.r, i, track)
}
