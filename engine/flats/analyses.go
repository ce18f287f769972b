package flats

import (
	"slices"
)

// MFClearability is D&F's max-flow reading of clearability: for every
// live node u with out-edges, MF(u->Cleared) / (MF(u->Cleared) +
// MF(u->Immortal)) with capacity = count, each flow computed on its own
// (NaN elsewhere). It is a bottleneck quantity, not a probability: the
// flows borrow capacity from lives that never passed u.
func MFClearability(g *Graph) []float64 {
	f := NetworkOf(g)
	c := make([]float64, g.Nodes())
	c[g.N], c[g.N+1] = 1, 0
	for u := 0; u < g.N; u++ {
		if g.start[u] == g.start[u+1] {
			c[u] = nan
			continue
		}
		f.Reset()
		toC := f.MaxFlow(u, g.N)
		f.Reset()
		toI := f.MaxFlow(u, g.N+1)
		if toC+toI == 0 {
			c[u] = nan
			continue
		}
		c[u] = toC / (toC + toI)
	}
	return c
}

// EdgeStat describes one edge for the bottleneck analyses.
type EdgeStat struct {
	From, To State
	N        float64
	// Loss is the clearability lost along the edge, N * (B(from) - B(to)).
	Loss float64
	// Flux is the cleared flux through the edge, N * B(to).
	Flux float64
}

// Loss returns every edge with its clearability loss and cleared flux
// (b from Absorb), sorted by decreasing loss, ties by From then To.
func Loss(g *Graph, b []float64) []EdgeStat {
	var out []EdgeStat
	for u := 0; u < g.N; u++ {
		to, n := g.Out(u)
		for k, v := range to {
			out = append(out, EdgeStat{From: g.State(u), To: g.State(int(v)), N: n[k],
				Loss: n[k] * (b[u] - b[v]), Flux: n[k] * b[v]})
		}
	}
	slices.SortStableFunc(out, func(a, b EdgeStat) int {
		switch {
		case a.Loss > b.Loss:
			return -1
		case a.Loss < b.Loss:
			return 1
		}
		return 0
	})
	return out
}

// Pathway is a path of the graph and its bottleneck (its narrowest edge's
// capacity when it was found).
type Pathway struct {
	States []State
	Width  float64
}

// Pathways returns up to k dominant pathways from Empty to Cleared, by
// repeated widest path (transition-path theory): the widest path on the
// cleared-flux capacities N(u->v)·B(v), then its bottleneck is taken off
// every edge of it and the next is found. Ties go to the lower node.
func Pathways(g *Graph, b []float64, k int) []Pathway {
	capac := make([]float64, len(g.n))
	for u := 0; u < g.N; u++ {
		for e := g.start[u]; e < g.start[u+1]; e++ {
			if bv := b[g.to[e]]; bv > 0 {
				capac[e] = g.n[e] * bv
			}
		}
	}
	var out []Pathway
	for len(out) < k {
		p, w, edges := widest(g, capac, 0, g.N)
		if w <= 0 {
			break
		}
		for _, e := range edges {
			capac[e] -= w
		}
		out = append(out, Pathway{States: p, Width: w})
	}
	return out
}

// Widest returns the widest (maximum-bottleneck) path from s to t on the
// edge counts, and its width (0 if t is unreachable).
func Widest(g *Graph, s, t State) ([]State, float64) {
	p, w, _ := widest(g, g.n, g.ID(s), g.ID(t))
	return p, w
}

// widest is the DAG dynamic programme for the widest path, returning the
// states, the width and the edge indices.
func widest(g *Graph, capac []float64, s, t int) ([]State, float64, []int32) {
	nn := g.Nodes()
	wid := make([]float64, nn)
	via := make([]int32, nn) // edge into the node on its widest path
	for i := range via {
		via[i] = -1
	}
	wid[s] = inf
	for _, u := range g.order {
		if wid[u] <= 0 || int(u) >= g.N {
			continue
		}
		for e := g.start[u]; e < g.start[u+1]; e++ {
			v := g.to[e]
			if w := min(wid[u], capac[e]); w > wid[v] {
				wid[v], via[v] = w, e
			}
		}
	}
	if wid[t] <= 0 || t == s {
		return nil, 0, nil
	}
	var edges []int32
	for v := int32(t); v != int32(s); {
		e := via[v]
		edges = append(edges, e)
		v = g.from[e]
	}
	slices.Reverse(edges)
	states := []State{g.State(s)}
	for _, e := range edges {
		states = append(states, g.State(int(g.to[e])))
	}
	return states, wid[t], edges
}

// NeverCleared returns the live states that occur in g (some edge leaves
// them) but have no path to Cleared, in ID order.
func NeverCleared(g *Graph) []State {
	reach := make([]bool, g.Nodes())
	reach[g.N] = true
	for i := len(g.order) - 1; i >= 0; i-- {
		u := g.order[i]
		if int(u) >= g.N {
			continue
		}
		to, _ := g.Out(int(u))
		for _, v := range to {
			if reach[v] {
				reach[u] = true
				break
			}
		}
	}
	var out []State
	for u := 1; u < g.N; u++ {
		if g.start[u] < g.start[u+1] && !reach[u] {
			out = append(out, g.State(u))
		}
	}
	return out
}
