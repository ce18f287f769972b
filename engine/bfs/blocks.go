package bfs

import (
	"encoding/binary"
	"io"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Building blocks for distributed engines (dist/beamrun): a search's
// partition function and start state (Space), the expansion of a block of
// states of one partition into per-partition children (Expander), the
// deduplication of one partition (DedupPartition), the level's set hash
// (PartHash) and the level files in today's format (WriteLevelFile,
// WriteLevelMeta). They call the code Search runs, so an engine built from
// them finds the same levels, word for word.

// Space is the state space of one search: its codec (the partition
// function and the 64-bit words), its rules and its start state.
type Space struct {
	opt    Options
	c      *codec
	rules  *hatetris.Rules
	cells0 int
}

// NewSpace checks opt as Search does (Validate) and returns its space.
func NewSpace(opt Options) (*Space, error) {
	c, err := validate(opt)
	if err != nil {
		return nil, err
	}
	rules, _ := NewRules(opt.Width, opt.Height, opt.Rule)
	s := &Space{opt: opt, c: c, rules: rules}
	var w0 hatetris.Well
	if opt.Start != nil {
		w0 = *opt.Start
	}
	s.cells0 = c.cells(&w0)
	return s, nil
}

// Parts is the number of partitions of every level.
func (s *Space) Parts() int { return s.c.parts() }

// Start is level 0: the start well's partition and word.
func (s *Space) Start() (part uint32, word uint64) {
	var w0 hatetris.Well
	if s.opt.Start != nil {
		w0 = *s.opt.Start
	}
	return s.c.encode(&w0)
}

// wordPart is the number of a word's leading bits that hold its
// partition (equal within one partition).
func (s *Space) wordPart() uint {
	if s.c.k == 0 {
		return s.c.pb
	}
	return s.c.s
}

// Expander expands blocks of states into per-partition children. It is
// not safe for concurrent use: take one per goroutine.
type Expander struct {
	s *Space
	w *worker
}

// NewExpander returns an expander with empty children buffers.
func (s *Space) NewExpander() *Expander {
	return &Expander{s: s, w: newWorker(0, s.rules, s.c.parts())}
}

// Expand expands the states words (partition part of level depth) into the
// children buffers, exactly as Search does, and returns the live children
// generated and the best score among the states (-1 for none).
func (e *Expander) Expand(depth int, part uint32, words []uint64) (children int64, best int) {
	w := e.w
	w.children, w.best = 0, -1
	sc := scorer{c: e.s.c, s0: e.s.opt.StartScore, cells0: e.s.cells0, d: depth}
	w.expandPart(e.s.c, sc, part, words, false)
	return w.children, w.best
}

// Children returns the children buffer of partition p (unsorted, with
// duplicates; nil when it has none); Reset empties them. The buffers are
// allocated as children arrive, so an expander of a well of millions of
// partitions costs what its children do.
func (e *Expander) Children(p int) []uint64 { return e.w.out.at(p) }

// EachChildren calls f on every partition with children, in increasing
// order, with its buffer (as Children): the cost follows the children, not
// the partitions (millions for the widest, tallest wells).
func (e *Expander) EachChildren(f func(p int, words []uint64)) {
	e.w.out.each(func(p int, b *[]uint64) {
		if len(*b) > 0 {
			f(p, *b)
		}
	})
}

// Reset empties the children buffers.
func (e *Expander) Reset() {
	e.w.out.each(func(_ int, b *[]uint64) { *b = (*b)[:0] })
}

// DedupPartition merges blocks of children of one partition into the
// sorted set of their distinct words, with the deduplication Search uses.
// The blocks are emptied.
func (s *Space) DedupPartition(blocks [][]uint64) []uint64 {
	ws := make([]*worker, len(blocks))
	for i, b := range blocks {
		ws[i] = &worker{out: newPartArray[[]uint64](1), spilled: newPartArray[int64](1)}
		*ws[i].out.ref(0) = b
	}
	var d deduper
	out, _ := d.merge(ws, 0, s.wordPart(), nil) // nothing spilled: no error
	return out
}

// PartHash is partition p's share of a level's order-independent set
// hash; the level's hash is the sum of its partitions' (both words), and
// two levels with the same wells have the same hash.
func PartHash(p int, words []uint64) [2]uint64 { return partHash(p, words) }

// WriteLevelFile writes a level in the level-file format of
// Options.LevelDir (level-NNNNN.bin, see levels.go): counts[p] words in
// partition p, given in order by part (each sorted). It returns the
// file's checksum, as Search's writer does.
func WriteLevelFile(w io.Writer, counts []int64, part func(p int) ([]uint64, error)) (uint32, error) {
	cw := &crcWriter{w: w}
	var b [8]byte
	put := func(v uint64) error {
		binary.LittleEndian.PutUint64(b[:], v)
		_, err := cw.Write(b[:])
		return err
	}
	if _, err := io.WriteString(cw, levelMagic); err != nil {
		return 0, err
	}
	if err := put(uint64(len(counts))); err != nil {
		return 0, err
	}
	for _, n := range counts {
		if err := put(uint64(n)); err != nil {
			return 0, err
		}
	}
	for p, n := range counts {
		if n == 0 {
			continue
		}
		words, err := part(p)
		if err == nil {
			err = writeWords(cw, words)
		}
		if err != nil {
			return 0, err
		}
	}
	sum := cw.crc
	binary.LittleEndian.PutUint64(b[:], uint64(sum))
	_, err := w.Write(b[:])
	return sum, err
}

// LevelFileName is the name of level d's file in a levels folder.
func LevelFileName(d int) string { return levelPath("", d) }

// WriteLevelMeta writes the meta.json that Search leaves in
// Options.LevelDir (dir) at the end of a search with options opt and
// result res.
func WriteLevelMeta(dir string, opt Options, res *Result) error {
	c, err := validate(opt)
	if err != nil {
		return err
	}
	lw, err := newLevelWriter(dir, c, opt)
	if err != nil {
		return err
	}
	return lw.finish(res)
}
