package nnue

import (
	"fmt"
	"math"
	"math/bits"
)

// Limits of the hidden scale QA: hidden values are clamped to +-QA (1.0
// in the float network).
const (
	minQA = 8
	maxQA = 8192
)

// Quantized is the integer network the engine runs. The first layer is
// int16 (W1 and B1 times QA, rounded half away from zero), the hidden
// pre-activations are int16 sums, the activation clamps them to +-QA (or a
// QA-scaled tanh table), and the output is an int64 sum of int16-scaled
// output weights (times QB) with the hidden values, plus B2*QA*QB; the value
// is that sum over QA*QB.
//
// Packing: the pre-activations of four hidden units share one uint64 word
// as the integer sum of lane_i*2^(16i) modulo 2^64, so a weight row is
// added with one 64-bit add per four units; since every lane's true sum
// stays within int16 (checked when quantising: QA is lowered until the
// worst case over all wells fits), the lanes decode exactly. Integer
// addition is order-free, so an accumulator updated from its parent is
// bit for bit the full refresh.
type Quantized struct {
	fs          *FeatureSet
	hidden      int
	words       int // hidden units / 4, rounded up
	act         Activation
	qa, qb      int32
	lo          int32    // the clamp's low end: -QA or 0
	w1          []uint64 // Count()*words
	b1          []uint64 // words
	w2          []int32  // 4*words, zero past hidden
	b2          int64
	tanh        []int16 // Tanh only: 65536 entries indexed by uint16(pre-activation)
	scale       float64 // 1/(QA*QB)
	scoreWeight float64
	errBound    float64
	maxBand     int // Update falls back to a refresh above this many changed rows
	// w2h: w2 as int16 (every output weight fits), for the AVX2 output
	// kernel; nil where it does not run (tanh, or hidden words not a
	// multiple of 8).
	w2h []int16
}

// MaxErrorBound is the largest ErrorBound Quantize accepts: the values
// of a network (trained towards targets in [-1, 1]) that the int16 engine
// could move by more than this would rank wells on rounding noise.
const MaxErrorBound = 1.0

// maxB2 bounds the output bias in integer units (B2*QA*QB): well inside
// int64 and exact in float64, so that no sum can wrap.
const maxB2 = 1 << 52

// Quantize converts a float network. qa is the hidden scale (1.0 in the
// float network is qa in the integer one): 0 picks the largest qa up to
// 8192 for which every weight and the pre-activations of every possible
// well (B1 plus, per slot, the least or the most weight among its
// patterns, plus rounding) fit int16; a given qa is lowered (by quarters) until it fits. With
// trained weights clamped to |W1| <= 1 at 10x16 the automatic qa is about
// 256 (the design's QA); smaller weights get a finer grid. qb scales the
// output weights: 0 picks the largest up to 32767 that keeps every output
// weight within int16; a given qb is lowered to fit.
//
// A network the integer scheme cannot represent is refused in one line:
// first-layer sums beyond int16 at the smallest qa, an output weight
// beyond 32767 (qb would be 0), an output bias whose integer value leaves
// ±2^52, or an error bound (ErrorBound) above MaxErrorBound.
func Quantize(n *Network, qa, qb int) (*Quantized, error) {
	if err := n.check(); err != nil {
		return nil, err
	}
	if qa != 0 && (qa < minQA || qa > maxQA) || qb < 0 || qb > 1<<20 {
		return nil, fmt.Errorf("quantisation scales qa=%d qb=%d out of range (qa %d..%d, qb 1..2^20)", qa, qb, minQA, maxQA)
	}
	qa, err := hiddenScale(n, qa)
	if err != nil {
		return nil, err
	}
	if qb, err = outputScale(n.W2, qb); err != nil {
		return nil, err
	}
	if b := math.Abs(float64(n.B2)) * float64(qa) * float64(qb); b > maxB2 {
		return nil, fmt.Errorf("output bias %.3g too large for the integer network (|B2|*QA*QB = %.3g > 2^52)", n.B2, b)
	}
	q := &Quantized{
		fs: n.Features, hidden: n.Hidden, words: (n.Hidden + 3) / 4, act: n.Activation,
		qa: int32(qa), qb: int32(qb), scoreWeight: n.ScoreWeight,
		maxBand: defaultMaxBand,
	}
	q.scale = 1 / (float64(qa) * float64(qb))
	if q.act == HardTanh || q.act == Tanh {
		q.lo = -q.qa
	}
	q.fill(n)
	q.errBound = errorBound(n, qa, qb)
	if !(q.errBound <= MaxErrorBound) {
		return nil, fmt.Errorf("int16 error bound %.3g exceeds %g (output weights sum to %.3g at qa=%d qb=%d): the integer network would rank on rounding noise", q.errBound, MaxErrorBound, sumAbs(n.W2), qa, qb)
	}
	return q, nil
}

// preActivationBound is the largest magnitude, in float units, of any
// single first-layer weight or bias and of any hidden unit's
// pre-activation over every well: B1 plus, per slot, the least (most)
// weight among the slot's patterns. The packed sums are exact when the
// final sums fit int16, whatever the partial sums do, so this range is
// what must fit (with every single weight).
func preActivationBound(n *Network) float64 {
	fs := n.Features
	lo := make([]float64, n.Hidden)
	hi := make([]float64, n.Hidden)
	single := 0.0
	for j := range lo {
		lo[j], hi[j] = float64(n.B1[j]), float64(n.B1[j])
		single = max(single, math.Abs(float64(n.B1[j])))
	}
	type minmax struct{ lo, hi []float64 }
	groups := map[int32]minmax{}
	for s := 0; s < fs.active; s++ {
		b := fs.base[s]
		m, ok := groups[b]
		if !ok {
			m = minmax{make([]float64, n.Hidden), make([]float64, n.Hidden)}
			for j := range m.lo {
				m.lo[j], m.hi[j] = math.Inf(1), math.Inf(-1)
			}
			np := int32(1) << fs.width
			if s >= fs.height {
				np = windowPatterns
			}
			for f := b; f < b+np; f++ {
				for j, w := range n.Row(f) {
					m.lo[j] = min(m.lo[j], float64(w))
					m.hi[j] = max(m.hi[j], float64(w))
					single = max(single, math.Abs(float64(w)))
				}
			}
			groups[b] = m
		}
		for j := range lo {
			lo[j] += m.lo[j]
			hi[j] += m.hi[j]
		}
	}
	worst := single
	for j := range lo {
		worst = max(worst, -lo[j], hi[j])
	}
	return worst
}

// hiddenScale returns the hidden scale QA (qa 0: automatic) at which
// every pre-activation of n fits int16.
func hiddenScale(n *Network, qa int) (int, error) {
	worst := preActivationBound(n)
	active := n.Features.active
	// Rounding adds at most 1/2 per term: K+1 terms.
	fits := func(qa int) bool { return worst*float64(qa)+float64(active+1)/2 <= math.MaxInt16 }
	auto := qa == 0
	if auto {
		qa = maxQA
	}
	if auto && !fits(qa) && worst > 0 {
		qa = int(max((math.MaxInt16-float64(active+1)/2)/worst, 0))
	}
	for qa >= minQA && !fits(qa) {
		qa = qa * 3 / 4
	}
	if qa < minQA {
		return 0, fmt.Errorf("first-layer weights too large for int16 sums (worst pre-activation %.3g)", worst)
	}
	return qa, nil
}

// outputScale returns the output scale QB (qb 0: automatic, the largest
// up to 32767) at which every output weight fits int16; the division is
// done in float64, so tiny weights cannot overflow an int.
func outputScale(w2 []float32, qb int) (int, error) {
	maxW2 := 0.0
	for _, w := range w2 {
		maxW2 = max(maxW2, math.Abs(float64(w)))
	}
	if qb == 0 {
		qb = math.MaxInt16
	}
	if maxW2 > 0 && maxW2*float64(qb) > math.MaxInt16 {
		qb = int(min(math.MaxInt16/maxW2, float64(qb)))
	}
	if qb < 1 {
		return 0, fmt.Errorf("output weight %.3g too large for the integer network (at most 32767)", maxW2)
	}
	return qb, nil
}

// fill writes the integer weights of n at q's scales.
func (q *Quantized) fill(n *Network) {
	fs, qa, qb := q.fs, float64(q.qa), float64(q.qb)
	q.w1 = make([]uint64, fs.Count()*q.words)
	for f := 0; f < fs.Count(); f++ {
		pack(q.w1[f*q.words:(f+1)*q.words], n.Row(int32(f)), qa)
	}
	q.b1 = make([]uint64, q.words)
	pack(q.b1, n.B1, qa)
	q.w2 = make([]int32, 4*q.words)
	for j, w := range n.W2 {
		q.w2[j] = int32(math.Round(float64(w) * qb))
	}
	q.b2 = int64(math.Round(float64(n.B2) * qa * qb))
	if q.act != Tanh && q.words%8 == 0 {
		// |w| <= 32767 (outputScale), checked all the same.
		q.w2h = make([]int16, len(q.w2))
		for j, w := range q.w2 {
			if w != int32(int16(w)) {
				q.w2h = nil
				break
			}
			q.w2h[j] = int16(w)
		}
	}
	if q.act == Tanh {
		q.tanh = make([]int16, 1<<16)
		for i := range q.tanh {
			x := float64(int16(uint16(i))) / qa
			q.tanh[i] = int16(math.Round(math.Tanh(x) * qa))
		}
	}
}

// errorBound is the most the integer value can differ from the float
// network's: per hidden unit, (K+1) roundings of 1/(2QA) in the sum (the
// activations are 1-Lipschitz; the tanh table adds 1/(2QA)), times |W2|;
// plus the output weights' roundings of 1/(2QB) times |hidden| <= 1; plus
// B2's.
func errorBound(n *Network, qa, qb int) float64 {
	eAcc := float64(n.Features.active+1) / (2 * float64(qa))
	if n.Activation == Tanh {
		eAcc += 1 / (2 * float64(qa))
	}
	e := 0.0
	for _, w := range n.W2 {
		e += math.Abs(float64(w))*eAcc + (1+eAcc)/(2*float64(qb))
	}
	return e + 1/(2*float64(qa)*float64(qb))
}

func sumAbs(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Abs(float64(x))
	}
	return s
}

// pack writes the rounded values v*scale, four to a word.
func pack(dst []uint64, v []float32, scale float64) {
	for j, x := range v {
		q := int64(math.Round(float64(x) * scale))
		dst[j/4] += uint64(q) << (16 * (j % 4))
	}
}

// ErrorBound is the most the integer value (Value) can differ from the
// float network's (Network.Forward), over every well.
func (q *Quantized) ErrorBound() float64 { return q.errBound }

// Features returns the network's feature set.
func (q *Quantized) Features() *FeatureSet { return q.fs }

// Hidden is the hidden layer's size.
func (q *Quantized) Hidden() int { return q.hidden }

// Scales returns the effective QA and QB.
func (q *Quantized) Scales() (qa, qb int) { return int(q.qa), int(q.qb) }

// ScoreWeight is the value of a line (see Network.ScoreWeight).
func (q *Quantized) ScoreWeight() float64 { return q.scoreWeight }

// String describes the network, e.g. "shared 10x16 (F=5120, K=120) H32
// hardtanh qa=256 qb=1024".
func (q *Quantized) String() string {
	return fmt.Sprintf("%s H%d %s qa=%d qb=%d", q.fs, q.hidden, q.act, q.qa, q.qb)
}

// W1 returns the quantised first-layer weight of feature f, hidden unit j.
func (q *Quantized) W1(f int32, j int) int16 {
	return lane(q.w1[int(f)*q.words:], j)
}

// B1 returns the quantised bias of hidden unit j.
func (q *Quantized) B1(j int) int16 { return lane(q.b1, j) }

// lane decodes lane j of packed words.
func lane(words []uint64, j int) int16 {
	x := words[j/4]
	for l := 0; l < j%4; l++ {
		v := int16(x)
		x = (x - uint64(int64(v))) >> 16
	}
	return int16(x)
}

// Accumulator holds one well's hidden pre-activations (packed), its active
// features by slot and its rows, so that a child's accumulator can be
// updated from it. Make one with Quantized.NewAccumulator.
type Accumulator struct {
	words []uint64
	feats []int32
	swaps []int32 // scratch of delta: (old, new) feature pairs
	next  []int32 // scratch of delta: recomputed window slots
	// olds, news: scratch of delta's AVX2 path, the (old, new) pairs
	// as two lists (Active+8 entries: the kernel stores eight at a time).
	olds, news []int32
	rows       [MaxHeight]uint16
	// valid: feats and rows are those of words' well (set by Refresh and
	// Update; ChildOutput's update from a parent leaves them stale).
	valid bool
}

// NewAccumulator returns an empty accumulator for q: Refresh or Update it
// before use.
func (q *Quantized) NewAccumulator() *Accumulator {
	return &Accumulator{words: make([]uint64, q.words), feats: make([]int32, q.fs.active), swaps: make([]int32, 0, 2*q.fs.active), next: make([]int32, q.fs.active),
		olds: make([]int32, q.fs.active+8), news: make([]int32, q.fs.active+8)}
}

// Lanes appends the hidden pre-activations of a (int16, QA = 1.0).
func (a *Accumulator) Lanes(dst []int16, hidden int) []int16 {
	for j := 0; j < hidden; j++ {
		dst = append(dst, lane(a.words, j))
	}
	return dst
}

// Feats returns the active features of a's well by slot (do not modify).
func (a *Accumulator) Feats() []int32 { return a.feats }

// Refresh computes a from scratch for the Height rows below the bar.
func (q *Quantized) Refresh(a *Accumulator, rows []uint16) {
	fs := q.fs
	rows = rows[:fs.height]
	copy(a.rows[:], rows)
	a.valid = true
	a.feats = fs.Append(a.feats[:0], rows)
	acc := a.words[:q.words]
	copy(acc, q.b1)
	switch q.words {
	case 8:
		addRows8((*[8]uint64)(acc), q.w1, 8, 0, a.feats)
	case 16:
		addRows8((*[8]uint64)(acc[:8]), q.w1, 16, 0, a.feats)
		addRows8((*[8]uint64)(acc[8:]), q.w1, 16, 8, a.feats)
	default:
		for _, f := range a.feats {
			addRow(acc, q.w1[int(f)*q.words:int(f)*q.words+q.words])
		}
	}
}

// addRows8 adds to acc words off..off+7 of the weight rows of feats (rows
// of stride words in w1), holding the sums in registers.
// On amd64 with AVX2 it runs the assembly kernel (rows_amd64.s), whose
// sums are the same 64-bit words.
func addRows8(acc *[8]uint64, w1 []uint64, stride, off int, feats []int32) {
	if hasAVX2 {
		if len(feats) > 0 {
			addRows8AVX2(acc, &w1[off], &feats[0], len(feats), stride*8)
		}
		return
	}
	addRows8Go(acc, w1, stride, off, feats)
}

// addRows8Go is addRows8 in Go.
func addRows8Go(acc *[8]uint64, w1 []uint64, stride, off int, feats []int32) {
	a0, a1, a2, a3, a4, a5, a6, a7 := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7]
	for _, f := range feats {
		r := (*[8]uint64)(w1[int(f)*stride+off:])
		a0 += r[0]
		a1 += r[1]
		a2 += r[2]
		a3 += r[3]
		a4 += r[4]
		a5 += r[5]
		a6 += r[6]
		a7 += r[7]
	}
	acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7] = a0, a1, a2, a3, a4, a5, a6, a7
}

// swapRows8 applies to acc words off..off+7 the (old, new) feature pairs:
// the new feature's weight row added, the old one's subtracted.
// Like addRows8 it runs the AVX2 kernel where there is one.
func swapRows8(acc *[8]uint64, w1 []uint64, stride, off int, pairs []int32) {
	if hasAVX2 {
		if len(pairs) > 1 {
			swapRows8AVX2(acc, &w1[off], &pairs[0], len(pairs)/2, stride*8)
		}
		return
	}
	swapRows8Go(acc, w1, stride, off, pairs)
}

// swapRows8Go is swapRows8 in Go.
func swapRows8Go(acc *[8]uint64, w1 []uint64, stride, off int, pairs []int32) {
	a0, a1, a2, a3, a4, a5, a6, a7 := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7]
	for i := 0; i+1 < len(pairs); i += 2 {
		o := (*[8]uint64)(w1[int(pairs[i])*stride+off:])
		n := (*[8]uint64)(w1[int(pairs[i+1])*stride+off:])
		a0 += n[0] - o[0]
		a1 += n[1] - o[1]
		a2 += n[2] - o[2]
		a3 += n[3] - o[3]
		a4 += n[4] - o[4]
		a5 += n[5] - o[5]
		a6 += n[6] - o[6]
		a7 += n[7] - o[7]
	}
	acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7] = a0, a1, a2, a3, a4, a5, a6, a7
}

func addRow(acc, row []uint64) {
	acc = acc[:len(row)]
	for k, x := range row {
		acc[k] += x
	}
}

// applySwaps applies the (old, new) feature pairs to acc.
func (q *Quantized) applySwaps(acc []uint64, pairs []int32) {
	switch nw := q.words; nw {
	case 8:
		swapRows8((*[8]uint64)(acc), q.w1, 8, 0, pairs)
	case 16:
		swapRows8((*[8]uint64)(acc[:8]), q.w1, 16, 0, pairs)
		swapRows8((*[8]uint64)(acc[8:]), q.w1, 16, 8, pairs)
	default:
		acc = acc[:nw]
		for i := 0; i+1 < len(pairs); i += 2 {
			o := q.w1[int(pairs[i])*nw : int(pairs[i])*nw+nw]
			n := q.w1[int(pairs[i+1])*nw : int(pairs[i+1])*nw+nw]
			for k := range acc {
				acc[k] += n[k] - o[k]
			}
		}
	}
}

// defaultMaxBand: with more changed rows than this (a line clear shifts
// the rows above it), a full refresh is cheaper than the update.
const defaultMaxBand = 6

// scratchBand: ChildOutput updates its scratch in place from the previous
// well only when fewer rows than this changed (at 10x16 with generation 0
// a beam with quiescence is fastest at 4: of bands 3, 4, 6 and 9, 4 took
// 2.6 % less CPU than 6 and 6.5 % less than 9; measured with the beam's
// BenchmarkBeamNNUE).
const scratchBand = 4

// Update makes dst the accumulator of rows (a child's rows below the bar)
// from parent's, changing only the slots whose feature changed: the row
// slots of the changed rows and the window slots that cover them. When
// more than a few rows changed (a line clear) it refreshes dst instead.
// It reports whether it updated incrementally. dst must not be parent.
func (q *Quantized) Update(dst, parent *Accumulator, rows []uint16) bool {
	rows = rows[:q.fs.height]
	lo, hi := changed(rows, &parent.rows)
	if hi-lo >= q.maxBand {
		q.Refresh(dst, rows)
		return false
	}
	copy(dst.words, parent.words)
	copy(dst.feats, parent.feats)
	copy(dst.rows[:], rows)
	dst.valid = true
	if lo >= 0 {
		q.delta(dst.words, dst.feats, true, rows, lo, hi, dst)
	}
	return true
}

// ChildOutput is Output of the well rows (a child of parent's well),
// computed in scratch: like Update, but when updated from parent only
// scratch's hidden sums are kept (its features and rows are left stale,
// so scratch cannot serve as a parent until refreshed). It is the beam's
// path: children are evaluated once and never expanded from their
// accumulator.
//
// When rows differ from parent's in too many rows for an update (a line
// clear shifts the rows above it) but scratch holds a whole accumulator
// (its last well came from a refresh, or from scratch itself) within a
// few rows of them (scratchBand), scratch is updated in place: along a
// quiescence chain the wells of one step are mostly one piece apart,
// clearing the same line. Otherwise scratch is refreshed. Every path
// gives the refresh's sums bit for bit.
func (q *Quantized) ChildOutput(scratch, parent *Accumulator, rows []uint16) int64 {
	rows = rows[:q.fs.height]
	lo, hi := changed(rows, &parent.rows)
	if hi-lo >= q.maxBand {
		if scratch.valid {
			if lo, hi := changed(rows, &scratch.rows); hi-lo < scratchBand {
				if lo >= 0 {
					q.delta(scratch.words, scratch.feats, true, rows, lo, hi, scratch)
					copy(scratch.rows[:], rows)
				}
				return q.Output(scratch)
			}
		}
		q.Refresh(scratch, rows)
		return q.Output(scratch)
	}
	copy(scratch.words, parent.words)
	scratch.valid = false
	if lo >= 0 {
		q.delta(scratch.words, parent.feats, false, rows, lo, hi, scratch)
	}
	return q.Output(scratch)
}

// changed returns the first and last rows where rows and prev differ
// (-1, -1 if none).
func changed(rows []uint16, prev *[MaxHeight]uint16) (lo, hi int) {
	lo, hi = -1, -1
	r := 0
	// Four rows at a time: the differing rows are the non-zero 16-bit
	// fields of the XOR.
	for ; r+4 <= len(rows); r += 4 {
		a := (*[4]uint16)(rows[r : r+4])
		b := (*[4]uint16)(prev[r : r+4])
		d := uint64(a[0]^b[0]) | uint64(a[1]^b[1])<<16 | uint64(a[2]^b[2])<<32 | uint64(a[3]^b[3])<<48
		if d != 0 {
			if lo < 0 {
				lo = r + bits.TrailingZeros64(d)/16
			}
			hi = r + (63-bits.LeadingZeros64(d))/16
		}
	}
	for ; r < len(rows); r++ {
		if rows[r] != prev[r] {
			if lo < 0 {
				lo = r
			}
			hi = r
		}
	}
	return lo, hi
}

// delta moves acc from the features feats (the parent's) to those of
// rows, whose rows lo..hi changed; with write, feats is updated too. The
// changed features are gathered in buf's swaps and applied in one pass
// (buf's next holds the recomputed window slots; buf may be the
// accumulator being updated).
func (q *Quantized) delta(acc []uint64, feats []int32, write bool, rows []uint16, lo, hi int, buf *Accumulator) {
	fs := q.fs
	// Every slot's pair is written and kept only when the feature changed
	// (n advances by 0 or 2 without a branch: which slots change is
	// unpredictable). At most Active slots are compared.
	sw := buf.swaps[:2*fs.active]
	n := 0
	next := buf.next[:fs.active]
	h := fs.height
	acc = acc[:q.words]
	feats = feats[:fs.active]
	base := fs.base[:fs.active]
	mask := uint16(1<<fs.width - 1)
	for r := lo; r <= hi; r++ {
		f := base[r] + int32(rows[r]&mask)
		old := feats[r]
		sw[n], sw[n+1] = old, f
		if old != f {
			n += 2
		}
		if write {
			feats[r] = f
		}
	}
	if fs.wslots == 0 {
		q.applySwaps(acc, sw[:n])
		return
	}
	r0, r1 := max(lo-3, 0), min(hi+1, fs.wslots)
	ws := fs.wslots
	if hasAVX2 && q.deltaKernelFits() {
		q.deltaAVX2(acc, feats, write, rows, r0, r1, sw[:n], buf)
		return
	}
	// The windows over the changed rows, recomputed into next by the
	// feature set's own extraction, then compared slot by slot.
	if r0 < r1 {
		fs.windows(next, base, rows, r0, r1)
	}
	for col := 0; col < fs.wcols; col++ {
		for s := h + ws*col + r0; s < h+ws*col+r1; s++ {
			old, nf := feats[s], next[s]
			sw[n], sw[n+1] = old, nf
			if old != nf {
				n += 2
			}
			if write {
				feats[s] = nf
			}
		}
	}
	q.applySwaps(acc, sw[:n])
}

// deltaKernelFits reports whether the network's geometry is one the AVX2
// window kernels of delta (deltaAVX2) are written for: ten columns (two
// spread words of four window columns, eight window columns), at least
// eight window rows (a height of 11 or more) and eight or sixteen words
// of hidden sums (29 to 32 or 61 to 64 hidden units). Where it holds and
// the CPU has AVX2, delta runs them; elsewhere the Go loops.
func (q *Quantized) deltaKernelFits() bool {
	fs := q.fs
	return fs.words == 2 && fs.wcols == 2*fieldsPerWord && fs.wslots >= 8 && (q.words == 8 || q.words == 16)
}

// deltaAVX2 is the window part of delta where the AVX2 kernels run (ten
// columns, at least eight window rows, 32 or 64 hidden units): for each
// group of eight top rows the kernel computes the windows, compares them
// with feats and lists the changed (old, new) features, which are
// applied with the row pairs (old, new interleaved in pairs) in one pass.
// A group that would pass the last top row starts earlier (as in
// windows8); its lanes already done are masked out.
func (q *Quantized) deltaAVX2(acc []uint64, feats []int32, write bool, rows []uint16, r0, r1 int, pairs []int32, buf *Accumulator) {
	fs := q.fs
	ws, h := fs.wslots, fs.height
	olds, news := buf.olds[:fs.active+8], buf.news[:fs.active+8]
	n := 0
	for i := 0; i+1 < len(pairs); i += 2 {
		olds[n], news[n] = pairs[i], pairs[i+1]
		n++
	}
	var step int32
	if fs.variant == Positional {
		step = int32(ws * windowPatterns)
	}
	wr := 0
	if write {
		wr = -1
	}
	feats, base := feats[:fs.active], fs.base[:fs.active]
	rows = rows[:h]
	for t := r0; t < r1; t += 8 {
		t0 := min(t, ws-8)
		end := min(t+8, r1)
		mask := (1<<(end-t0) - 1) &^ (1<<(t-t0) - 1)
		// At most 8*8 more pairs: n+64+8 <= Active+8 (8*ws <= Active-h).
		n += deltaWin8x8AVX2(&feats[h+t0], &base[h+t0], &rows[t0], ws, step, mask, wr, &olds[n], &news[n], &laneLUT[0][0])
	}
	switch q.words {
	case 8:
		swapRows8x2AVX2((*[8]uint64)(acc), &q.w1[0], &olds[0], &news[0], n, 8*8)
	case 16:
		swapRows8x2AVX2((*[8]uint64)(acc[:8]), &q.w1[0], &olds[0], &news[0], n, 16*8)
		swapRows8x2AVX2((*[8]uint64)(acc[8:16]), &q.w1[8], &olds[0], &news[0], n, 16*8)
	}
}

// laneLUT[m] lists the set lanes of the 8-bit mask m in order (then
// zeros): deltaWin8x8AVX2's VPERMD packs the changed lanes with it.
var laneLUT = func() (t [256][8]int32) {
	for m := range t {
		k := 0
		for l := 0; l < 8; l++ {
			if m>>l&1 != 0 {
				t[m][k] = int32(l)
				k++
			}
		}
	}
	return t
}()

// Output is the network's integer output for a: B2*QA*QB plus the output
// weights times the activated hidden values (in units of 1/(QA*QB)).
func (q *Quantized) Output(a *Accumulator) int64 {
	if hasAVX2 && q.w2h != nil {
		// The kernel clamps biased lanes (see outputAVX2): the same
		// integer sum as the loop below.
		return q.b2 + outputAVX2(&a.words[0], &q.w2h[0], q.words/8, uint16(q.lo+bias16), uint16(q.qa+bias16))
	}
	return q.outputGo(a)
}

// bias16 is 2^15, the lane bias of the AVX2 output kernel.
const bias16 = 1 << 15

// outputGo is Output in Go: each packed word's four lanes decoded in
// turn (each borrows from the one below it), clamped (or looked up in the
// tanh table) and weighted.
func (q *Quantized) outputGo(a *Accumulator) int64 {
	out := q.b2
	w2 := q.w2[:4*q.words]
	words := a.words[:q.words]
	if q.tanh != nil {
		tab := q.tanh[:1<<16]
		for k, x := range words {
			w := w2[4*k : 4*k+4]
			for l := range w {
				v := int16(x)
				x = (x - uint64(int64(v))) >> 16
				out += int64(w[l]) * int64(tab[uint16(v)])
			}
		}
		return out
	}
	hiQ, lo := int64(q.qa), int64(q.lo)
	for k, x := range words {
		// The four lanes of a word, unrolled (each lane borrows from the
		// one below it).
		w := (*[4]int32)(w2[4*k : 4*k+4])
		v0 := int64(int16(x))
		x = (x - uint64(v0)) >> 16
		v1 := int64(int16(x))
		x = (x - uint64(v1)) >> 16
		v2 := int64(int16(x))
		x = (x - uint64(v2)) >> 16
		v3 := int64(int16(x))
		out += int64(w[0])*min(max(v0, lo), hiQ) + int64(w[1])*min(max(v1, lo), hiQ) +
			int64(w[2])*min(max(v2, lo), hiQ) + int64(w[3])*min(max(v3, lo), hiQ)
	}
	return out
}

// Scale is 1/(QA*QB): an Output times Scale is in float units.
func (q *Quantized) Scale() float64 { return q.scale }

// Value is Output in float units (comparable with Network.Forward).
func (q *Quantized) Value(a *Accumulator) float64 {
	return float64(q.Output(a)) * q.scale
}
