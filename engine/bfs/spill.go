package bfs

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/wordbytes"
)

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
