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
		p.compact()
	}
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
	if k == p.width {
		p.thr, p.hasThr = p.c[k-1], true
	}
}

// merge takes the best width distinct children of sorted, deduplicated
// pools and calls emit on each, best first.
func merge(pools []*pool, width int, emit func(*cand)) {
	pos := make([]int, len(pools))
	var last *cand
	for n := 0; n < width; {
		best := -1
		for i, p := range pools {
			if pos[i] < len(p.c) && (best < 0 || order(&p.c[pos[i]], &pools[best].c[pos[best]]) < 0) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		c := &pools[best].c[pos[best]]
		pos[best]++
		if last != nil && sameKey(c, last) {
			continue
		}
		emit(c)
		last = c
		n++
	}
}
