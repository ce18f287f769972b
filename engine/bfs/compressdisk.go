package bfs

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Compressed disk mode (Options.Compress with Options.SpillDir): an
// external sort. The level lives in files as compressed runs (fileRun); a
// worker whose children buffers pass its share of the memory budget sorts
// them by plain key, drops duplicates and writes them as one compressed
// run file (spillRun); after the expansion the spilled runs of all workers
// are merged, without duplicates, into the next level, the workers taking
// ranges of keys (cut at the runs' block boundaries) and each writing a
// segment file of its own. Memory stays within the budget plus a block
// buffer per run and worker; disk holds the level, its children's runs
// (about 3 bytes a child) and the next level.

// fileBlock is one block of a run on disk.
type fileBlock struct {
	file             int32
	size             int32
	off              int64
	firstHi, firstLo uint64
}

// fileRun is a run stored in files: its blocks in order, across files.
type fileRun struct {
	files  []*os.File
	paths  []string
	owned  []bool // remove the file on release
	blocks []fileBlock
	n      int64
	bytes  int64
	tier   int // spilled runs merged into it: compactRunsAt^tier (compactRuns)
}

// readBlock appends the keys of block i to dst, reading into *buf.
func (r *fileRun) readBlock(i int, buf *[]byte, dst []uint64) ([]uint64, error) {
	b := r.blocks[i]
	if cap(*buf) < int(b.size) {
		*buf = make([]byte, b.size)
	}
	raw := (*buf)[:b.size]
	if _, err := r.files[b.file].ReadAt(raw, b.off); err != nil {
		return dst, fmt.Errorf("bfs: %s: %w", r.paths[b.file], err)
	}
	out, size, err := decodeBlock(raw, dst)
	if err != nil || size != int(b.size) {
		return dst, inputErrorf("bfs: %s: block %d is damaged", r.paths[b.file], i)
	}
	return out, nil
}

// release closes the files and removes those the run owns.
func (r *fileRun) release() {
	if r == nil {
		return
	}
	for i, f := range r.files {
		f.Close()
		if r.owned[i] {
			os.Remove(r.paths[i])
		}
	}
	r.files, r.blocks = nil, nil
}

// fileRunWriter writes keys in increasing order as one run file, block by
// block.
type fileRunWriter struct {
	f    *os.File
	bw   *bufio.Writer
	e    *runEncoder
	r    *fileRun
	off  int64
	last [2]uint64
	any  bool
}

// newFileRunWriter creates path and returns a writer adding it to r.
func newFileRunWriter(path string, r *fileRun) (*fileRunWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	r.files, r.paths, r.owned = append(r.files, f), append(r.paths, path), append(r.owned, true)
	return &fileRunWriter{f: f, bw: bufio.NewWriterSize(spillWriter(f), 1<<20), e: newRunEncoder(make([]byte, 0, 64<<10)), r: r}, nil
}

// add appends (hi, lo), skipping it if it equals the key before.
func (w *fileRunWriter) add(hi, lo uint64) error {
	if w.any && w.last == [2]uint64{hi, lo} {
		return nil
	}
	w.last, w.any = [2]uint64{hi, lo}, true
	if w.e.start >= 0 && w.e.count == runBlockKeys {
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.e.add(hi, lo)
	return nil
}

// flush writes the open block.
func (w *fileRunWriter) flush() error {
	if w.e.start < 0 {
		return nil
	}
	w.e.close()
	b := fileBlock{file: int32(len(w.r.files) - 1), size: int32(len(w.e.data)), off: w.off, firstHi: w.e.firstHi, firstLo: w.e.firstLo}
	w.r.blocks = append(w.r.blocks, b)
	w.r.n += int64(w.e.count)
	w.r.bytes += int64(len(w.e.data))
	w.off += int64(len(w.e.data))
	_, err := w.bw.Write(w.e.data)
	w.e.data, w.e.index, w.e.n = w.e.data[:0], w.e.index[:0], 0
	return err
}

// finish writes the last block and flushes the file (left open to read).
func (w *fileRunWriter) finish() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.bw.Flush()
}

// spillRun sorts the worker's buffered children (w.flat, plain keys) by
// key and writes them, without duplicates, as one run file of its spill
// folder. The sort is compressLevel's: a counting sort on the keys' top
// bits (a bucket), then each bucket sorted as 64-bit remainders, in
// w.sorted.
func (w *worker) spillRun(c *codec) (err error) {
	n := len(w.flat) / 2
	if n == 0 {
		return nil
	}
	bk := c.newBuckets(int64(n))
	nb := bk.n
	if few(int64(n), nb) {
		return w.spillFew(c)
	}
	if len(w.hist) != nb+1 {
		w.hist = make([]int64, nb+1)
	}
	h := w.hist
	clear(h)
	flat := w.flat
	for i := 0; i < len(flat); i += 2 {
		b, _ := bk.of(flat[i], flat[i+1])
		h[b+1]++
	}
	for b := 1; b <= nb; b++ {
		h[b] += h[b-1]
	}
	if cap(w.sorted) < n {
		w.sorted = make([]uint64, n)
	}
	sorted := w.sorted[:n]
	if len(w.fill) != nb {
		w.fill = make([]int64, nb)
	}
	fill := w.fill // the next free slot of every bucket
	copy(fill, h[:nb])
	for i := 0; i < len(flat); i += 2 {
		b, rem := bk.of(flat[i], flat[i+1])
		sorted[fill[b]] = rem
		fill[b]++
	}
	w.flat = flat[:0]
	w.buffered = 0
	r := &fileRun{}
	fw, err := newFileRunWriter(filepath.Join(w.spillDir, fmt.Sprintf("w%03d-s%05d.run", w.id, len(w.runs))), r)
	if err != nil {
		return err
	}
	w.runs = append(w.runs, r)
	defer func() {
		if err == nil {
			err = w.compactRuns(c)
		}
	}()
	for b := 0; b < nb; b++ {
		part := sorted[h[b]:h[b+1]]
		w.radix = sortWords(part, w.radix, bk.shift)
		for _, rem := range part {
			if err := fw.add(bk.key(b, rem)); err != nil {
				return err
			}
		}
	}
	return fw.finish()
}

// spillFew is spillRun for children too few for its counting sort (see
// few): sorted by comparison.
func (w *worker) spillFew(c *codec) (err error) {
	keys := make([][2]uint64, 0, len(w.flat)/2)
	for i := 0; i < len(w.flat); i += 2 {
		keys = append(keys, [2]uint64{w.flat[i], w.flat[i+1]})
	}
	slices.SortFunc(keys, cmpPair)
	w.flat = w.flat[:0]
	w.buffered = 0
	r := &fileRun{}
	fw, err := newFileRunWriter(filepath.Join(w.spillDir, fmt.Sprintf("w%03d-s%05d.run", w.id, len(w.runs))), r)
	if err != nil {
		return err
	}
	w.runs = append(w.runs, r)
	for _, k := range keys {
		if err := fw.add(k[0], k[1]); err != nil {
			return err
		}
	}
	if err := fw.finish(); err != nil {
		return err
	}
	return w.compactRuns(c)
}

// compactRunsAt is the number of spilled runs of one tier a worker merges
// into one run of the next tier (dropping the duplicates between them, and
// denser, so smaller). A spilled run is of tier 0; merging by tiers (as a
// counter in base compactRunsAt carries) rewrites each child about
// log_8(spills) times, where merging everything whenever there were eight
// runs rewrote the growing merged run at every eighth spill.
const compactRunsAt = 8

// compactRuns merges the worker's last compactRunsAt runs into one while
// they are of one tier.
func (w *worker) compactRuns(c *codec) error {
	for {
		n := len(w.runs)
		if n < compactRunsAt {
			return nil
		}
		tail := w.runs[n-compactRunsAt:]
		tier := tail[len(tail)-1].tier
		if tail[0].tier != tier {
			return nil // tiers never increase along w.runs
		}
		r := &fileRun{tier: tier + 1}
		tmp := &searcher{c: c}
		if _, err := tmp.mergeRange(tail, [2]uint64{}, [2]uint64{}, true, false,
			filepath.Join(w.spillDir, fmt.Sprintf("w%03d-m%05d.run", w.id, w.merged)), r); err != nil {
			r.release()
			return err
		}
		w.merged++
		for _, old := range tail {
			old.release()
		}
		w.runs = append(w.runs[:n-compactRunsAt], r)
	}
}

func cmpPair(a, b [2]uint64) int {
	switch {
	case a[0] != b[0]:
		if a[0] < b[0] {
			return -1
		}
		return 1
	case a[1] < b[1]:
		return -1
	case a[1] > b[1]:
		return 1
	}
	return 0
}

// cursor walks one run's keys in order from a starting key.
type cursor struct {
	r      *fileRun
	blk    int
	keys   []uint64
	pos    int
	buf    []byte
	hi, lo uint64
	done   bool
}

// seek positions c at the first key >= (hi, lo).
func (c *cursor) seek(hi, lo uint64) error {
	// The last block whose first key is <= (hi, lo).
	i := sortSearch(len(c.r.blocks), func(i int) bool {
		b := &c.r.blocks[i]
		return less128(hi, lo, b.firstHi, b.firstLo)
	}) - 1
	c.blk = max(i, 0) - 1
	c.keys, c.pos = c.keys[:0], 0
	for {
		if err := c.next(); err != nil || c.done || !less128(c.hi, c.lo, hi, lo) {
			return err
		}
	}
}

// next moves to the next key (done at the end).
func (c *cursor) next() error {
	if c.pos+2 > len(c.keys) {
		c.blk++
		if c.blk >= len(c.r.blocks) {
			c.done = true
			return nil
		}
		var err error
		if c.keys, err = c.r.readBlock(c.blk, &c.buf, c.keys[:0]); err != nil {
			return err
		}
		c.pos = 0
	}
	c.hi, c.lo = c.keys[c.pos], c.keys[c.pos+1]
	c.pos += 2
	return nil
}

// sortSearch is sort.Search.
func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// mergeSpills merges the workers' spilled runs into level depth+1, a run
// of segment files under dir, and removes the spilled runs.
func (s *searcher) mergeSpills(dir string) (*level, error) {
	var runs []*fileRun
	for _, w := range s.workers {
		runs = append(runs, w.runs...)
		w.runs = nil
	}
	defer func() {
		for _, r := range runs {
			r.release()
		}
	}()
	fr := &fileRun{}
	out := newLevel(s.c.parts(), &fileRunLevel{fr})
	s.spillBytes = 0
	for _, r := range runs {
		s.spillBytes += r.bytes
	}
	// Key ranges: the workers' share of the runs' block first keys.
	var firsts [][2]uint64
	for _, r := range runs {
		for _, b := range r.blocks {
			firsts = append(firsts, [2]uint64{b.firstHi, b.firstLo})
		}
	}
	if len(firsts) == 0 {
		out.hashed = true
		return out, nil
	}
	slices.SortFunc(firsts, cmpPair)
	W := len(s.workers)
	bounds := make([][2]uint64, W+1) // range i: [bounds[i], bounds[i+1]); the last is open
	for i := 1; i < W; i++ {
		bounds[i] = firsts[i*len(firsts)/W]
	}
	segs := make([]*fileRun, W)
	hashes := make([][2]uint64, W)
	errs := make([]error, W)
	var wg sync.WaitGroup
	for i := 0; i < W; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			segs[i] = &fileRun{}
			hashes[i], errs[i] = s.mergeRange(runs, bounds[i], bounds[i+1], i == W-1, true,
				filepath.Join(dir, fmt.Sprintf("seg-%03d.run", i)), segs[i])
		}()
	}
	wg.Wait()
	for i, seg := range segs {
		if errs[i] != nil {
			for _, sg := range segs {
				sg.release()
			}
			return nil, errs[i]
		}
		base := int32(len(fr.files))
		fr.files = append(fr.files, seg.files...)
		fr.paths = append(fr.paths, seg.paths...)
		fr.owned = append(fr.owned, seg.owned...)
		for _, b := range seg.blocks {
			b.file += base
			fr.blocks = append(fr.blocks, b)
		}
		fr.n += seg.n
		fr.bytes += seg.bytes
		out.hash[0] += hashes[i][0]
		out.hash[1] += hashes[i][1]
	}
	out.hashed = true
	return out, nil
}

// mergeRange merges the keys in [from, to) (to: open when last) of runs
// into one segment file path, added to seg, and returns their set hash
// (zero unless hash). An empty range writes nothing.
func (s *searcher) mergeRange(runs []*fileRun, from, to [2]uint64, last, hash bool, path string, seg *fileRun) ([2]uint64, error) {
	var h [2]uint64
	if !last && from == to {
		return h, nil
	}
	cs := make([]*cursor, 0, len(runs))
	for _, r := range runs {
		c := &cursor{r: r}
		if err := c.seek(from[0], from[1]); err != nil {
			return h, err
		}
		if !c.done {
			cs = append(cs, c)
		}
	}
	fw, err := newFileRunWriter(path, seg)
	if err != nil {
		return h, err
	}
	// A binary heap of the cursors by current key.
	lessC := func(a, b *cursor) bool { return less128(a.hi, a.lo, b.hi, b.lo) }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(cs) {
				return
			}
			if r := l + 1; r < len(cs) && lessC(cs[r], cs[l]) {
				l = r
			}
			if !lessC(cs[l], cs[i]) {
				return
			}
			cs[i], cs[l] = cs[l], cs[i]
			i = l
		}
	}
	for i := len(cs)/2 - 1; i >= 0; i-- {
		down(i)
	}
	var prev [2]uint64
	have := false
	for len(cs) > 0 {
		c := cs[0]
		if !last && !less128(c.hi, c.lo, to[0], to[1]) {
			break
		}
		if k := [2]uint64{c.hi, c.lo}; !have || k != prev {
			prev, have = k, true
			if err := fw.add(c.hi, c.lo); err != nil {
				return h, err
			}
			if hash {
				p, w := s.c.encodeKey(c.hi, c.lo)
				x := w ^ uint64(p)*seedA
				h[0] += mix(x)
				h[1] += mix(x ^ seedB)
			}
		}
		if err := c.next(); err != nil {
			return h, err
		}
		if c.done {
			cs[0] = cs[len(cs)-1]
			cs = cs[:len(cs)-1]
		}
		down(0)
	}
	return h, fw.finish()
}

// fileRunHash is the set hash (setHash) of a disk run's states.
func fileRunHash(c *codec, r *fileRun) ([2]uint64, error) {
	var h [2]uint64
	var keys []uint64
	var buf []byte
	for i := range r.blocks {
		var err error
		if keys, err = r.readBlock(i, &buf, keys[:0]); err != nil {
			return h, err
		}
		for j := 0; j < len(keys); j += 2 {
			p, w := c.encodeKey(keys[j], keys[j+1])
			x := w ^ uint64(p)*seedA
			h[0] += mix(x)
			h[1] += mix(x ^ seedB)
		}
	}
	return h, nil
}

// fileRunAt is the run r as written into the frontier file path by
// writeFileRunFile (its blocks one after the other from byte 32), not owned.
func fileRunAt(path string, r *fileRun) (*fileRun, error) {
	f, _, err := openInput(path)
	if err != nil {
		return nil, err
	}
	out := &fileRun{files: []*os.File{f}, paths: []string{path}, owned: []bool{false}, n: r.n, bytes: r.bytes,
		blocks: make([]fileBlock, len(r.blocks))}
	off := int64(32)
	for i, b := range r.blocks {
		b.file, b.off = 0, off
		out.blocks[i] = b
		off += int64(b.size)
	}
	return out, nil
}

// expandFblock expands the states of block i of the disk run r.
func (w *worker) expandFblock(c *codec, sc scorer, r *fileRun, i int, track bool) {
	var err error
	if w.keys, err = r.readBlock(i, &w.raw, w.keys[:0]); err != nil {
		w.err = err
		return
	}
	w.expandKeys(c, sc, track)
}

// writeFileRunFile writes the disk run of l as a compressed frontier file
// (the format of writeRunFile) and returns its checksum.
func writeFileRunFile(w io.Writer, l *level) (uint32, error) {
	r := l.store.(*fileRunLevel).r
	return writeRunFrame(w, l.parts(), r.n, r.bytes, func(cw io.Writer) error {
		var buf []byte
		for _, b := range r.blocks {
			if cap(buf) < int(b.size) {
				buf = make([]byte, b.size)
			}
			if _, err := r.files[b.file].ReadAt(buf[:b.size], b.off); err != nil {
				return err
			}
			if _, err := cw.Write(buf[:b.size]); err != nil {
				return err
			}
		}
		return nil
	})
}

// openFileRunFile opens a compressed frontier file as a disk run (not owned),
// checking all of it as readRunFile does but streaming.
func openFileRunFile(path string, parts int, wantCRC *uint32) (*fileRun, error) {
	f, st, err := openInput(path)
	if err != nil {
		return nil, err
	}
	r := &fileRun{files: []*os.File{f}, paths: []string{path}, owned: []bool{false}}
	fail := func(err error) (*fileRun, error) { f.Close(); return nil, err }
	br := bufio.NewReaderSize(f, 1<<20)
	var hdr [32]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != runFileMagic {
		return fail(inputErrorf("bfs: %s: not a compressed level file", path))
	}
	P, n, size := binary.LittleEndian.Uint64(hdr[8:]), binary.LittleEndian.Uint64(hdr[16:]), binary.LittleEndian.Uint64(hdr[24:])
	if P != uint64(parts) {
		return fail(inputErrorf("bfs: %s: %d partitions, want %d (damaged, or another search's)", path, P, parts))
	}
	if size > 1<<44 || int64(size)+40 != st.Size() || n > 1<<40 {
		return fail(inputErrorf("bfs: %s: %d bytes, its header says %d: truncated or damaged", path, st.Size(), size+40))
	}
	crc := crc32.Update(0, crcTable, hdr[:])
	off := int64(32)
	var buf []byte
	var keys []uint64
	var lastHi, lastLo uint64
	for off < 32+int64(size) {
		var h [runHeaderSize]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			return fail(inputErrorf("bfs: %s: truncated", path))
		}
		length := int64(binary.LittleEndian.Uint32(h[4:]))
		if off+runHeaderSize+length > 32+int64(size) {
			return fail(inputErrorf("bfs: %s: a damaged block", path))
		}
		bsize := runHeaderSize + int(length)
		if cap(buf) < bsize {
			buf = make([]byte, bsize)
		}
		buf = buf[:bsize]
		copy(buf, h[:])
		if _, err := io.ReadFull(br, buf[runHeaderSize:]); err != nil {
			return fail(inputErrorf("bfs: %s: truncated", path))
		}
		crc = crc32.Update(crc, crcTable, buf)
		var got int
		keys, got, err = decodeBlock(buf, keys[:0])
		if err != nil || got != bsize || r.n > 0 && !less128(lastHi, lastLo, keys[0], keys[1]) {
			return fail(inputErrorf("bfs: %s: a damaged block", path))
		}
		r.blocks = append(r.blocks, fileBlock{size: int32(bsize), off: off, firstHi: keys[0], firstLo: keys[1]})
		lastHi, lastLo = keys[len(keys)-2], keys[len(keys)-1]
		r.n += int64(len(keys) / 2)
		off += int64(bsize)
	}
	r.bytes = int64(size)
	var tr [8]byte
	if _, err := io.ReadFull(br, tr[:]); err != nil || binary.LittleEndian.Uint64(tr[:]) != uint64(crc) {
		return fail(inputErrorf("bfs: %s: checksum mismatch (the file is damaged)", path))
	}
	if wantCRC != nil && crc != *wantCRC {
		return fail(inputErrorf("bfs: %s is not the level file the checkpoint saved (checksum %08x, want %08x)", path, crc, *wantCRC))
	}
	if uint64(r.n) != n {
		return fail(inputErrorf("bfs: %s: %d states, its header says %d", path, r.n, n))
	}
	return r, nil
}
