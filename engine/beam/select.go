package beam

import "slices"

// cand is a child competing for a place in the next beam.
type cand struct {
	value float64
	score int32
	// from is the parent index << 8 | the outcome index (widths up to
	// 2^24, at most 256 outcomes a piece), so that a cand is 48 bytes.
	from uint32
	well pwell
}

func (c *cand) parent() uint32 { return c.from >> 8 }
func (c *cand) move() uint8    { return uint8(c.from) }

// order is the beam's strict total order: higher value first, then higher
// score, then the smaller well (rows compared from the top), then the
// smaller parent index and outcome index. Equal (score, well) pairs have
// equal values, so duplicates sit next to each other, the one with the
// smallest parent first.
func order(a, b *cand) int {
	if a.value != b.value {
		if a.value > b.value {
			return -1
		}
		return 1
	}
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if c := comparePacked(&a.well, &b.well); c != 0 {
		return c
	}
	if a.from != b.from {
		if a.from < b.from {
			return -1
		}
		return 1
	}
	return 0
}

// sameKey reports whether a and b are the same well with the same score.
func sameKey(a, b *cand) bool { return a.score == b.score && a.well == b.well }

func cmpCand(a, b cand) int { return order(&a, &b) }

// pool keeps the best width distinct children offered to it (a worker's
// share of one level). Whatever the order children arrive in, and however
// the parents are split between workers, merging the pools gives the same
// beam: a child in the global best width is in the best width of any
// subset holding it.
type pool struct {
	width  int
	c      []cand
	thr    cand
	hasThr bool
	// sorted: c[:sorted] is sorted and better than the rest (merge reads
	// c in order, sorting the rest when it gets there).
	sorted int
	tab    []uint64 // shrink's hash table of keys (a hash's top half | an index into c, plus one)
}

func (p *pool) reset(width int) {
	p.width = width
	if n := p.limit(); cap(p.c) != n {
		p.c = make([]cand, 0, n)
	}
	p.c = p.c[:0]
	p.hasThr = false
}

// limit is the pool's capacity: it compacts when full.
func (p *pool) limit() int { return p.width + p.width/4 + 64 }

// offer adds a child unless it cannot make the cut. Children must arrive
// in increasing parent order within a pool.
func (p *pool) offer(c *cand) {
	if p.hasThr {
		// Worse than the width-th best, or a later copy of it.
		if o := order(c, &p.thr); o >= 0 || sameKey(c, &p.thr) {
			return
		}
	}
	p.c = append(p.c, *c)
	if len(p.c) == cap(p.c) {
		p.shrink()
	}
}

// shrink is compact for a full pool in the middle of a level: the same
// children kept and the same threshold, without sorting them (the pool
// is sorted once, by compact, when the level's offers end). Duplicates
// (same score and well) are removed through a hash table, keeping the
// first in order, then the best width are selected.
func (p *pool) shrink() {
	n := len(p.c)
	size := 1
	for size < 2*n {
		size <<= 1
	}
	if len(p.tab) != size {
		p.tab = make([]uint64, size)
	} else {
		clear(p.tab)
	}
	mask := uint64(size - 1)
	// The keys' hashes are computed ahead and their slots prefetched (a
	// cache miss each in a table of megabytes otherwise). Children ahead
	// of i are not moved yet: the kept ones move down, to k <= i.
	const ahead = 8
	var hs [ahead]uint64
	for i := range min(ahead, n) {
		hs[i] = keyHash(&p.c[i])
		prefetchSlot(&p.tab[hs[i]&mask])
	}
	k := 0
	for i := 0; i < n; i++ {
		c := &p.c[i]
		x := hs[i%ahead]
		if j := i + ahead; j < n {
			y := keyHash(&p.c[j])
			hs[j%ahead] = y
			prefetchSlot(&p.tab[y&mask])
		}
		tag := x &^ 0xffffffff // the hash's top half: most slots that hold another key are told by it
		h := x & mask
		for {
			e := p.tab[h]
			if e == 0 {
				p.c[k] = *c
				k++
				p.tab[h] = tag | uint64(k)
				break
			}
			if e&^0xffffffff == tag {
				if d := &p.c[uint32(e)-1]; sameKey(d, c) {
					if order(c, d) < 0 {
						*d = *c
					}
					break
				}
			}
			h = (h + 1) & mask
		}
	}
	p.c = p.c[:k]
	if k < p.width {
		return
	}
	selectBest(p.c, p.width)
	p.c = p.c[:p.width]
	worst := 0
	for i := 1; i < len(p.c); i++ {
		if order(&p.c[i], &p.c[worst]) > 0 {
			worst = i
		}
	}
	p.thr, p.hasThr = p.c[worst], true
}

// keyHash mixes a child's score and well.
func keyHash(c *cand) uint64 {
	w := &c.well
	h := uint64(uint32(c.score))*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	for i := 0; i < rowsMax; i += 4 {
		v := uint64(w[i]) | uint64(w[i+1])<<16 | uint64(w[i+2])<<32 | uint64(w[i+3])<<48
		h = (h ^ v) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// selectBest moves the best k of c (in order, distinct elements) to its
// front, in no particular order: a quickselect on the median of three,
// which falls back to sorting after too many rounds.
func selectBest(c []cand, k int) {
	lo, hi := 0, len(c)
	for rounds := 0; hi-lo > 16; rounds++ {
		if rounds > 64 {
			slices.SortFunc(c[lo:hi], cmpCand)
			return
		}
		// Median of three to c[lo].
		m := lo + (hi-lo)/2
		if order(&c[m], &c[lo]) < 0 {
			c[m], c[lo] = c[lo], c[m]
		}
		if order(&c[hi-1], &c[lo]) < 0 {
			c[hi-1], c[lo] = c[lo], c[hi-1]
		}
		if order(&c[hi-1], &c[m]) < 0 {
			c[hi-1], c[m] = c[m], c[hi-1]
		}
		c[lo], c[m] = c[m], c[lo]
		pivot := c[lo]
		// Partition c[lo+1:hi] into better than the pivot, then worse.
		i := lo + 1
		for j := lo + 1; j < hi; j++ {
			if order(&c[j], &pivot) < 0 {
				c[i], c[j] = c[j], c[i]
				i++
			}
		}
		c[lo], c[i-1] = c[i-1], c[lo] // the pivot at its rank, i-1
		switch r := i - 1; {
		case r == k || r+1 == k:
			return
		case r > k:
			hi = r
		default:
			lo = r + 1
		}
	}
	slices.SortFunc(c[lo:hi], cmpCand)
}

// finish ends a level's offers for merge: when the pool holds more than
// k children, its best k sorted at its front and the rest after them, all
// worse, unsorted (merge sorts more of them if it needs them); else all
// sorted.
// k is about the pool's share of the next beam: with many workers a pool
// holds up to width children of which merge takes about width/workers,
// and a selection costs less than a sort of them all.
func (p *pool) finish(k int) {
	k = max(k, 1) // merge reads a pool's first child before sorting more
	if k < len(p.c) {
		selectBest(p.c, k)
	} else {
		k = len(p.c)
	}
	slices.SortFunc(p.c[:k], cmpCand)
	p.sorted = k
}

// compact sorts, removes duplicates and keeps the best width.
func (p *pool) compact() {
	slices.SortFunc(p.c, cmpCand)
	k := 0
	for i := range p.c {
		if k > 0 && sameKey(&p.c[i], &p.c[k-1]) {
			continue
		}
		p.c[k] = p.c[i]
		k++
		if k == p.width {
			break
		}
	}
	p.c = p.c[:k]
	p.sorted = k
	if k == p.width {
		p.thr, p.hasThr = p.c[k-1], true
	}
}

// merge takes the best width distinct children of pools (each compacted
// or finished) and calls emit on each, best first. The pools' heads meet
// in a tournament tree (a loser tree): a child costs about log2(pools)
// comparisons, not one a pool.
func merge(pools []*pool, width int, emit func(*cand)) {
	k := len(pools)
	size := 1
	for size < k {
		size <<= 1
	}
	pos := make([]int, k)
	head := func(i int) *cand {
		if i < k && pos[i] < pools[i].sorted {
			return &pools[i].c[pos[i]]
		}
		return nil
	}
	next := func(i int) {
		p := pools[i]
		if pos[i]++; pos[i] == p.sorted && p.sorted < len(p.c) {
			// Past the finished pool's sorted best: as many more again,
			// selected from the rest, then sorted (a serial step: a
			// selection costs less than sorting all the rest).
			rest := p.c[p.sorted:]
			k := min(len(rest), p.sorted)
			if k < len(rest) {
				selectBest(rest, k)
			}
			slices.SortFunc(rest[:k], cmpCand)
			p.sorted += k
		}
	}
	// before reports whether pool i's head comes before pool j's (an
	// exhausted pool, or a leaf past the last pool, comes last).
	before := func(i, j int) bool {
		a, b := head(i), head(j)
		if a == nil {
			return false
		}
		return b == nil || order(a, b) < 0
	}
	// loser[n], for the tree's inner nodes 1..size-1, is the pool that
	// lost the match at n; the leaves size..2*size-1 are the pools.
	loser := make([]int, size)
	win := make([]int, 2*size)
	for i := range size {
		win[size+i] = i
	}
	for n := size - 1; n >= 1; n-- {
		a, b := win[2*n], win[2*n+1]
		if before(b, a) {
			a, b = b, a
		}
		win[n], loser[n] = a, b
	}
	winner := win[1]
	var last *cand
	for n := 0; n < width; {
		c := head(winner)
		if c == nil {
			return
		}
		next(winner)
		if last == nil || !sameKey(c, last) {
			emit(c)
			last = c
			n++
		}
		// Replay the winner's matches with its next head.
		w := winner
		for node := (w + size) >> 1; node >= 1; node >>= 1 {
			if before(loser[node], w) {
				loser[node], w = w, loser[node]
			}
		}
		winner = w
	}
}
