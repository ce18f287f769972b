package bfs

import (
	"fmt"
	"math/bits"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// deduper turns the unsorted, duplicated children of one partition into a
// sorted set. It inserts them into an open-addressing table indexed by the
// word's leading bits (below the partition bits), so the occupied slots are
// already almost in key order; reading them out and finishing with an
// insertion sort costs little more than the insertions.
type deduper struct {
	table   []uint64
	spill   []uint64
	sources [][]uint64
}

const probeSlack = 1024

// merge deduplicates partition p of the workers' buffers (and of their
// spill files, read back): the sorted set of its distinct words, in arena
// (nil: the heap). The buffers are emptied. The stages: gather the
// sources, insert them into the table, read the table out in order.
func (d *deduper) merge(workers []*worker, p int, wordPart uint, arena *wordArena) ([]uint64, error) {
	sources, n, err := d.gather(workers, p)
	defer func() { clear(sources); d.sources = sources[:0] }()
	if err != nil || n == 0 {
		return nil, err
	}
	// A table of 2^tb >= 1.25n slots: at most 80% full. The keys are
	// hashes and land almost in order, so probes stay short.
	tb := uint(bits.Len(uint(n + n/4)))
	size := 1 << tb
	if cap(d.table) < size+probeSlack {
		d.table = make([]uint64, size+probeSlack)
	}
	t := d.table[:size+probeSlack]
	clear(t)
	var out []uint64
	if uniq, hasZero, ok := insertAll(t, sources, wordPart, tb); !ok {
		// Pathological clustering: plain sort and compact.
		out = make([]uint64, 0, n)
		for _, src := range sources {
			out = append(out, src...)
		}
		slices.Sort(out)
		out = slices.Clip(slices.Compact(out))
	} else {
		out = readTable(t, uniq, hasZero, arena)
	}
	for _, w := range workers {
		if b := w.out.at(p); b != nil {
			*w.out.ref(p) = b[:0]
		}
	}
	return out, nil
}

// gather returns the sources of partition p, the workers' buffers and,
// read back into d.spill, their spilled files (removed), and the number
// of words in all.
func (d *deduper) gather(workers []*worker, p int) (sources [][]uint64, n int, err error) {
	spilled := false
	for _, w := range workers {
		n += len(w.out.at(p)) + int(w.spilled.at(p))
		spilled = spilled || w.spilled.at(p) > 0
	}
	sources = d.sources[:0]
	if n == 0 {
		return sources, 0, nil
	}
	// Spilled children are read back next to the ones still in memory.
	if spilled {
		all := d.spill[:0]
		for _, w := range workers {
			if w.spilled.at(p) > 0 {
				var err error
				if all, err = readWordsFile(spillPath(w.spillDir, w.id, p), all); err != nil {
					return sources, n, err
				}
				os.Remove(spillPath(w.spillDir, w.id, p))
				*w.spilled.ref(p) = 0
			}
		}
		d.spill = all
		sources = append(sources, all)
	}
	for _, w := range workers {
		sources = append(sources, w.out.at(p))
	}
	return sources, n, nil
}

// insertAll inserts the words of sources into the open-addressing table t
// (2^tb slots and the probe slack, cleared), indexed by the word's bits
// below the partition's: uniq distinct nonzero words, and whether 0 was
// among them (0 marks an empty slot). ok is false when a probe ran off the
// table's end (pathological clustering).
func insertAll(t []uint64, sources [][]uint64, wordPart, tb uint) (uniq int, hasZero, ok bool) {
	for _, src := range sources {
		for _, x := range src {
			if x == 0 {
				if !hasZero {
					hasZero = true
					uniq++
				}
				continue
			}
			i := int((x << wordPart) >> (64 - tb)) // 0 when tb is 0
			for t[i] != 0 && t[i] != x {
				i++
				if i == len(t) {
					return uniq, hasZero, false
				}
			}
			if t[i] == 0 {
				t[i] = x
				uniq++
			}
		}
	}
	return uniq, hasZero, true
}

// readTable reads the table's words out in order (uniq of them, 0 first
// when hasZero) into arena: compacted without a branch per slot (every
// slot is written, and the next one overwrites it unless it was occupied;
// one spare word takes the last write), then sorted by insertion (the
// slots are almost in order).
func readTable(t []uint64, uniq int, hasZero bool, arena *wordArena) []uint64 {
	o := arena.alloc(uniq + 1)[:uniq+1]
	k := 0
	if hasZero {
		o[0], k = 0, 1
	}
	for _, x := range t {
		o[k] = x
		if x != 0 {
			k++
		}
	}
	out := o[:uniq:uniq]
	insertionSort(out)
	return out
}

// insertionSort sorts an almost sorted slice.
func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		if a[i-1] <= x {
			continue
		}
		j := i - 1
		for j >= 0 && a[j] > x {
			a[j+1] = a[j]
			j--
		}
		a[j+1] = x
	}
}

// dedupLevel merges the workers' buffers (and spilled files) of every
// partition into a sorted set stored in next, in parallel over partitions,
// and empties the buffers.
func dedupLevel(c *codec, workers []*worker, next *level) error {
	var np atomic.Int64
	var wg sync.WaitGroup
	// Bits of a word that select its partition (they are equal within one).
	wordPart := c.s
	if c.k == 0 {
		wordPart = c.pb
	}
	ps, ok := next.partitioned()
	if !ok {
		return fmt.Errorf("bfs: internal error: deduplicating into a level that is not partitioned")
	}
	var arena *wordArena
	if m, ok := ps.(*memLevel); ok {
		arena = m.arena
	}
	// The chunks of next's partitions that may get states are allocated
	// now: the workers then set partitions in parallel.
	for i := range ps.counts().chunks {
		for _, w := range workers {
			if w.out.chunkUsed(i) || w.spilled.chunkUsed(i) {
				ps.reserveChunk(i)
				break
			}
		}
	}
	errs := make([]error, len(workers))
	hashes := make([][2]uint64, len(workers))
	// The workers take the partitions up to a chunk of the partition
	// arrays at a time (64; a sixteenth of a worker's share if less: 8
	// of 256 for two workers), and sum their hashes locally: taken one at
	// a time, two workers wrote the same cache lines partition after
	// partition, and the first levels of a well of 2^24 partitions (11x8)
	// took three times the CPU.
	P := next.parts()
	batch := max(1, min(1<<partChunkBits, P/(16*len(workers))))
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := &workers[i].dedup
			var sum [2]uint64
			defer func() { hashes[i] = sum }()
			for {
				p0 := int(np.Add(int64(batch)) - int64(batch))
				if p0 >= P {
					return
				}
				for p := p0; p < min(p0+batch, P); p++ {
					words, err := d.merge(workers, p, wordPart, arena)
					if err == nil {
						h := partHash(p, words)
						sum[0] += h[0]
						sum[1] += h[1]
						err = ps.set(p, words)
					}
					if err != nil {
						errs[i] = err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	next.hash, next.hashed = [2]uint64{}, true
	for _, h := range hashes {
		next.hash[0] += h[0]
		next.hash[1] += h[1]
	}
	for _, w := range workers {
		w.buffered = 0
	}
	return firstError(errs)
}

// setHash is an order-independent 128-bit hash of the level's wells
// (computed by the deduplication or, for a compressed level, when it is
// made; here for a partitioned level read or seeded).
func (l *level) setHash() [2]uint64 {
	ps, ok := l.partitioned()
	if l.hashed || !ok {
		return l.hash
	}
	var scratch []uint64
	for p := 0; p < l.parts(); p++ {
		words, _ := ps.part(p, scratch)
		h := partHash(p, words)
		l.hash[0] += h[0]
		l.hash[1] += h[1]
		if ps.onDisk() && words != nil {
			scratch = words
		}
	}
	l.hashed = true
	return l.hash
}

// partHash is partition p's share of a level's set hash.
func partHash(p int, words []uint64) [2]uint64 {
	var h [2]uint64
	for _, w := range words {
		x := w ^ uint64(p)*seedA
		h[0] += mix(x)
		h[1] += mix(x ^ seedB)
	}
	return h
}

// firstError is the first of the workers' errors (one line, where
// errors.Join would give one per worker that failed the same way).
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
