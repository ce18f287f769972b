package bfs

// trackEdge is a move from an expanded well (index into the worker's
// parents) to a child well.
type trackEdge struct {
	parent int32
	child  [2]uint64
	lines  int8
}

type loopEdge struct {
	to    int32
	lines int8
}

// loopGraph is the graph of the wells met so far (scores dropped): a well
// has its out-edges once it has been expanded. The search is infinite
// exactly when a cycle is reachable from the start, and such a cycle shows
// up here as soon as each of its wells has been expanded once.
type loopGraph struct {
	id       map[[2]uint64]int32
	expanded []bool
	adj      [][]loopEdge
}

func newLoopGraph() *loopGraph { return &loopGraph{id: map[[2]uint64]int32{}} }

func (g *loopGraph) size() int { return len(g.adj) }

func (g *loopGraph) node(k [2]uint64) int32 {
	if i, ok := g.id[k]; ok {
		return i
	}
	i := int32(len(g.adj))
	g.id[k] = i
	g.adj = append(g.adj, nil)
	g.expanded = append(g.expanded, false)
	return i
}

// merge adds one worker's expansions; a well's edges are recorded the
// first time it is expanded (they are the same every time). It stops as
// soon as the graph holds more than limit wells: the caller then gives the
// graph up.
func (g *loopGraph) merge(parents [][2]uint64, edges []trackEdge, limit int) {
	fresh := make([]int32, len(parents))
	for i, k := range parents {
		n := g.node(k)
		fresh[i] = -1
		if !g.expanded[n] {
			g.expanded[n] = true
			fresh[i] = n
		}
		if g.size() > limit {
			return
		}
	}
	for _, e := range edges {
		if n := fresh[e.parent]; n >= 0 {
			g.adj[n] = append(g.adj[n], loopEdge{to: g.node(e.child), lines: e.lines})
			if g.size() > limit {
				return
			}
		}
	}
}

// findCycle looks for a cycle (iterative depth-first search over all
// nodes, in index order) and returns its length in pieces and the lines
// one lap clears.
func (g *loopGraph) findCycle() (pieces, lines int, ok bool) {
	const (
		white = iota
		gray
		black
	)
	n := len(g.adj)
	color := make([]uint8, n)
	type frame struct {
		node int32
		next int
	}
	var stack []frame
	var edgeLines []int8 // lines of the edge into stack[i] (i >= 1)
	for s := int32(0); s < int32(n); s++ {
		if color[s] != white {
			continue
		}
		stack = append(stack[:0], frame{node: s})
		edgeLines = append(edgeLines[:0], 0)
		color[s] = gray
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(g.adj[top.node]) {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				edgeLines = edgeLines[:len(edgeLines)-1]
				continue
			}
			e := g.adj[top.node][top.next]
			top.next++
			switch color[e.to] {
			case white:
				color[e.to] = gray
				stack = append(stack, frame{node: e.to})
				edgeLines = append(edgeLines, e.lines)
			case gray:
				// Back edge: the cycle is stack[j..] plus this edge.
				j := len(stack) - 1
				for stack[j].node != e.to {
					j--
				}
				pieces = len(stack) - j
				lines = int(e.lines)
				for i := j + 1; i < len(stack); i++ {
					lines += int(edgeLines[i])
				}
				return pieces, lines, true
			}
		}
	}
	return 0, 0, false
}
