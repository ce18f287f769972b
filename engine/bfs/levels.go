package bfs

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/wordbytes"
)

// Level files (version 2): "HLBFSLV2", the partition count P, P counts,
// the words of every partition in order (each partition sorted, strictly
// increasing), all little-endian uint64, then a trailer: the CRC-32C
// (Castagnoli) of everything before it, as a little-endian uint64. Version
// 1 ("HLBFSLV1") had no trailer; such files are still read, without the
// checksum (there is none to check), but with every other check (sizes,
// partition count, order). A damaged file is refused with one line naming
// it and the problem. A search written to a folder also leaves meta.json
// describing it (see levelMeta).

const (
	levelMagic   = "HLBFSLV2"
	levelMagicV1 = "HLBFSLV1"
	// maxParts bounds the partition count a level file may claim.
	maxParts = 1 << 26
)

// crcTable is CRC-32C's, for level files, meta.json and checkpoints.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

type levelWriter struct {
	dir string
	c   *codec
	opt Options
	// keep (Options.KeepEvery): only levels d >= from with d%keep == 0
	// are written, as compressed runs (writeKept); 0: every level as a
	// level file.
	keep, from int
}

// metaName is the file describing a search's level files; metaVersion its
// format: version 2 added Version and Checksum (the CRC-32C of the file
// written with an empty Checksum, see sealJSON). A meta.json without a
// version (1) is still read, unchecked.
const (
	metaName    = "meta.json"
	metaVersion = 2
	// metaVersionKept is the version of a meta.json of kept levels
	// (KeepEvery), which a hatelab reading only versions 1..2 refuses
	// rather than looking for level files that are not there.
	metaVersionKept = 3
)

type levelMeta struct {
	Version       int
	Checksum      string
	Width, Height int
	Rule          string
	StartRows     []int
	StartScore    int
	Levels        []Level
	Score, Length int
	Unbounded     bool
	Truncated     bool
	// KeepEvery (version 3): only levels 0, K, 2K... are in the folder,
	// as compressed runs (Options.KeepEvery).
	KeepEvery int `json:",omitempty"`
}

func newLevelWriter(dir string, c *codec, opt Options) (*levelWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &levelWriter{dir: dir, c: c, opt: opt, keep: opt.KeepEvery}, nil
}

func levelPath(dir string, d int) string { return filepath.Join(dir, fmt.Sprintf("level-%05d.bin", d)) }

func (lw *levelWriter) write(d int, l *level) error {
	f, err := os.Create(levelPath(lw.dir, d))
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if _, err := writeLevel(bw, l); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// crcWriter passes writes on to w, keeping the CRC-32C of what went by.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.crc = crc32.Update(c.crc, crcTable, p[:n])
	return n, err
}

// writeLevel writes l in the level-file format and returns its checksum
// (WriteLevelFile, reading l's partitions into one reused scratch buffer
// when they live on disk).
func writeLevel(w io.Writer, l *level) (uint32, error) {
	ps, ok := l.partitioned()
	if !ok {
		return 0, fmt.Errorf("bfs: internal error: a level file of a compressed level")
	}
	var scratch []uint64
	return WriteLevelFile(w, ps.counts().slice(), func(p int) ([]uint64, error) {
		words, err := ps.part(p, scratch)
		if err == nil && ps.onDisk() && words != nil {
			scratch = words
		}
		return words, err
	})
}

// writeWords writes words little-endian.
func writeWords(w io.Writer, p []uint64) error {
	if len(p) == 0 {
		return nil
	}
	if wordbytes.LittleEndian {
		_, err := w.Write(wordbytes.Bytes(p))
		return err
	}
	buf := make([]byte, 0, 8*len(p))
	for _, x := range p {
		buf = binary.LittleEndian.AppendUint64(buf, x)
	}
	_, err := w.Write(buf)
	return err
}

func (lw *levelWriter) finish(res *Result) error {
	m := levelMeta{Version: metaVersion, Width: lw.opt.Width, Height: lw.opt.Height, Rule: lw.opt.Rule.String(), StartScore: lw.opt.StartScore,
		Levels: res.Levels, Score: res.Score, Length: res.Length, Unbounded: res.Unbounded, Truncated: res.Truncated, KeepEvery: lw.keep}
	if lw.keep > 0 {
		m.Version = metaVersionKept
	}
	if lw.opt.Start != nil {
		for r := 0; r < lw.opt.Height+Bar; r++ {
			m.StartRows = append(m.StartRows, int(lw.opt.Start[r]))
		}
	}
	b, err := sealJSON(&m, &m.Checksum)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(lw.dir, metaName), 0o644, b)
}

// levelHeader is what a level file's header says, checked.
type levelHeader struct {
	version int
	counts  []uint64
	total   uint64 // words in all
}

// readLevelHeader reads and checks the header of the level file path
// (size bytes long) with want partitions: magic, partition count, counts
// and the file's size. Its errors name the file and wrap ErrInput.
// openLevelFile opens the level file path (want partitions) and reads its
// header; the caller closes the file.
func openLevelFile(path string, want int) (*os.File, *bufio.Reader, *levelHeader, error) {
	f, st, err := openInput(path)
	if err != nil {
		return nil, nil, nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	h, err := readLevelHeader(br, path, st.Size(), want)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return f, br, h, nil
}

func readLevelHeader(r io.Reader, path string, size int64, want int) (*levelHeader, error) {
	var hdr [16]byte
	if n, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, inputErrorf("bfs: %s: not a level file (%d bytes)", path, n)
	}
	h := &levelHeader{}
	switch string(hdr[:8]) {
	case levelMagic:
		h.version = 2
	case levelMagicV1:
		h.version = 1
	default:
		return nil, inputErrorf("bfs: %s: not a level file (bad magic)", path)
	}
	P := binary.LittleEndian.Uint64(hdr[8:])
	if P == 0 || P > maxParts || P != uint64(want) {
		return nil, inputErrorf("bfs: %s: %d partitions, want %d (damaged, or another search's)", path, P, want)
	}
	if size < 16+8*int64(P) {
		return nil, inputErrorf("bfs: %s: truncated (%d bytes, the header alone needs %d)", path, size, 16+8*P)
	}
	h.counts = make([]uint64, P)
	raw := make([]byte, 8*P)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, inputErrorf("bfs: %s: truncated header: %v", path, err)
	}
	for i := range h.counts {
		n := binary.LittleEndian.Uint64(raw[8*i:])
		if n > 1<<40 {
			return nil, inputErrorf("bfs: %s: partition %d claims %d states (damaged)", path, i, n)
		}
		h.counts[i] = n
		h.total += n
	}
	want64 := 16 + 8*int64(P) + 8*int64(h.total)
	if h.version == 2 {
		want64 += 8
	}
	if h.total > 1<<40 || size != want64 {
		return nil, inputErrorf("bfs: %s: %d bytes, its header says %d: truncated or damaged", path, size, want64)
	}
	return h, nil
}

// headerCRC is the CRC-32C of a header as read (for the trailer check).
func (h *levelHeader) headerCRC() uint32 {
	b := make([]byte, 0, 16+8*len(h.counts))
	if h.version == 1 {
		b = append(b, levelMagicV1...)
	} else {
		b = append(b, levelMagic...)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(h.counts)))
	for _, n := range h.counts {
		b = binary.LittleEndian.AppendUint64(b, n)
	}
	return crc32.Checksum(b, crcTable)
}

// checkTrailer reads a version-2 trailer from r and compares it with crc.
func (h *levelHeader) checkTrailer(r io.Reader, path string, crc uint32) error {
	if h.version < 2 {
		return nil
	}
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return inputErrorf("bfs: %s: truncated (no checksum)", path)
	}
	if got := binary.LittleEndian.Uint64(b[:]); got != uint64(crc) {
		return inputErrorf("bfs: %s: checksum mismatch (the file is damaged)", path)
	}
	return nil
}

// verifyLevelFile reads the whole level file path (want partitions) and
// checks its sizes, the order of every partition and its checksum.
func verifyLevelFile(path string, want int) error {
	f, br, h, err := openLevelFile(path, want)
	if err != nil {
		return err
	}
	defer f.Close()
	crc := h.headerCRC()
	buf := make([]uint64, 1<<15)
	for p, n := range h.counts {
		prev, first := uint64(0), true
		for n > 0 {
			k := min(n, uint64(len(buf)))
			raw := wordbytes.Bytes(buf[:k])
			if _, err := io.ReadFull(br, raw); err != nil {
				return inputErrorf("bfs: %s: truncated in partition %d", path, p)
			}
			crc = crc32.Update(crc, crcTable, raw)
			for i := uint64(0); i < k; i++ {
				w := buf[i]
				if !wordbytes.LittleEndian {
					w = binary.LittleEndian.Uint64(raw[8*i:])
				}
				if !first && w <= prev {
					return inputErrorf("bfs: %s: partition %d out of order (the file is damaged)", path, p)
				}
				prev, first = w, false
			}
			n -= k
		}
	}
	return h.checkTrailer(br, path, crc)
}

// levelReader streams the states of one level file in order.
type levelReader struct {
	f      *os.File
	br     *bufio.Reader
	path   string
	counts []uint64
	part   int
	left   uint64
	buf    []uint64 // words read ahead
	pos    int
}

// openLevel opens level d of dir, a level file of parts partitions, after
// checking all of it (verifyLevelFile).
func openLevel(dir string, d, parts int) (*levelReader, error) {
	path := levelPath(dir, d)
	if err := verifyLevelFile(path, parts); err != nil {
		return nil, err
	}
	f, st, err := openInput(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	h, err := readLevelHeader(br, path, st.Size(), parts)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &levelReader{f: f, br: br, path: path, counts: h.counts, part: -1}, nil
}

// next returns the next state's partition and word; ok is false at the end.
func (r *levelReader) next() (part uint32, word uint64, ok bool, err error) {
	for r.left == 0 {
		r.part++
		if r.part >= len(r.counts) {
			return 0, 0, false, nil
		}
		r.left = r.counts[r.part]
	}
	if r.pos == len(r.buf) {
		n := int(min(r.left, 1<<15))
		if cap(r.buf) < n {
			r.buf = make([]uint64, 1<<15)
		}
		r.buf, r.pos = r.buf[:n], 0
		b := wordbytes.Bytes(r.buf[:n])
		if _, err := io.ReadFull(r.br, b); err != nil {
			return 0, 0, false, inputErrorf("bfs: %s: truncated in partition %d (%v)", r.path, r.part, err)
		}
		if !wordbytes.LittleEndian {
			for i := range r.buf {
				r.buf[i] = binary.LittleEndian.Uint64(b[8*i:])
			}
		}
	}
	w := r.buf[r.pos]
	r.pos++
	r.left--
	return uint32(r.part), w, true, nil
}

func (r *levelReader) Close() error { return r.f.Close() }
