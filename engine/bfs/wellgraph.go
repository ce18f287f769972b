package bfs

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// WellGraph is the graph of every well reachable from a start well
// against HATETRIS Mild (the history-free AI the exhaustive search plays;
// equal to HATETRIS wherever no well repeats), deduplicated on the well
// alone (scores dropped): one node per well, one edge per distinct live
// outcome of the AI's piece, with the cells the piece locked, so that the
// moves can be replayed row by row. It is built breadth-first, so a
// well's Level is the fewest pieces that reach it. It is separate from
// Search (which stays as fast as before) and meant for small wells, up to
// a few million wells.
type WellGraph struct {
	Rules *hatetris.Rules
	// Wells[0] is the start well; the others follow in breadth-first order.
	Wells []hatetris.Well
	// Level is each well's breadth-first level (fewest pieces to it).
	Level []int32
	// Ends counts the AI piece's game-ending outcomes in each well.
	Ends []int32
	// Edges: well i's out-edges are first[i] .. first[i+1]-1.
	first  []int32
	Child  []int32
	Placed []hatetris.Placement
	Lines  []uint8
}

// BuildWellGraph explores every well reachable from start (nil: the
// empty well) under rules r, failing past maxWells wells.
func BuildWellGraph(r *hatetris.Rules, start *hatetris.Well, maxWells int) (*WellGraph, error) {
	var s hatetris.Well
	if start != nil {
		s = *start
	}
	if r.IsOver(&s) {
		return nil, fmt.Errorf("bfs: the start well has blocks above the bar")
	}
	g := &WellGraph{Rules: r, Wells: []hatetris.Well{s}, Level: []int32{0}, first: []int32{0}}
	idx := newWellIndex(r)
	idx.add(&s, 0)
	gen := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for i := 0; i < len(g.Wells); i++ {
		w := g.Wells[i]
		_, buf = gen.Move(&w, hatetris.Mild, nil, buf[:0])
		ends := int32(0)
		for k := range buf {
			res := &buf[k]
			if res.GameOver {
				ends++
				continue
			}
			j, ok := idx.find(&res.Well)
			if !ok {
				if len(g.Wells) >= maxWells {
					return nil, fmt.Errorf("bfs: more than %d wells", maxWells)
				}
				j = int32(len(g.Wells))
				idx.add(&res.Well, j)
				g.Wells = append(g.Wells, res.Well)
				g.Level = append(g.Level, g.Level[i]+1)
			}
			g.Child = append(g.Child, j)
			g.Placed = append(g.Placed, res.Placed)
			g.Lines = append(g.Lines, uint8(res.Lines))
		}
		if len(buf) == 0 {
			ends = 1 // no placement at all: the game is over
		}
		g.Ends = append(g.Ends, ends)
		g.first = append(g.first, int32(len(g.Child)))
	}
	return g, nil
}

// Len returns the number of wells.
func (g *WellGraph) Len() int { return len(g.Wells) }

// Out returns the range of well i's edges.
func (g *WellGraph) Out(i int) (lo, hi int) { return int(g.first[i]), int(g.first[i+1]) }

// Topo returns the wells in a topological order (every edge goes forward),
// or an error if the graph has a cycle (a well that can repeat, as at
// width 4 under Mild).
func (g *WellGraph) Topo() ([]int32, error) {
	n := g.Len()
	indeg := make([]int32, n)
	for _, c := range g.Child {
		indeg[c]++
	}
	order := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			order = append(order, int32(i))
		}
	}
	for k := 0; k < len(order); k++ {
		lo, hi := g.Out(int(order[k]))
		for _, c := range g.Child[lo:hi] {
			if indeg[c]--; indeg[c] == 0 {
				order = append(order, c)
			}
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("bfs: the well graph has a cycle (%d of %d wells ordered)", len(order), n)
	}
	return order, nil
}

// Value returns, for each well, the most lines a game from it can still
// score (-1 where no game from it ends), over a topological order.
func (g *WellGraph) Value(order []int32) []int32 {
	v := make([]int32, g.Len())
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		best := int32(-1)
		if g.Ends[i] > 0 {
			best = 0
		}
		lo, hi := g.Out(int(i))
		for e := lo; e < hi; e++ {
			if c := v[g.Child[e]]; c >= 0 {
				best = max(best, int32(g.Lines[e])+c)
			}
		}
		v[i] = best
	}
	return v
}

// Games counts games over a topological order: reach[i] is the number of
// distinct move sequences from the start to well i, complete[i] the
// number of games from well i to a game-ending outcome. With keep
// non-nil only the edges e with keep[e] and the ends of the wells with
// keepEnds[i] count (an optimal-play subgraph, say).
func (g *WellGraph) Games(order []int32, keep, keepEnds []bool) (reach, complete []float64) {
	n := g.Len()
	reach = make([]float64, n)
	complete = make([]float64, n)
	reach[0] = 1
	for _, i := range order {
		lo, hi := g.Out(int(i))
		for e := lo; e < hi; e++ {
			if keep == nil || keep[e] {
				reach[g.Child[e]] += reach[i]
			}
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		c := 0.0
		if keepEnds == nil || keepEnds[i] {
			c = float64(g.Ends[i])
		}
		lo, hi := g.Out(int(i))
		for e := lo; e < hi; e++ {
			if keep == nil || keep[e] {
				c += complete[g.Child[e]]
			}
		}
		complete[i] = c
	}
	return reach, complete
}

// Optimal marks the edges and ends of the highest-scoring games from the
// start: an edge is kept when its lines plus its child's value equal its
// well's value, an end when the well's value is 0.
func (g *WellGraph) Optimal(value []int32) (keep, keepEnds []bool) {
	keep = make([]bool, len(g.Child))
	keepEnds = make([]bool, g.Len())
	for i := range g.Wells {
		keepEnds[i] = g.Ends[i] > 0 && value[i] == 0
		lo, hi := g.Out(i)
		for e := lo; e < hi; e++ {
			c := value[g.Child[e]]
			keep[e] = c >= 0 && int32(g.Lines[e])+c == value[i]
		}
	}
	return keep, keepEnds
}

// wellIndex maps wells to their numbers, keyed by the rows packed into
// 128 bits when they fit (Depth x Width <= 128), which keeps the map 3x
// smaller than keying on the whole Well.
type wellIndex struct {
	r      *hatetris.Rules
	packed map[[2]uint64]int32
	wide   map[hatetris.Well]int32
}

func newWellIndex(r *hatetris.Rules) *wellIndex {
	if r.Depth*r.Width <= 128 {
		return &wellIndex{r: r, packed: map[[2]uint64]int32{}}
	}
	return &wellIndex{r: r, wide: map[hatetris.Well]int32{}}
}

func (x *wellIndex) key(w *hatetris.Well) [2]uint64 {
	var k [2]uint64
	bit := 0
	for y := 0; y < x.r.Depth; y++ {
		v := uint64(w[y])
		k[bit>>6] |= v << uint(bit&63)
		if rem := 64 - bit&63; rem < x.r.Width {
			k[bit>>6+1] |= v >> uint(rem)
		}
		bit += x.r.Width
	}
	return k
}

func (x *wellIndex) find(w *hatetris.Well) (int32, bool) {
	if x.packed != nil {
		j, ok := x.packed[x.key(w)]
		return j, ok
	}
	j, ok := x.wide[*w]
	return j, ok
}

func (x *wellIndex) add(w *hatetris.Well, j int32) {
	if x.packed != nil {
		x.packed[x.key(w)] = j
		return
	}
	x.wide[*w] = j
}
