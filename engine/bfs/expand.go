package bfs

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// worker is one goroutine's share of a level: it expands states into
// per-partition children buffers, then deduplicates whole partitions.
type worker struct {
	ctx      context.Context // the search's (nil: never cancelled)
	id       int
	gen      *hatetris.Generator
	res      []hatetris.Outcome
	plain    []hatetris.Placement
	arena    *wordArena // where out's buffers live (memory mode)
	dedup    deduper    // its tables, kept from level to level
	out      partArray[[]uint64]
	first    int // the words of a partition's first buffer (reserve)
	children int64
	expanded atomic.Int64
	best     int
	// Loop detection: expanded wells and their children (score-free).
	parents [][2]uint64
	edges   []trackEdge
	well    hatetris.Well
	err     error
	// Disk mode: children spilled to files, per partition.
	spillDir   string
	spillWords int
	buffered   int
	spilled    partArray[int64]
	scratch    []uint64
	// Compressed levels: a block's keys, (hi, lo) pairs; in compressed
	// disk mode the block's bytes, the children being sorted and the
	// runs spilled this level.
	keys     []uint64
	raw      []byte
	compress bool
	hist     []int64
	fill     []int64
	sorted   []uint64
	radix    []uint64 // sortWords' buffer
	flat     []uint64 // the children as (hi, lo) pairs
	runs     []*fileRun
	merged   int // runs compacted (compactRuns), for their names
}

// newWorker returns worker id of a search of P partitions, with its rules.
func newWorker(id int, rules *hatetris.Rules, P int) *worker {
	return &worker{id: id, gen: hatetris.NewGenerator(rules), out: newPartArray[[]uint64](P), spilled: newPartArray[int64](P)}
}

// expandLevel expands every state of cur into the workers' partition
// buffers and returns the best score in cur. Workers take the store's
// units (partitions or blocks) one at a time; when ctx is cancelled they stop at the next partition (or
// within 1024 states of a partition), and expandLevel returns ctx.Err(),
// the buffers then holding part of the children.
func expandLevel(ctx context.Context, c *codec, sc scorer, cur *level, workers []*worker, track bool, tick func(int64)) (int, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	units := cur.store.units() // partitions or blocks
	for _, w := range workers {
		w.children, w.best, w.err, w.ctx = 0, -1, nil, ctx
		w.expanded.Store(0)
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			for {
				if err := ctx.Err(); err != nil {
					w.err = err
					return
				}
				p := int(next.Add(1) - 1)
				if p >= units {
					return
				}
				cur.store.expandUnit(w, c, sc, p, track)
				if w.err != nil {
					return
				}
			}
		}(w)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			best := -1
			for _, w := range workers {
				if w.err != nil {
					return 0, w.err
				}
				best = max(best, w.best)
			}
			return best, nil
		case <-t.C:
			var e int64
			for _, w := range workers {
				e += w.expanded.Load()
			}
			tick(e)
		}
	}
}

// expandPart expands the states of partition p (words) into the worker's
// buffers, spilling them in disk mode; it sets w.err on an error or a
// cancel.
func (w *worker) expandPart(c *codec, sc scorer, p uint32, words []uint64, track bool) {
	for i, word := range words {
		hi0, lo0 := c.decodeKey(p, word)
		if !w.expandState(c, sc, hi0, lo0, track) {
			return
		}
		if i&1023 == 1023 {
			w.expanded.Add(1024)
			if w.ctx != nil && w.ctx.Err() != nil {
				w.err = w.ctx.Err()
				return
			}
		}
	}
	w.expanded.Add(int64(len(words) & 1023))
}

// expandState expands the state of plain key (hi0, lo0) into the worker's
// buffers, spilling them in disk mode; false (w.err set) on an error.
func (w *worker) expandState(c *codec, sc scorer, hi0, lo0 uint64, track bool) bool {
	c.unpackRows(hi0, lo0, &w.well) // the rows above the bar stay 0
	w.best = max(w.best, sc.scoreKey(hi0, lo0))
	if track {
		w.parents = append(w.parents, [2]uint64{hi0, lo0})
	}
	_, w.plain, w.res = w.gen.LiveMoves(&w.well, hatetris.Mild, nil, w.plain[:0], w.res[:0])
	// A line-free child's key is its parent's with the piece's cells
	// added.
	for j := range w.plain {
		hi, lo := c.place(hi0, lo0, &w.plain[j])
		w.addChild(c, hi, lo, 0, track)
	}
	for j := range w.res {
		r := &w.res[j]
		hi, lo := c.pack(&r.Well)
		w.addChild(c, hi, lo, r.Lines, track)
	}
	w.children += int64(len(w.plain) + len(w.res))
	w.buffered += len(w.plain) + len(w.res)
	if w.spillDir != "" && w.buffered > w.spillWords {
		spill := func() error { return w.spill(w.spillDir) }
		if w.compress {
			spill = func() error { return w.spillRun(c) }
		}
		if err := spill(); err != nil {
			w.err = err
			return false
		}
	}
	return true
}

// reserve readies every worker's partition buffers for about children
// children in all (spread over the workers and partitions): a partition's
// first buffer takes its expected share and a margin from the worker's
// arena (whose old words were merged), when the partition gets its first
// child. The arena is sized from the children expected, not from the
// partitions: a wide, tall well has millions of partitions and, early on,
// a few hundred children.
func reserve(workers []*worker, children float64) {
	if len(workers) == 0 {
		return
	}
	P := workers[0].out.len()
	perWorker := children / float64(len(workers))
	n := int(perWorker*1.1/float64(P)) + 8
	touched := int(min(float64(P), perWorker*1.1+1))
	for _, w := range workers {
		// The old buffers lived in the arena, emptied here.
		w.out.each(func(_ int, b *[]uint64) { *b = nil })
		w.first = n
		// Half as much again for the partitions that outgrow n (the
		// part never used is never touched, so costs no memory).
		w.arena = w.arena.reuse(n*touched + n*touched/2)
	}
}

// grow moves a full children buffer to one twice its size (an empty one
// to its first buffer), taken from the worker's arena while it has room
// (the heap after).
func (w *worker) grow(buf []uint64) []uint64 {
	if cap(buf) == 0 {
		return w.arena.alloc(max(w.first, 16))
	}
	return append(w.arena.alloc(max(2*cap(buf), 16)), buf...)
}

// addChild files a live child, given by its plain key, under its
// partition.
func (w *worker) addChild(c *codec, hi, lo uint64, lines int, track bool) {
	if track {
		w.edges = append(w.edges, trackEdge{parent: int32(len(w.parents) - 1), child: [2]uint64{hi, lo}, lines: int8(lines)})
	}
	if w.compress {
		// Compressed disk mode: plain keys, one buffer (spillRun).
		w.flat = append(w.flat, hi, lo)
		return
	}
	cp, cw := c.encodeKey(hi, lo)
	bp := w.out.ref(int(cp))
	buf := *bp
	if len(buf) == cap(buf) {
		buf = w.grow(buf)
	}
	*bp = append(buf, cw)
}
