package bfs

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/wordbytes"
)

// level is a set of states: per partition, a sorted array of words, held
// in memory or, in disk mode, in one file per partition.
type level struct {
	mem    partArray[[]uint64]
	counts partArray[int64]
	dir    string     // disk mode: the folder of this level's partition files
	arena  *wordArena // memory mode: where the partitions live (nil: the heap)
	shared bool       // the arena belongs to the search, not the level
	hash   [2]uint64  // the set hash (see setHash), once hashed
	hashed bool
	// run, when set, holds the states instead (Options.Compress): every
	// plain key in increasing order, compressed (crun.go); counts are
	// then zero and mem nil.
	run *run
	// frun, in compressed disk mode, holds them in files (compressdisk.go).
	frun *frun
}

func newMemLevel(P int) *level {
	return &level{mem: newPartArray[[]uint64](P), counts: newPartArray[int64](P)}
}

func (l *level) parts() int { return l.counts.len() }

func (l *level) size() int64 {
	if l.run != nil {
		return l.run.n
	}
	if l.frun != nil {
		return l.frun.n
	}
	n := int64(0)
	l.counts.each(func(_ int, c *int64) { n += *c })
	return n
}

// storedBytes is the memory (or disk) that holds the level's states.
func (l *level) storedBytes() int64 {
	if l.run != nil {
		return l.run.size()
	}
	if l.frun != nil {
		return l.frun.bytes
	}
	return 8 * l.size()
}

// part returns partition p, reading it into scratch in disk mode.
func (l *level) part(p int, scratch []uint64) ([]uint64, error) {
	if l.dir == "" || l.counts.at(p) == 0 {
		return l.mem.at(p), nil
	}
	return readWordsFile(partPath(l.dir, p), scratch[:0])
}

// set stores partition p (in memory, or written to its file).
func (l *level) set(p int, words []uint64) error {
	if len(words) == 0 && l.counts.at(p) == 0 && l.mem.at(p) == nil {
		return nil // an empty partition allocates nothing
	}
	*l.counts.ref(p) = int64(len(words))
	if l.dir == "" {
		*l.mem.ref(p) = words
		return nil
	}
	if len(words) == 0 {
		return nil
	}
	return writeWordsFile(partPath(l.dir, p), words, false)
}

// release frees the level (its files in disk mode); a nil level (a
// failed step's) has nothing to free.
func (l *level) release() {
	if l == nil {
		return
	}
	l.mem, l.run = partArray[[]uint64]{}, nil
	l.frun.release()
	l.frun = nil
	if !l.shared {
		l.arena.release()
	}
	l.arena = nil
	if l.dir != "" {
		os.RemoveAll(l.dir)
	}
}

// spillWriter is what disk mode writes its spill and partition files
// through: the file itself, or in tests a writer that fails as a full
// filesystem does (ENOSPC).
var spillWriter = func(f *os.File) io.Writer { return f }

func partPath(dir string, p int) string { return filepath.Join(dir, fmt.Sprintf("part-%05d.bin", p)) }

func spillPath(dir string, w, p int) string {
	return filepath.Join(dir, fmt.Sprintf("w%03d-p%05d.bin", w, p))
}

// writeWordsFile writes (or appends) words little-endian.
func writeWordsFile(path string, words []uint64, appendTo bool) error {
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return err
	}
	if err := writeWords(spillWriter(f), words); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readWordsFile appends the words of a file to dst.
func readWordsFile(path string, dst []uint64) ([]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return dst, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return dst, err
	}
	n := int(st.Size() / 8)
	start := len(dst)
	if cap(dst)-start < n {
		nd := make([]uint64, start, start+n)
		copy(nd, dst)
		dst = nd
	}
	dst = dst[:start+n]
	if n == 0 {
		return dst, nil
	}
	b := wordbytes.Bytes(dst[start : start+n])
	if _, err := io.ReadFull(f, b); err != nil {
		return dst, err
	}
	if !wordbytes.LittleEndian {
		for i := start; i < len(dst); i++ {
			dst[i] = binary.LittleEndian.Uint64(b[8*(i-start):])
		}
	}
	return dst, nil
}

// spill appends the worker's buffered children to its per-partition files
// and empties the buffers (their memory is released).
func (w *worker) spill(dir string) error {
	var err error
	w.out.each(func(p int, buf *[]uint64) {
		if len(*buf) == 0 || err != nil {
			return
		}
		if err = writeWordsFile(spillPath(dir, w.id, p), *buf, true); err != nil {
			return
		}
		*w.spilled.ref(p) += int64(len(*buf))
		*buf = nil
	})
	w.buffered = 0
	return err
}
