package flats

import (
	"gonum.org/v1/gonum/graph/simple"
)

// ToGonum returns g as a gonum weighted directed graph (weight = count)
// for cross-checks and gonum's algorithms (topo, network, encoding/dot).
// Node IDs are g's, dense from 0 to Nodes()-1 (gonum's max-flow indexes
// slices by ID); every node is present, edges or not.
func ToGonum(g *Graph) *simple.WeightedDirectedGraph {
	out := simple.NewWeightedDirectedGraph(0, 0)
	for u := 0; u < g.Nodes(); u++ {
		out.AddNode(simple.Node(u))
	}
	for u := 0; u < g.N; u++ {
		to, n := g.Out(u)
		for k, v := range to {
			out.SetWeightedEdge(out.NewWeightedEdge(simple.Node(u), simple.Node(int64(v)), n[k]))
		}
	}
	return out
}
