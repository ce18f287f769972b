package flats

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// MaxWidth is the widest well whose flats Counts holds (its per-state
// arrays are dense: Height << Width entries).
const MaxWidth = 12

// maxPath bounds a life's states: each transition raises the popcount or
// lowers the height, and a life also starts at Empty and ends in a sink.
const maxPath = MaxWidth + hatetris.MaxDepth + 2

// Counts accumulates flat transitions, weighted. Edges are the Born, Grow,
// Fall, Die and Immortal events; Stay events are dwell. With Counter (one
// game at a time, weight 1 per game) it also keeps the pathwise outcome
// of every life and the row-pair permeability counts.
type Counts struct {
	Width, Height int
	// Games and Moves are the weights of the games and moves counted.
	Games, Moves float64
	// Pathwise tells whether Through and ClearedThrough are filled (only
	// sources that follow whole games can fill them).
	Pathwise bool

	edges *keyIndex // edgeKey(From, To)
	edgeN []float64
	dwell []float64 // per dense state index
	// lives[i]: the lives that visited state i and ended, and those of
	// them that were cleared (side by side: one cache line per update).
	lives []lifeCount
	// The same per shape (a life counted once per shape it had).
	shapeLives []lifeCount
	// pairs[a<<16|b]: {moves with a directly above b, of them moves whose
	// piece reached row b or lower}.
	pairs *keyIndex // a<<16 | b
	pairN [][2]float64
}

// NewCounts returns empty counts for a well of the given width and height
// (rows below the bar).
func NewCounts(width, height int) (*Counts, error) {
	if width < hatetris.MinWidth || width > MaxWidth {
		return nil, fmt.Errorf("flats: width %d out of range %d..%d", width, hatetris.MinWidth, MaxWidth)
	}
	if height < 1 || height > hatetris.MaxDepth {
		return nil, fmt.Errorf("flats: height %d out of range 1..%d", height, hatetris.MaxDepth)
	}
	n := height << width
	return &Counts{Width: width, Height: height, edges: newKeyIndex(1 << 14), dwell: make([]float64, n),
		lives: make([]lifeCount, n), shapeLives: make([]lifeCount, 1<<width), pairs: newKeyIndex(1 << 14),
		edgeN: make([]float64, 0, 1<<13), pairN: make([][2]float64, 0, 1<<13)}, nil
}

// index returns the dense index of a live state, or -1.
func (c *Counts) index(s State) int {
	if s.IsSink() || s.Height() >= c.Height {
		return -1
	}
	return s.Height()<<c.Width | int(s.Shape())
}

// Add counts events with weight w.
func (c *Counts) Add(ev []Event, w float64) error {
	for i := range ev {
		e := &ev[i]
		if e.Kind == KindStay {
			j := c.index(e.From)
			if j < 0 {
				return fmt.Errorf("flats: state %s outside a %dx%d well", e.From.Format(c.Width), c.Width, c.Height)
			}
			c.dwell[j] += w
			continue
		}
		if e.From != Empty && c.index(e.From) < 0 || !e.To.IsSink() && c.index(e.To) < 0 {
			return fmt.Errorf("flats: transition %s -> %s outside a %dx%d well", e.From.Format(c.Width), e.To.Format(c.Width), c.Width, c.Height)
		}
		c.addEdge(e.From, e.To, w)
	}
	return nil
}

// AddPairs counts, for each row y of m's before-well from the top of the
// stack down, whether the piece reached row y or lower, with the row
// above it: the permeability counts.
func (c *Counts) AddPairs(r *hatetris.Rules, m *Move, w float64) {
	c.addPairs(r, m, w, nil)
}

// addPairs is AddPairs with an optional cache of each row's pair index
// (pairAt[y] for rows y-1 over y of m.B; -1: unknown), which it fills.
func (c *Counts) addPairs(r *hatetris.Rules, m *Move, w float64, pairAt *[hatetris.MaxDepth]int32) {
	d := r.Depth
	low := -1 // the piece's lowest row
	for y := d - 1; y >= 0; y-- {
		if m.M[y] != m.B[y] {
			low = y
			break
		}
	}
	top := r.Peak(&m.B)
	for y := max(top, 1); y < d; y++ {
		var i int
		if pairAt != nil && pairAt[y] >= 0 {
			i = int(pairAt[y])
		} else {
			var added bool
			i, added = c.pairs.get(uint64(m.B[y-1])<<16 | uint64(m.B[y]))
			if added {
				c.pairN = append(c.pairN, [2]float64{})
			}
			if pairAt != nil {
				pairAt[y] = int32(i)
			}
		}
		p := &c.pairN[i]
		p[0] += w
		if low >= y {
			p[1] += w
		}
	}
}

// addEdge adds weight w to the edge from -> to.
func (c *Counts) addEdge(from, to State, w float64) {
	i, added := c.edges.get(edgeKey(from, to))
	if added {
		c.edgeN = append(c.edgeN, 0)
	}
	c.edgeN[i] += w
}

// merge adds o's counts to c's (same width and height): c then holds
// what counting both sources into it would have given, its edges and
// pairs in another insertion order, which nothing shows (Edges and Pairs
// sort).
func (c *Counts) merge(o *Counts) {
	c.Games += o.Games
	c.Moves += o.Moves
	c.Pathwise = c.Pathwise && o.Pathwise
	addAll(c.dwell, o.dwell)
	addLives(c.lives, o.lives)
	addLives(c.shapeLives, o.shapeLives)
	for i, k := range o.edges.keys {
		c.addEdge(expandState(k>>compactBits), expandState(k&(1<<compactBits-1)), o.edgeN[i])
	}
	for i, k := range o.pairs.keys {
		j, added := c.pairs.get(k)
		if added {
			c.pairN = append(c.pairN, [2]float64{})
		}
		c.pairN[j][0] += o.pairN[i][0]
		c.pairN[j][1] += o.pairN[i][1]
	}
}

// lifeCount counts the ended lives through a state (or shape): all of
// them, and those that were cleared.
type lifeCount struct{ through, cleared float64 }

func addLives(dst, src []lifeCount) {
	for i, v := range src {
		dst[i].through += v.through
		dst[i].cleared += v.cleared
	}
}

func addAll(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

// compactBits: a state of a Counts (height below hatetris.MaxDepth, shape
// of at most MaxWidth cells, or a sink) in 18 bits.
const compactBits = 18

// compactState packs s into compactBits bits: Height<<MaxWidth | Shape
// (Empty is 0), the sinks above.
func compactState(s State) uint64 {
	switch s {
	case Cleared:
		return 1 << (compactBits - 1)
	case Immortal:
		return 1<<(compactBits-1) | 1
	}
	return uint64(s.Height())<<MaxWidth | uint64(s.Shape())
}

// expandState inverts compactState.
func expandState(k uint64) State {
	switch k {
	case 1 << (compactBits - 1):
		return Cleared
	case 1<<(compactBits-1) | 1:
		return Immortal
	}
	return MakeState(uint16(k&(1<<MaxWidth-1)), int(k>>MaxWidth))
}

// edgeKey is the edges index's key of from -> to.
func edgeKey(from, to State) uint64 { return compactState(from)<<compactBits | compactState(to) }

// Pair is the permeability count of one row pair: N moves with row A
// directly above row B, Hits of them with a piece reaching row B or lower.
type Pair struct {
	A, B    uint16
	N, Hits float64
}

// Pairs returns the row-pair counts, sorted by A then B.
func (c *Counts) Pairs() []Pair {
	out := make([]Pair, len(c.pairN))
	for i, k := range c.pairs.keys {
		out[i] = Pair{A: uint16(k >> 16), B: uint16(k), N: c.pairN[i][0], Hits: c.pairN[i][1]}
	}
	slices.SortFunc(out, func(a, b Pair) int {
		if a.A != b.A {
			return int(a.A) - int(b.A)
		}
		return int(a.B) - int(b.B)
	})
	return out
}

// Edge is one counted transition.
type Edge struct {
	From, To State
	N        float64
}

// Edges returns the counted transitions, sorted by From then To.
func (c *Counts) Edges() []Edge {
	out := make([]Edge, len(c.edgeN))
	for i, k := range c.edges.keys {
		out[i] = Edge{expandState(k >> compactBits), expandState(k & (1<<compactBits - 1)), c.edgeN[i]}
	}
	slices.SortFunc(out, func(a, b Edge) int {
		if a.From != b.From {
			return cmpState(a.From, b.From)
		}
		return cmpState(a.To, b.To)
	})
	return out
}

func cmpState(a, b State) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Dwell returns the weight of the moves state s stayed unchanged.
func (c *Counts) Dwell(s State) float64 {
	if j := c.index(s); j >= 0 {
		return c.dwell[j]
	}
	return 0
}

// PathFrac returns the pathwise cleared share of state s (cleared lives
// through s / lives through s) and the lives through s; NaN without
// pathwise counts or lives.
func (c *Counts) PathFrac(s State) (frac, lives float64) {
	j := c.index(s)
	if j < 0 || !c.Pathwise || c.lives[j].through == 0 {
		return nan, 0
	}
	return c.lives[j].cleared / c.lives[j].through, c.lives[j].through
}

// Conservation checks that flow is conserved: for every state, the
// weight in equals the weight out (Stay excluded), and the births equal
// the cleared plus the immortal lives. It returns the first violation.
func (c *Counts) Conservation() error {
	in := map[State]float64{}
	out := map[State]float64{}
	for _, e := range c.Edges() {
		out[e.From] += e.N
		in[e.To] += e.N
	}
	for s, o := range out {
		if s == Empty {
			continue
		}
		if !near(in[s], o) {
			return fmt.Errorf("flats: state %s has %g in, %g out", s.Format(c.Width), in[s], o)
		}
	}
	for s, i := range in {
		if !s.IsSink() && !near(out[s], i) {
			return fmt.Errorf("flats: state %s has %g in, %g out", s.Format(c.Width), i, out[s])
		}
	}
	if b, e := out[Empty], in[Cleared]+in[Immortal]; !near(b, e) {
		return fmt.Errorf("flats: %g births but %g cleared + immortal", b, e)
	}
	return nil
}

// CheckDAG checks the edges: every edge raises the popcount by a
// contiguous run of 1..4 cells added to the shape (or keeps the shape and
// lowers the height, a fall), and die edges leave only shapes whose empty
// cells are one run of at most 4.
func (c *Counts) CheckDAG() error {
	for _, e := range c.Edges() {
		from, to := e.From, e.To
		switch {
		case to == Immortal:
		case to == Cleared:
			if from != Empty && !oneRun(from.Shape(), c.Width) {
				return fmt.Errorf("flats: %s dies in one move", from.Format(c.Width))
			}
		default:
			a, b := from.Shape(), to.Shape()
			if b&a != a || to.Height() > from.Height() && from != Empty {
				return fmt.Errorf("flats: edge %s -> %s loses cells or rises", from.Format(c.Width), to.Format(c.Width))
			}
			add := b &^ a
			if add == 0 {
				if to.Height() >= from.Height() {
					return fmt.Errorf("flats: edge %s -> %s neither grows nor falls", from.Format(c.Width), to.Format(c.Width))
				}
				continue
			}
			run := add >> bits.TrailingZeros16(add)
			if run&(run+1) != 0 || bits.OnesCount16(add) > 4 {
				return fmt.Errorf("flats: edge %s -> %s adds a broken run", from.Format(c.Width), to.Format(c.Width))
			}
		}
	}
	return nil
}

func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*max(1, a, b)
}
