package flats

import (
	"math/bits"
	"slices"
)

// Graph is a frozen transition DAG in CSR form. Node IDs: a live state's
// is Height<<Width | Shape (ID 0 is Empty, the source); Cleared is N and
// Immortal N+1. The shape-only view has Height 1 (every state at height
// 0). Edges never loop: stays and (in the shape view) falls are dwell.
type Graph struct {
	Width, Height int
	// N is the number of live-state IDs (Height << Width).
	N     int
	start []int32 // out-edges of node u: start[u] .. start[u+1]
	to    []int32
	from  []int32 // each edge's tail
	n     []float64
	order []int32 // topological: Empty first, the sinks last
	dwell []float64
}

// Graph freezes the (shape, height) transition graph.
func (c *Counts) Graph() *Graph { return c.graph(false) }

// ShapeGraph freezes the shape-only view: heights folded, falls become
// dwell.
func (c *Counts) ShapeGraph() *Graph { return c.graph(true) }

func (c *Counts) graph(shapeOnly bool) *Graph {
	g := &Graph{Width: c.Width, Height: c.Height}
	if shapeOnly {
		g.Height = 1
	}
	g.N = g.Height << g.Width
	g.dwell = make([]float64, g.N)
	for j, d := range c.dwell {
		if d != 0 {
			g.dwell[g.ID(c.stateOf(j))] += d
		}
	}
	type arc struct {
		u, v int32
		n    float64
	}
	var arcs []arc
	for _, e := range c.Edges() {
		u, v := g.ID(e.From), g.ID(e.To)
		if u == v {
			g.dwell[u] += e.N
			continue
		}
		arcs = append(arcs, arc{int32(u), int32(v), e.N})
	}
	slices.SortFunc(arcs, func(a, b arc) int {
		if a.u != b.u {
			return int(a.u - b.u)
		}
		return int(a.v - b.v)
	})
	g.start = make([]int32, g.N+3)
	for i, a := range arcs {
		if i > 0 && arcs[i-1].u == a.u && arcs[i-1].v == a.v {
			g.n[len(g.n)-1] += a.n // heights folded in the shape view
			continue
		}
		g.to = append(g.to, a.v)
		g.from = append(g.from, a.u)
		g.n = append(g.n, a.n)
		g.start[a.u+1]++
	}
	for u := 1; u < len(g.start); u++ {
		g.start[u] += g.start[u-1]
	}
	g.order = make([]int32, 0, g.N+2)
	for u := 0; u < g.N; u++ {
		g.order = append(g.order, int32(u))
	}
	// Popcount rises along grow edges, height falls along fall edges.
	slices.SortStableFunc(g.order, func(a, b int32) int {
		pa, pb := bits.OnesCount16(uint16(a)&g.shapeMask()), bits.OnesCount16(uint16(b)&g.shapeMask())
		if pa != pb {
			return pa - pb
		}
		return int(b>>g.Width) - int(a>>g.Width)
	})
	g.order = append(g.order, int32(g.N), int32(g.N+1))
	return g
}

func (g *Graph) shapeMask() uint16 { return uint16(1<<g.Width - 1) }

// stateOf is the inverse of Counts.index.
func (c *Counts) stateOf(j int) State { return MakeState(uint16(j&(1<<c.Width-1)), j>>c.Width) }

// ID returns the node of state s.
func (g *Graph) ID(s State) int {
	switch s {
	case Cleared:
		return g.N
	case Immortal:
		return g.N + 1
	}
	h := s.Height()
	if g.Height == 1 {
		h = 0
	}
	return h<<g.Width | int(s.Shape())
}

// State returns the state of node u.
func (g *Graph) State(u int) State {
	switch u {
	case g.N:
		return Cleared
	case g.N + 1:
		return Immortal
	}
	return MakeState(uint16(u)&g.shapeMask(), u>>g.Width)
}

// Nodes returns the number of nodes (N + 2).
func (g *Graph) Nodes() int { return g.N + 2 }

// Out returns the out-neighbours of u and the edge counts.
func (g *Graph) Out(u int) (to []int32, n []float64) {
	a, b := g.start[u], g.start[u+1]
	return g.to[a:b], g.n[a:b]
}

// OutSum returns the total count leaving u (the lives through u that
// moved on: for a live state, the lives that visited it).
func (g *Graph) OutSum(u int) float64 {
	s := 0.0
	for _, n := range g.n[g.start[u]:g.start[u+1]] {
		s += n
	}
	return s
}

// Dwell returns the moves the flats of node u spent unchanged.
func (g *Graph) Dwell(u int) float64 {
	if u < g.N {
		return g.dwell[u]
	}
	return 0
}

// Order returns the nodes in topological order (do not modify).
func (g *Graph) Order() []int32 { return g.order }

// EdgeCount returns the number of edges.
func (g *Graph) EdgeCount() int { return len(g.to) }
