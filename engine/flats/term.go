package flats

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// MaxTermWidth is the widest well the term supports (its permeability
// table is dense: 4^Width entries).
const MaxTermWidth = 10

// Term is the graph evaluation term G of D&F's heuristic, built from a
// Table: G(w) = Σ_y B(u_y, h_y) · R_y over the non-empty rows y from the
// top of the stack down to the lowest row a 1x1 block dropped from the
// top reaches (the hand-made evaluation's scope), where u_y is row y's
// shape, h_y its height, and R_y the product of the smoothed
// permeabilities π(row above, row) of every pair from the empty row
// above the stack down to y. Its value is Weight · G (a positive weight
// rewards clearable, reachable rows). It is an eval.Evaluator: combine it
// with the hand-made evaluation with eval.Sum.
type Term struct {
	Weight float64
	name   string
	width  int
	height int
	b      []float32 // [height << width | shape], fallbacks resolved
	perm   []float32 // [a << width | b]
}

// NewTerm builds the term's dense tables from t. A state missing from the
// table takes its shape's B, then the mean B of its popcount class, then
// B of the empty row's births; heights at or past the table's are read
// at its top height.
func NewTerm(t *Table, weight float64) (*Term, error) {
	if t.Width > MaxTermWidth {
		return nil, fmt.Errorf("flats: term for width %d (at most %d)", t.Width, MaxTermWidth)
	}
	if math.IsNaN(weight) || math.IsInf(weight, 0) {
		return nil, fmt.Errorf("flats: term weight %g", weight)
	}
	w := t.Width
	n := 1 << w
	// The name carries a checksum of the table's content, as a network's
	// does: a table edited behind the same file name is another term (a
	// resumed match refuses it).
	js, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("flats: %v", err)
	}
	term := &Term{Weight: weight, width: w, height: t.Height, b: make([]float32, t.Height<<w), perm: make([]float32, n*n),
		name: fmt.Sprintf("flats:%s[%s %dx%d %.0f games alpha %g crc %08x]x%g", t.Source, t.Weighting, t.Width, t.Height, t.Games, t.Alpha, crc32.ChecksumIEEE(js), weight)}
	shapeB := make([]float64, n)
	for i := range shapeB {
		shapeB[i] = math.NaN()
	}
	var classSum, classN [17]float64
	for _, s := range t.Shapes {
		v, _ := ParseShape(s.Shape, w)
		shapeB[v] = s.B
		classSum[bits.OnesCount16(v)] += s.B
		classN[bits.OnesCount16(v)]++
	}
	var all, allN float64
	for k := range classSum {
		all += classSum[k]
		allN += classN[k]
	}
	mean := 0.0
	if allN > 0 {
		mean = all / allN
	}
	for v := 1; v < n; v++ {
		if math.IsNaN(shapeB[v]) {
			k := bits.OnesCount16(uint16(v))
			shapeB[v] = mean
			if classN[k] > 0 {
				shapeB[v] = classSum[k] / classN[k]
			}
		}
	}
	for h := 0; h < t.Height; h++ {
		for v := 1; v < n; v++ {
			term.b[h<<w|v] = float32(shapeB[v])
		}
	}
	for _, s := range t.States {
		v, _ := ParseShape(s.Shape, w)
		term.b[s.Height<<w|int(v)] = float32(s.B)
	}
	p := t.Permeability()
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			term.perm[a<<w|b] = float32(p.At(uint16(a), uint16(b)))
		}
	}
	return term, nil
}

// Name identifies the term, its table and weight.
func (t *Term) Name() string { return t.name }

// NewWorker returns the term's worker for rules r, whose geometry must
// pass Check (the searches check it before they start, as for a network).
func (t *Term) NewWorker(r *hatetris.Rules) eval.Worker {
	return &TermWorker{t: t, r: r}
}

// Check reports whether the term can evaluate wells of rules r (its
// table's width): the term is an eval.GeometryChecker, so a search, a
// Sum and an arena arm refuse another geometry with this error before
// they start.
func (t *Term) Check(r *hatetris.Rules) error {
	if r.Width != t.width {
		return fmt.Errorf("flats: a width-%d term for a %v well", t.width, r)
	}
	return nil
}

// TermWorker evaluates G; it allocates nothing.
type TermWorker struct {
	t *Term
	r *hatetris.Rules
}

// Evaluate returns Weight · G(w).
func (tw *TermWorker) Evaluate(w *hatetris.Well, score, future int) float64 {
	return tw.t.Weight * tw.G(w)
}

// G returns the term's sum for w.
func (tw *TermWorker) G(w *hatetris.Well) float64 {
	t := tw.t
	d := tw.r.Depth
	full := tw.r.FullRow()
	top := t.height - 1
	reach := full
	var prev uint16
	rr := float32(1)
	g := float32(0)
	y := 0
	for y < d && w[y] == 0 {
		y++ // empty rows: the block passes everywhere
	}
	for ; y < d; y++ {
		row := w[y]
		empty := full &^ row
		seed := reach & empty
		if seed == 0 {
			break
		}
		reach = fillRuns(seed, empty)
		rr *= t.perm[int(prev)<<t.width|int(row)]
		g += t.b[min(d-1-y, top)<<t.width|int(row)] * rr
		prev = row
	}
	return float64(g)
}

// fillRuns returns the runs of empty that hold a cell of seed (seed is a
// subset of empty): the cells a 1x1 block reaches sideways from seed. It
// is the Kogge-Stone occluded fill, both ways at once, 16 cells wide,
// without the data-dependent loop (and its mispredicted branches) of a
// cell-by-cell flood.
func fillRuns(seed, empty uint16) uint16 {
	l, pl := seed, empty
	r, pr := seed, empty
	l |= pl & (l << 1)
	r |= pr & (r >> 1)
	pl &= pl << 1
	pr &= pr >> 1
	l |= pl & (l << 2)
	r |= pr & (r >> 2)
	pl &= pl << 2
	pr &= pr >> 2
	l |= pl & (l << 4)
	r |= pr & (r >> 4)
	pl &= pl << 4
	pr &= pr >> 4
	l |= pl & (l << 8)
	r |= pr & (r >> 8)
	return l | r
}

var _ eval.GeometryChecker = (*Term)(nil)
