package bfs

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Compressed levels (Options.Compress). The children are generated and
// deduplicated as in memory mode (per-partition buffers, one hash table a
// partition), giving the next level as sorted partitions of mixed words;
// compressLevel then turns that level into one run (compressedrun.go) of its plain
// keys in increasing order, which is what the search keeps: about 2.5 to 3
// bytes a state instead of 8. Sorted plain keys compress where the mixed
// words do not: the mix spreads the wells over the whole key space, while
// the plain keys of a level share their bottom rows. Workers expand the run
// block by block (each block decodes on its own); the checkpoint saves the
// run itself (frontier-NNNNN.run); level files (Options.LevelDir) keep
// their format, written from the partitions before they are compressed.
//
// The conversion sorts the plain keys without comparing 128-bit values:
// every key goes to a bucket of its top bb bits (a counting sort, workers
// scattering into disjoint ranges), each bucket is sorted as 64-bit
// remainders, and the blocks are encoded in parallel at fixed positions
// (block i holds keys 4096i.. of the level), so the run's bytes do not
// depend on the number of workers.

// runFileMagic starts a compressed frontier file: the magic, the partition
// count of the search, the keys, the bytes of the run, the run (blocks as
// in compressedrun.go), then the CRC-32C of everything before it, all integers
// little-endian uint64.
const runFileMagic = "HLBFSRN1"

// wideBucketsPast is the number of keys past which a sort takes 20-bit
// buckets (bucketBits): a million; a variable so that tests reach the
// wide buckets with small searches.
var wideBucketsPast int64 = 1 << 20

// bucketBits returns the bits of the bucket (the top bits of a B-bit
// plain key) for sorting n keys, and the shift of the remainder below it
// (at most 64): 16 bits, 20 past a million keys (smaller buckets sort
// faster), more when the key has more than 80 bits.
func (c *codec) bucketBits(n int64) (bb, shift uint) {
	B := c.width * c.height
	want := 16
	if n > wideBucketsPast {
		want = 20
	}
	b := min(B, max(want, B-64))
	return uint(b), uint(B - b)
}

// buckets splits B-bit plain keys into a bucket (their top bits) and a
// remainder of at most 64 bits below it (shift bits), for the counting
// sorts of compressLevel and spillRun.
type buckets struct {
	n       int // 1 << bits
	shift   uint
	remMask uint64
}

// newBuckets returns the bucketing for sorting n keys (bucketBits).
func (c *codec) newBuckets(n int64) buckets {
	bb, shift := c.bucketBits(n)
	b := buckets{n: 1 << bb, shift: shift, remMask: ^uint64(0)}
	if shift < 64 {
		b.remMask = 1<<shift - 1
	}
	return b
}

// of returns the bucket of the key (hi, lo) and its remainder.
func (b buckets) of(hi, lo uint64) (int, uint64) {
	if b.shift == 64 {
		return int(hi), lo
	}
	return int(hi<<(64-b.shift) | lo>>b.shift), lo & b.remMask
}

// key is the inverse of of: the key of remainder rem in bucket k.
func (b buckets) key(k int, rem uint64) (hi, lo uint64) {
	if b.shift == 64 {
		return uint64(k), rem
	}
	return uint64(k) >> (64 - b.shift), uint64(k)<<b.shift | rem
}

// compressLevel returns the level of next's states as one compressed run
// (next keeps its partitions, in their arena; the caller drops it). It
// uses s.arenas[1] as scratch. The stages: count every bucket's keys per
// worker (bucketStarts), scatter the remainders into the scratch, sort
// every bucket, encode the blocks (encodeRun).
func (s *searcher) compressLevel(next *level) (*level, error) {
	n := next.size()
	m, ok := next.store.(*memLevel)
	if !ok {
		return nil, fmt.Errorf("bfs: internal error: compressing a level not in memory")
	}
	out := &level{P: next.P, hash: next.hash, hashed: next.hashed}
	if n == 0 {
		out.store = &runLevel{&run{}}
		return out, nil
	}
	bk := s.c.newBuckets(n)
	if few(n, bk.n) {
		out.store = &runLevel{sortedRun(sortedKeys(s.c, m))}
		return out, nil
	}
	start := s.bucketStarts(m, bk)
	scratch := s.compressScratch(n)
	// Scatter: worker i writes its keys of bucket b from its offset.
	s.parallel(func(i int) {
		h := s.hist[i]
		s.eachKeyOf(m, i, func(hi, lo uint64) {
			b, rem := bk.of(hi, lo)
			scratch[h[b]] = rem
			h[b]++
		})
	})
	// Sort every bucket (workers take 64 buckets at a time).
	var nextB atomic.Int64
	s.parallel(func(i int) {
		w := s.workers[i]
		for {
			b0 := int(nextB.Add(64) - 64)
			if b0 >= bk.n {
				return
			}
			for b := b0; b < min(b0+64, bk.n); b++ {
				w.radix = sortWords(scratch[start[b]:start[b+1]], w.radix, bk.shift)
			}
		}
	})
	r, err := s.encodeRun(bk, start, scratch)
	if err != nil {
		return nil, err
	}
	out.store = &runLevel{r}
	return out, nil
}

// parallel runs f(i) for every worker i and waits.
func (s *searcher) parallel(f func(i int)) {
	var wg sync.WaitGroup
	for i := range s.workers {
		wg.Add(1)
		go func() { defer wg.Done(); f(i) }()
	}
	wg.Wait()
}

// eachKeyOf calls f on the plain keys of worker i's share of m's
// partitions (a fixed range of them).
func (s *searcher) eachKeyOf(m *memLevel, i int, f func(hi, lo uint64)) {
	P, W := m.count.len(), len(s.workers)
	for p := i * P / W; p < (i+1)*P/W; p++ {
		for _, w := range m.mem.at(p) {
			f(s.c.decodeKey(uint32(p), w))
		}
	}
}

// bucketStarts counts the keys of every bucket per worker and returns
// where each bucket starts in the sorted order; s.hist[i][b] is then where
// worker i writes its first key of bucket b (after the workers before it).
func (s *searcher) bucketStarts(m *memLevel, bk buckets) []int64 {
	W := len(s.workers)
	if len(s.hist) != W || len(s.hist[0]) != bk.n+1 {
		s.hist = make([][]int64, W)
		for i := range s.hist {
			s.hist[i] = make([]int64, bk.n+1)
		}
	}
	s.parallel(func(i int) {
		h := s.hist[i]
		clear(h)
		s.eachKeyOf(m, i, func(hi, lo uint64) {
			b, _ := bk.of(hi, lo)
			h[b]++
		})
	})
	start := make([]int64, bk.n+1)
	var total int64
	for b := 0; b < bk.n; b++ {
		start[b] = total
		for i := 0; i < W; i++ {
			k := s.hist[i][b]
			s.hist[i][b] = total
			total += k
		}
	}
	start[bk.n] = total
	return start
}

// compressScratch returns n words of scratch: the largest worker arena
// when it holds the level (its children are merged by now, and it is
// emptied before the next expansion), else arenas[1].
func (s *searcher) compressScratch(n int64) []uint64 {
	var scratch []uint64
	for _, w := range s.workers {
		if w.arena != nil && int64(len(w.arena.mem)) >= n && (scratch == nil || len(w.arena.mem) > cap(scratch)) {
			scratch = w.arena.mem
		}
	}
	if scratch == nil {
		a := &s.arenas[1]
		*a = (*a).reuse(int(n))
		scratch = (*a).alloc(int(n))
	}
	return scratch[:n]
}

// encodeRun encodes the sorted remainders (scratch, bucket b from
// start[b]) as one run, worker i the blocks [i*blocks/W, (i+1)*blocks/W):
// a first pass measures each worker's bytes, so that the second encodes
// straight into its place in the run.
func (s *searcher) encodeRun(bk buckets, start []int64, scratch []uint64) (*run, error) {
	W, n := len(s.workers), int64(len(scratch))
	blocks := int((n + runBlockKeys - 1) / runBlockKeys)
	walk := func(i int, f func(hi, lo uint64)) {
		b0, b1 := i*blocks/W, (i+1)*blocks/W
		from, to := int64(b0)*runBlockKeys, min(int64(b1)*runBlockKeys, n)
		if from >= to {
			return
		}
		b := sort.Search(bk.n, func(b int) bool { return start[b+1] > from }) // the bucket of position from
		for j := from; j < to; j++ {
			for start[b+1] <= j {
				b++
			}
			f(bk.key(b, scratch[j]))
		}
	}
	sizes := make([]int, W+1)
	s.parallel(func(i int) {
		var m runMeter
		walk(i, m.add)
		sizes[i+1] = m.size
	})
	for i := 0; i < W; i++ {
		sizes[i+1] += sizes[i]
	}
	r := &run{data: make([]byte, sizes[W]), index: make([]int64, blocks), n: n}
	bad := make([]bool, W)
	s.parallel(func(i int) {
		e := newRunEncoder(r.data[sizes[i]:sizes[i]:sizes[i+1]])
		e.index = r.index[i*blocks/W : i*blocks/W : (i+1)*blocks/W]
		walk(i, e.add)
		e.close()
		// In place, or the meter was wrong.
		bad[i] = len(e.data) != sizes[i+1]-sizes[i] || len(e.index) != (i+1)*blocks/W-i*blocks/W ||
			len(e.data) > 0 && &e.data[0] != &r.data[sizes[i]]
		for j := range e.index {
			e.index[j] += int64(sizes[i])
		}
	})
	if slices.Contains(bad, true) {
		return nil, fmt.Errorf("bfs: internal error: a compressed run's size was mismeasured")
	}
	return r, nil
}

// few reports whether n keys are too few for a counting sort over nb
// buckets: a key of more than 80 bits needs 2^(B-64) buckets (16 M for
// 11x8), whose counts alone would take gigabytes for a level of a few
// hundred states; such a level is sorted by comparison instead (the same
// keys in the same order: the same run).
func few(n int64, nb int) bool { return int64(nb) > 16*n }

// sortedKeys returns the plain keys of next's states in increasing order.
func sortedKeys(c *codec, next *memLevel) [][2]uint64 {
	keys := make([][2]uint64, 0, next.size())
	next.mem.each(func(p int, words *[]uint64) {
		for _, w := range *words {
			hi, lo := c.decodeKey(uint32(p), w)
			keys = append(keys, [2]uint64{hi, lo})
		}
	})
	slices.SortFunc(keys, cmpPair)
	return keys
}

// sortedRun encodes keys (increasing) as one run, as compressLevel's
// workers do block by block.
func sortedRun(keys [][2]uint64) *run {
	e := newRunEncoder(nil)
	for _, k := range keys {
		e.add(k[0], k[1])
	}
	e.close()
	return &run{data: e.data, index: e.index, n: int64(len(keys))}
}

// sortWords sorts a, whose words have at most width bits: a radix sort
// (least significant 11-bit digit first, skipping the digits all words
// share) for long slices, with tmp as its buffer (grown if needed and
// returned), pdqsort for short ones.
func sortWords(a, tmp []uint64, width uint) []uint64 {
	n := len(a)
	if n < 512 {
		if n > 1 {
			slices.Sort(a)
		}
		return tmp
	}
	if cap(tmp) < n {
		tmp = make([]uint64, n)
	}
	src, dst := a, tmp[:n]
	var count [1 << 11]int
	for shift := uint(0); shift < width; shift += 11 {
		clear(count[:])
		for _, x := range src {
			count[(x>>shift)&(1<<11-1)]++
		}
		if count[(src[0]>>shift)&(1<<11-1)] == n {
			continue // one digit: nothing to move
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, x := range src {
			d := (x >> shift) & (1<<11 - 1)
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return tmp
}

// runMeter counts the bytes a runEncoder would write for the same keys.
type runMeter struct {
	size, count    int
	prevHi, prevLo uint64
}

func (m *runMeter) add(hi, lo uint64) {
	if m.count%runBlockKeys == 0 {
		m.size += runHeaderSize
	} else {
		dlo := lo - m.prevLo
		dhi := hi - m.prevHi
		if lo < m.prevLo {
			dhi--
		}
		m.size += varintLen128(dhi, dlo)
	}
	m.prevHi, m.prevLo = hi, lo
	m.count++
}

// varintLen128 is the length of appendVarint128(nil, hi, lo).
func varintLen128(hi, lo uint64) int {
	b := 128 - bits.LeadingZeros64(hi)
	if hi == 0 {
		b = bits.Len64(lo)
	}
	return max(1, (b+6)/7)
}

// runHash is the set hash (setHash) of a run's states.
func runHash(c *codec, r *run) [2]uint64 {
	var h [2]uint64
	var keys []uint64
	for i := range r.index {
		keys = r.block(i, keys[:0])
		for j := 0; j < len(keys); j += 2 {
			p, w := c.encodeKey(keys[j], keys[j+1])
			x := w ^ uint64(p)*seedA
			h[0] += mix(x)
			h[1] += mix(x ^ seedB)
		}
	}
	return h
}

// expandBlock expands the states of block i of run r into the worker's
// buffers, as expandPart does for a partition.
func (w *worker) expandBlock(c *codec, sc scorer, r *run, i int, track bool) {
	w.keys = r.block(i, w.keys[:0])
	w.expandKeys(c, sc, track)
}

// expandKeys expands the states of w.keys (pairs of key words), as
// expandPart does for a partition, and counts them.
func (w *worker) expandKeys(c *codec, sc scorer, track bool) {
	for j := 0; j < len(w.keys); j += 2 {
		if !w.expandState(c, sc, w.keys[j], w.keys[j+1], track) {
			return
		}
	}
	w.expanded.Add(int64(len(w.keys) / 2))
}

// writeRunFile writes the run of l as a compressed frontier file and
// returns its checksum.
func writeRunFile(w io.Writer, l *level) (uint32, error) {
	r := l.store.(*runLevel).r
	return writeRunFrame(w, l.parts(), r.n, int64(len(r.data)), func(cw io.Writer) error {
		_, err := cw.Write(r.data)
		return err
	})
}

// writeRunFrame writes a compressed frontier file: the header (magic,
// partitions, keys, payload bytes), the payload that body writes, and the
// CRC-32C of both, which it returns.
func writeRunFrame(w io.Writer, parts int, keys, bytes int64, body func(io.Writer) error) (uint32, error) {
	cw := &crcWriter{w: w}
	hdr := make([]byte, 0, 32)
	hdr = append(hdr, runFileMagic...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(parts))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(keys))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(bytes))
	if _, err := cw.Write(hdr); err != nil {
		return 0, err
	}
	if err := body(cw); err != nil {
		return 0, err
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(cw.crc))
	_, err := w.Write(b[:])
	return cw.crc, err
}

// readRunFile reads a compressed frontier file of a search of parts
// partitions, checking all of it (header, size, every block, the order,
// the checksum and, when wantCRC is not nil, that the checksum is
// *wantCRC). Its errors name the file and wrap ErrInput.
func readRunFile(path string, parts int, wantCRC *uint32) (*run, error) {
	f, st, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var hdr [32]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != runFileMagic {
		return nil, inputErrorf("bfs: %s: not a compressed level file", path)
	}
	P := binary.LittleEndian.Uint64(hdr[8:])
	n := binary.LittleEndian.Uint64(hdr[16:])
	size := binary.LittleEndian.Uint64(hdr[24:])
	if P != uint64(parts) {
		return nil, inputErrorf("bfs: %s: %d partitions, want %d (damaged, or another search's)", path, P, parts)
	}
	if size > 1<<44 || int64(size)+40 != st.Size() || n > 1<<40 {
		return nil, inputErrorf("bfs: %s: %d bytes, its header says %d: truncated or damaged", path, st.Size(), size+40)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(br, data); err != nil {
		return nil, inputErrorf("bfs: %s: truncated", path)
	}
	crc := crc32.Update(crc32.Update(0, crcTable, hdr[:]), crcTable, data)
	var tr [8]byte
	if _, err := io.ReadFull(br, tr[:]); err != nil || binary.LittleEndian.Uint64(tr[:]) != uint64(crc) {
		return nil, inputErrorf("bfs: %s: checksum mismatch (the file is damaged)", path)
	}
	if wantCRC != nil && crc != *wantCRC {
		return nil, inputErrorf("bfs: %s is not the level file the checkpoint saved (checksum %08x, want %08x)", path, crc, *wantCRC)
	}
	r, err := parseRun(data)
	if err != nil || uint64(r.n) != n {
		return nil, inputErrorf("bfs: %s: a damaged block (%v)", path, err)
	}
	return r, nil
}
