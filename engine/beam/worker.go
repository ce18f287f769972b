package beam

import (
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// worker expands parents on one goroutine.
type worker struct {
	s    *searcher
	r    *hatetris.Rules
	exp  expander
	ev   eval.Worker
	pw   eval.ParentWorker // ev, when it takes the parent first
	pool pool
	q    quiescer

	children  int64
	loops     int
	allRepeat int
	memo      memo
	well      hatetris.Well
}

func newWorker(s *searcher) *worker {
	w := &worker{s: s, r: s.r, ev: s.cfg.Eval.NewWorker(s.r)}
	w.exp.g = hatetris.NewGenerator(s.r)
	w.q = quiescer{g: hatetris.NewGenerator(s.r), ev: w.ev, cap: s.cfg.QuiescenceCap, r: s.r}
	w.q.cw, _ = w.ev.(eval.ClearsWorker)
	w.pw, _ = w.ev.(eval.ParentWorker)
	return w
}

func (w *worker) begin() {
	w.pool.reset(w.s.cfg.BeamWidth)
	w.children, w.loops, w.allRepeat = 0, 0, 0
}

// expand offers the children of parent i of level d to the pool.
func (w *worker) expand(d, i int) {
	st := w.s.st
	well := &w.well // not a local: the generator keeps a pointer to it
	unpack(w.r, &st.Wells[i], well)
	if w.pw != nil {
		w.pw.SetParent(well)
	}
	score := int(st.Scores[i])
	w.exp.hist.reset(w.r, cellsOf(well))
	w.s.tr.gather(d, i, &w.exp.hist)
	w.offerChildren(i, well, score)
}

// offerChildren offers the children of parent i (well, its score, with
// w.exp.hist holding its path's candidate wells) to the pool.
func (w *worker) offerChildren(i int, well *hatetris.Well, score int) {
	sent, mild, out := w.exp.expand(well)
	if sent != mild {
		w.loops++
	}
	if w.exp.allRepeat {
		w.allRepeat++
	}
	var c cand
	q := w.s.cfg.Quiescence
	var next *qentry // the memo entry of out[m] (quiescence), prefetched
	if q && len(out) > 0 {
		next = w.memo.slot(&out[0].Well, score+out[0].Lines, 0)
		prefetch(next)
	}
	for m := range out {
		res := &out[m]
		e := next
		if q && m+1 < len(out) {
			// The next child's entry is fetched while this one's chain is
			// followed (a cache miss in a 3 MB table otherwise).
			next = w.memo.slot(&out[m+1].Well, score+out[m+1].Lines, 0)
			prefetch(next)
		}
		if res.GameOver {
			continue
		}
		cs := score + res.Lines
		c.well = pack(w.r, &res.Well)
		if q {
			if !e.claim(&c.well, cs, 0) {
				e.value = w.q.value(&res.Well, cs)
			}
			c.value = e.value
		} else {
			// No memo: a lookup (a cache miss in a 3 MB table) costs
			// more than the evaluations its few hits would save.
			c.value = w.ev.Evaluate(&res.Well, cs, 0)
		}
		w.children++
		c.score, c.from = int32(cs), uint32(i)<<8|uint32(m)
		w.pool.offer(&c)
	}
}

// quiescer values a well by the best evaluation over the wells reachable
// from it by successive single-line clears: from each well, the first
// piece in S Z O I L J T order that cannot clear two lines at once (the
// AI would never give one that can), and each of its placements clearing
// exactly one line (D&F's bird-in-hand lookahead). Wells are deduplicated
// per step; at most cap wells are visited.
type quiescer struct {
	g         *hatetris.Generator
	ev        eval.Worker
	cap       int
	cur, next []qwell
	buf       []hatetris.Outcome
	// ocur, onext: a step's wells and the next step's (valueSingle).
	ocur, onext []hatetris.Outcome
	r           *hatetris.Rules
	cw          eval.ClearsWorker // ev, when it reports clears
	clr         [hatetris.NumPieces]int
}

// qwell is a well of a quiescence chain with the most lines each piece
// can clear in it (-1: not known).
type qwell struct {
	well   hatetris.Well
	clears [hatetris.NumPieces]int8
}

// memo is a direct-mapped cache of the children's quiescence values (the
// same well recurs among the children of different parents). Values are
// pure functions of (well, score, k), so the cache changes no result.
// Without quiescence children are not cached: an evaluation costs less
// than a lookup.
type memo struct {
	tab []qentry
}

type qentry struct {
	well  pwell
	score int32
	k     int16
	ok    bool
	value float64
}

const memoBits = 16

// slot returns the entry (w, score, k) maps to.
func (m *memo) slot(w *hatetris.Well, score, k int) *qentry {
	if m.tab == nil {
		m.tab = make([]qentry, 1<<memoBits)
	}
	h := hashWell(w) ^ uint64(score)*0x9e3779b97f4a7c15 ^ uint64(k)*0xc2b2ae3d27d4eb4f
	return &m.tab[h>>(64-memoBits)]
}

// claim reports whether e (the slot of (w, score, k), p being w packed)
// holds their value; otherwise it claims e and the caller sets value.
func (e *qentry) claim(p *pwell, score, k int) bool {
	if e.ok && e.well == *p && e.score == int32(score) && e.k == int16(k) {
		return true
	}
	e.well, e.score, e.k, e.ok = *p, int32(score), int16(k), true
	return false
}

// eval is the evaluation of w at score and quiescence depth k, with the
// most lines each piece clears in w when the evaluation reports them (-1
// otherwise). It is not memoized: the worker's memo already catches the
// children that recur, and the chain wells almost never recur (1 % of
// them in a width-1,000 search with generation 0), so a cache here cost
// more (a cache miss per lookup) than the evaluations it saved.
func (q *quiescer) eval(w *hatetris.Well, score, k int) (float64, [hatetris.NumPieces]int8) {
	var clears [hatetris.NumPieces]int8
	if q.cw != nil {
		v := q.cw.EvaluateClears(w, score, k, &q.clr)
		for i, n := range q.clr {
			clears[i] = int8(n)
		}
		return v, clears
	}
	return q.ev.Evaluate(w, score, k), [hatetris.NumPieces]int8{-1, -1, -1, -1, -1, -1, -1}
}

func (q *quiescer) value(w *hatetris.Well, score int) float64 {
	if q.cw == nil {
		return q.valueSingle(w, score)
	}
	best, clears := q.eval(w, score, 0)
	q.cur = append(q.cur[:0], qwell{*w, clears})
	visited := 1
	for k := 1; len(q.cur) > 0 && visited < q.cap; k++ {
		q.next = q.next[:0]
		for i := range q.cur {
			x := &q.cur[i]
			if x.clears[0] < 0 {
				// Clears not reported by the evaluation: one pass of the
				// generator picks the piece and builds its clears.
				q.buf, _ = q.g.SingleClears(&x.well, q.buf[:0])
			} else {
				p, ok := q.piece(x)
				if !ok {
					continue
				}
				q.buf = q.g.ClearingOutcomes(&x.well, p, q.buf[:0])
			}
			for j := range q.buf {
				res := &q.buf[j]
				if res.Lines != 1 || res.GameOver || q.has(&res.Well) {
					continue
				}
				q.next = append(q.next, qwell{well: res.Well})
			}
		}
		for i := range q.next {
			if visited >= q.cap {
				q.next = q.next[:i]
				break
			}
			visited++
			var v float64
			v, q.next[i].clears = q.eval(&q.next[i].well, score, k)
			best = max(best, v)
		}
		q.cur, q.next = q.next, q.cur
	}
	return best
}

// valueSingle is value for an evaluation that does not report clears
// (the network's): the same wells in the same order, each step's wells
// kept where SingleClears built them (two outcome buffers, one a step)
// rather than copied, and no clears carried.
func (q *quiescer) valueSingle(w *hatetris.Well, score int) float64 {
	best := q.ev.Evaluate(w, score, 0)
	q.ocur, _ = q.g.SingleClears(w, q.ocur[:0])
	q.ocur = q.keep(q.ocur[:0], q.ocur)
	visited := 1
	for k := 1; len(q.ocur) > 0 && visited < q.cap; k++ {
		if n := q.cap - visited; len(q.ocur) > n {
			q.ocur = q.ocur[:n]
		}
		visited += len(q.ocur)
		for i := range q.ocur {
			best = max(best, q.ev.Evaluate(&q.ocur[i].Well, score, k))
		}
		if visited >= q.cap {
			break
		}
		q.onext = q.onext[:0]
		for i := range q.ocur {
			start := len(q.onext)
			q.onext, _ = q.g.SingleClears(&q.ocur[i].Well, q.onext)
			q.onext = q.keep(q.onext[:start], q.onext[start:])
		}
		q.ocur, q.onext = q.onext, q.ocur
	}
	return best
}

// keep appends to kept the outcomes of add that a chain follows (one
// line, not game over, not already in kept), in order; add may be the
// tail of kept's own array (kept's length is then where add starts), and
// the outcomes are then filtered in place.
func (q *quiescer) keep(kept, add []hatetris.Outcome) []hatetris.Outcome {
	for j := range add {
		res := &add[j]
		if res.Lines != 1 || res.GameOver || hasWell(kept, &res.Well) {
			continue
		}
		if n := len(kept); n < cap(kept) && &kept[:n+1][n] == res {
			kept = kept[:n+1] // already in place
		} else {
			kept = append(kept, *res)
		}
	}
	return kept
}

func hasWell(rs []hatetris.Outcome, w *hatetris.Well) bool {
	for i := range rs {
		if rs[i].Well == *w {
			return true
		}
	}
	return false
}

// piece returns the chain's piece for x: the first that cannot clear two
// lines, if it can clear one.
func (q *quiescer) piece(x *qwell) (hatetris.Piece, bool) {
	for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
		n := int(x.clears[p])
		if n < 0 {
			n = q.g.MaxClear(&x.well, p)
		}
		switch {
		case n >= 2:
			continue
		case n == 1:
			return p, true
		default:
			return 0, false
		}
	}
	return 0, false
}

func (q *quiescer) has(w *hatetris.Well) bool {
	for i := range q.next {
		if q.next[i].well == *w {
			return true
		}
	}
	return false
}
