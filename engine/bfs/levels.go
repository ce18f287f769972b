package bfs

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/wordbytes"
)

// Level files: "HLBFSLV1", the partition count P, P counts, then the words
// of every partition in order, all little-endian uint64. A search written
// to a folder also leaves meta.json describing it.

const levelMagic = "HLBFSLV1"

type levelWriter struct {
	dir string
	c   *codec
	opt Options
}

type levelMeta struct {
	Width, Height int
	Rule          string
	StartRows     []int
	StartScore    int
	Levels        []Level
	Score, Length int
	Unbounded     bool
	Truncated     bool
}

func newLevelWriter(dir string, c *codec, opt Options) (*levelWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &levelWriter{dir: dir, c: c, opt: opt}, nil
}

func levelPath(dir string, d int) string { return filepath.Join(dir, fmt.Sprintf("level-%05d.bin", d)) }

func (lw *levelWriter) write(d int, l *level) error {
	f, err := os.Create(levelPath(lw.dir, d))
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := writeLevel(bw, l); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeLevel writes l in the level-file format.
func writeLevel(w io.Writer, l *level) error {
	io.WriteString(w, levelMagic)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(l.parts()))
	w.Write(b[:])
	for _, n := range l.counts {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	var scratch []uint64
	for p := 0; p < l.parts(); p++ {
		words, err := l.part(p, scratch)
		if err == nil {
			err = writeWords(w, words)
		}
		if err != nil {
			return err
		}
		if l.dir != "" {
			scratch = words
		}
	}
	return nil
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
	m := levelMeta{Width: lw.opt.Width, Height: lw.opt.Height, Rule: lw.opt.Rule.String(), StartScore: lw.opt.StartScore,
		Levels: res.Levels, Score: res.Score, Length: res.Length, Unbounded: res.Unbounded, Truncated: res.Truncated}
	if lw.opt.Start != nil {
		for r := 0; r < lw.opt.Height+Bar; r++ {
			m.StartRows = append(m.StartRows, int(lw.opt.Start[r]))
		}
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(lw.dir, "meta.json"), b, 0o644)
}

// levelReader streams the states of one level file in order.
type levelReader struct {
	f      *os.File
	br     *bufio.Reader
	counts []uint64
	part   int
	left   uint64
	buf    []uint64 // words read ahead
	pos    int
}

func openLevel(dir string, d int) (*levelReader, error) {
	f, err := os.Open(levelPath(dir, d))
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	var hdr [16]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != levelMagic {
		f.Close()
		return nil, fmt.Errorf("bfs: %s is not a level file", levelPath(dir, d))
	}
	P := binary.LittleEndian.Uint64(hdr[8:])
	if P == 0 || P > 1<<26 {
		f.Close()
		return nil, errors.New("bfs: bad partition count in level file")
	}
	r := &levelReader{f: f, br: br, counts: make([]uint64, P), part: -1}
	var b [8]byte
	for i := range r.counts {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			f.Close()
			return nil, err
		}
		r.counts[i] = binary.LittleEndian.Uint64(b[:])
	}
	return r, nil
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
			return 0, 0, false, err
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
