package flats

// Network is a flow network on nodes 0..n-1 held in arrays (arcs in
// pairs: arc 2e is edge e, arc 2e+1 its reverse). MaxFlow is Dinic's
// algorithm (level graph by BFS, blocking flow by DFS with current-arc
// pointers); after it, Flow gives each edge's flow and Cut the min cut.
// A Network reuses its arrays across MaxFlow calls (Reset clears flows).
type Network struct {
	n     int
	head  []int32
	next  []int32
	to    []int32
	cap   []float64 // capacity of each arc (the reverse arc's is 0)
	res   []float64 // residual capacity
	level []int32
	iter  []int32
	queue []int32
	// Eps is the absolute tolerance below which a residual capacity is
	// treated as zero (1e-9 by default).
	Eps float64
}

// NewNetwork returns an empty network on n nodes.
func NewNetwork(n int) *Network {
	f := &Network{n: n, head: make([]int32, n), level: make([]int32, n), iter: make([]int32, n), Eps: 1e-9}
	for i := range f.head {
		f.head[i] = -1
	}
	return f
}

// AddEdge adds an edge u -> v of capacity c and returns its number.
func (f *Network) AddEdge(u, v int, c float64) int {
	e := len(f.to) / 2
	f.to = append(f.to, int32(v), int32(u))
	f.cap = append(f.cap, c, 0)
	f.res = append(f.res, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u] = int32(2 * e)
	f.head[v] = int32(2*e + 1)
	return e
}

// Reset sets every flow back to zero.
func (f *Network) Reset() { copy(f.res, f.cap) }

// SetCapacity changes edge e's capacity (call Reset before MaxFlow).
func (f *Network) SetCapacity(e int, c float64) { f.cap[2*e] = c }

// Flow returns the flow on edge e.
func (f *Network) Flow(e int) float64 { return f.cap[2*e] - f.res[2*e] }

// Edges returns the number of edges.
func (f *Network) Edges() int { return len(f.to) / 2 }

// Edge returns edge e's ends and capacity.
func (f *Network) Edge(e int) (u, v int, c float64) {
	return int(f.to[2*e+1]), int(f.to[2*e]), f.cap[2*e]
}

// MaxFlow pushes a maximum flow from s to t on top of the current flows
// (zero after NewNetwork or Reset) and returns the value added.
func (f *Network) MaxFlow(s, t int) float64 {
	if s == t {
		return 0
	}
	total := 0.0
	for f.bfs(s, t) {
		for i := range f.iter {
			f.iter[i] = f.head[i]
		}
		for {
			d := f.dfs(s, t, inf)
			if d <= f.Eps {
				break
			}
			total += d
		}
	}
	return total
}

var inf = 1e308

func (f *Network) bfs(s, t int) bool {
	for i := range f.level {
		f.level[i] = -1
	}
	f.level[s] = 0
	f.queue = append(f.queue[:0], int32(s))
	for i := 0; i < len(f.queue); i++ {
		u := f.queue[i]
		for a := f.head[u]; a >= 0; a = f.next[a] {
			if v := f.to[a]; f.res[a] > f.Eps && f.level[v] < 0 {
				f.level[v] = f.level[u] + 1
				f.queue = append(f.queue, v)
			}
		}
	}
	return f.level[t] >= 0
}

// dfs finds one augmenting path in the level graph (recursion depth is at
// most the level of t).
func (f *Network) dfs(u, t int, pushed float64) float64 {
	if u == t {
		return pushed
	}
	for ; f.iter[u] >= 0; f.iter[u] = f.next[f.iter[u]] {
		a := f.iter[u]
		v := f.to[a]
		if f.res[a] <= f.Eps || f.level[v] != f.level[u]+1 {
			continue
		}
		if d := f.dfs(int(v), t, min(pushed, f.res[a])); d > f.Eps {
			f.res[a] -= d
			f.res[a^1] += d
			return d
		}
	}
	return 0
}

// Cut returns, after MaxFlow(s, t), the source side of a minimum cut: the
// nodes reachable from s in the residual network. The cut edges are those
// from a true node to a false one.
func (f *Network) Cut(s int) []bool {
	side := make([]bool, f.n)
	side[s] = true
	q := []int32{int32(s)}
	for i := 0; i < len(q); i++ {
		u := q[i]
		for a := f.head[u]; a >= 0; a = f.next[a] {
			if v := f.to[a]; f.res[a] > f.Eps && !side[v] {
				side[v] = true
				q = append(q, v)
			}
		}
	}
	return side
}

// NetworkOf returns the flow network of g with capacity = count.
func NetworkOf(g *Graph) *Network {
	f := NewNetwork(g.Nodes())
	for u := 0; u < g.N; u++ {
		to, n := g.Out(u)
		for k, v := range to {
			f.AddEdge(u, int(v), n[k])
		}
	}
	return f
}
