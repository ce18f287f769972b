package flats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/graph/network"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/mat"
)

// chain builds counts from (from, to, n) triples of width-4 states.
func chain(t *testing.T, arcs [][3]float64) *Counts {
	t.Helper()
	c, err := NewCounts(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range arcs {
		from, to := State(a[0]), State(a[1])
		k := KindGrow
		switch {
		case from == Empty:
			k = KindBorn
		case to == Cleared:
			k = KindDie
		case to == Immortal:
			k = KindImmortal
		}
		if err := c.Add([]Event{{From: from, To: to, Kind: k}}, a[2]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

var (
	stA = float64(MakeState(0b1000, 0))
	stB = float64(MakeState(0b0100, 0))
	stD = float64(MakeState(0b1100, 0))
	stC = float64(Cleared)
	stI = float64(Immortal)
)

// TestAbsorbChain: the design's hand example.
func TestAbsorbChain(t *testing.T) {
	c := chain(t, [][3]float64{{0, stA, 3}, {0, stB, 1}, {stA, stC, 2}, {stA, stI, 1}, {stB, stC, 1}})
	if err := c.Conservation(); err != nil {
		t.Fatal(err)
	}
	g := c.Graph()
	b := Absorb(g)
	for _, tc := range []struct {
		s    State
		want float64
	}{{Empty, 0.75}, {State(stA), 2.0 / 3}, {State(stB), 1}, {Cleared, 1}, {Immortal, 0}} {
		if got := b[g.ID(tc.s)]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("B(%s) = %g, want %g", tc.s.Format(4), got, tc.want)
		}
	}
	if !math.IsNaN(b[g.ID(MakeState(0b1111, 3))]) {
		t.Error("an unseen state has a B")
	}
}

// TestAbsorbMatchesDenseSolve: on random DAGs the backward pass equals
// B = (I-Q)^-1 R solved densely.
func TestAbsorbMatchesDenseSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for trial := 0; trial < 20; trial++ {
		// Transient states: width-6 shapes at height 0, ordered by value
		// with popcount rising (a DAG).
		var states []State
		for s := 1; s < 63; s++ {
			if rng.IntN(3) == 0 {
				states = append(states, MakeState(uint16(s), 0))
			}
		}
		c, _ := NewCounts(6, 2)
		ev := func(from, to State, n float64) {
			if err := c.Add([]Event{{From: from, To: to, Kind: KindGrow}}, n); err != nil {
				t.Fatal(err)
			}
		}
		for i, s := range states {
			ev(Empty, s, float64(1+rng.IntN(5)))
			for _, u := range states[i+1:] {
				if u.Shape()&s.Shape() == s.Shape() && rng.IntN(2) == 0 {
					ev(s, u, float64(1+rng.IntN(9)))
				}
			}
			ev(s, Cleared, float64(rng.IntN(4)))
			ev(s, Immortal, float64(1+rng.IntN(4)))
		}
		g := c.Graph()
		b := Absorb(g)
		n := len(states)
		q := mat.NewDense(n, n, nil)
		r := mat.NewVecDense(n, nil)
		pos := map[int]int{}
		for i, s := range states {
			pos[g.ID(s)] = i
		}
		for i, s := range states {
			u := g.ID(s)
			to, cnt := g.Out(u)
			tot := g.OutSum(u)
			q.Set(i, i, 1)
			for k, v := range to {
				if int(v) == g.N {
					r.SetVec(i, cnt[k]/tot)
				} else if j, ok := pos[int(v)]; ok {
					q.Set(i, j, q.At(i, j)-cnt[k]/tot)
				}
			}
		}
		var x mat.VecDense
		if err := x.SolveVec(q, r); err != nil {
			t.Fatal(err)
		}
		for i, s := range states {
			if d := math.Abs(x.AtVec(i) - b[g.ID(s)]); d > 1e-9 {
				t.Fatalf("trial %d: B(%s) = %g, dense solve %g", trial, s.Format(6), b[g.ID(s)], x.AtVec(i))
			}
		}
	}
}

// TestMaxFlowSmall: the design's hand example, with flows and cut.
func TestMaxFlowSmall(t *testing.T) {
	const s, a, b, tt = 0, 1, 2, 3
	f := NewNetwork(4)
	f.AddEdge(s, a, 3)
	f.AddEdge(s, b, 2)
	f.AddEdge(a, b, 1)
	f.AddEdge(a, tt, 2)
	f.AddEdge(b, tt, 3)
	if v := f.MaxFlow(s, tt); v != 5 {
		t.Fatalf("max flow %g, want 5", v)
	}
	cut := f.Cut(s)
	capCut := 0.0
	for e := 0; e < f.Edges(); e++ {
		u, v, c := f.Edge(e)
		if cut[u] && !cut[v] {
			capCut += c
		}
		if fl := f.Flow(e); fl < 0 || fl > c {
			t.Fatalf("edge %d flow %g outside 0..%g", e, fl, c)
		}
	}
	if capCut != 5 {
		t.Fatalf("cut capacity %g, want 5", capCut)
	}
}

// TestMaxFlowMatchesGonum: random graphs with dense IDs, against gonum's
// MaxFlowDinic; flows are conserved and the cut equals the flow.
func TestMaxFlowMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(12)
		f := NewNetwork(n)
		g := simple.NewWeightedDirectedGraph(0, 0)
		for i := 0; i < n; i++ {
			g.AddNode(simple.Node(i))
		}
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if u != v && rng.IntN(3) == 0 {
					c := float64(1 + rng.IntN(20))
					f.AddEdge(u, v, c)
					g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(u), simple.Node(v), c))
				}
			}
		}
		s, tt := 0, n-1
		got := f.MaxFlow(s, tt)
		want := network.MaxFlowDinic(g, simple.Node(s), simple.Node(tt), -1)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d: max flow %g, gonum %g", trial, got, want)
		}
		net := make([]float64, n)
		cut := f.Cut(s)
		capCut := 0.0
		for e := 0; e < f.Edges(); e++ {
			u, v, c := f.Edge(e)
			net[u] -= f.Flow(e)
			net[v] += f.Flow(e)
			if cut[u] && !cut[v] {
				capCut += c
			}
		}
		for u := range net {
			if u != s && u != tt && math.Abs(net[u]) > 1e-9 {
				t.Fatalf("trial %d: node %d not conserved", trial, u)
			}
		}
		if math.Abs(net[tt]-got) > 1e-9 || math.Abs(capCut-got) > 1e-9 {
			t.Fatalf("trial %d: inflow at t %g, cut %g, flow %g", trial, net[tt], capCut, got)
		}
	}
}

// TestMaxFlowDiffersFromAbsorption: a worked case. Lives: 4 through a to
// D, 1 from a to I; 1 through b to D; D splits 1 to C and 4 to I. B(b) =
// B(D) = 1/5, but MF(b->C) = 1 (all of D's cleared capacity, which b's
// one life can saturate) and MF(b->I) = 1: c(b) = 1/2.
func TestMaxFlowDiffersFromAbsorption(t *testing.T) {
	c := chain(t, [][3]float64{{0, stA, 5}, {0, stB, 1}, {stA, stD, 4}, {stA, stI, 1}, {stB, stD, 1}, {stD, stC, 1}, {stD, stI, 4}})
	if err := c.Conservation(); err != nil {
		t.Fatal(err)
	}
	g := c.Graph()
	b := Absorb(g)
	mf := MFClearability(g)
	ub := g.ID(State(stB))
	if math.Abs(b[ub]-0.2) > 1e-12 || math.Abs(mf[ub]-0.5) > 1e-12 {
		t.Fatalf("B(b) = %g (want 0.2), MF clearability %g (want 0.5)", b[ub], mf[ub])
	}
}

// TestPathwaysAndNeverCleared: widest pathways follow the cleared flux;
// a state with no route to Cleared is listed.
func TestPathwaysAndNeverCleared(t *testing.T) {
	c := chain(t, [][3]float64{{0, stA, 3}, {0, stB, 1}, {stA, stC, 2}, {stA, stI, 1}, {stB, stI, 1}})
	g := c.Graph()
	b := Absorb(g)
	ps := Pathways(g, b, 5)
	if len(ps) != 1 || len(ps[0].States) != 3 || ps[0].States[1] != State(stA) || ps[0].Width != 2 {
		t.Fatalf("pathways %+v", ps)
	}
	never := NeverCleared(g)
	if len(never) != 1 || never[0] != State(stB) {
		t.Fatalf("never cleared %v", never)
	}
	loss := Loss(g, b)
	if loss[0].From != State(stA) || loss[0].To != Immortal || math.Abs(loss[0].Loss-2.0/3) > 1e-12 {
		t.Fatalf("largest loss on %s -> %s", loss[0].From.Format(4), loss[0].To.Format(4))
	}
	p, w := Widest(g, Empty, Immortal)
	if w != 1 || len(p) != 3 {
		t.Fatalf("widest to immortal %v width %g", p, w)
	}
}

// TestGraphIsDAGForGonum: the record graphs are acyclic for gonum's topo
// sort, Order is a topological order, and gonum's max flow from Empty to
// Cleared in the shape view equals ours.
func TestGraphIsDAGForGonum(t *testing.T) {
	c, err := CountGames(testRecords(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*Graph{c.Graph(), c.ShapeGraph()} {
		gg := ToGonum(g)
		if _, err := topo.Sort(gg); err != nil {
			t.Fatalf("height %d: %v", g.Height, err)
		}
		pos := make([]int, g.Nodes())
		for i, u := range g.Order() {
			pos[u] = i
		}
		for u := 0; u < g.N; u++ {
			to, _ := g.Out(u)
			for _, v := range to {
				if pos[v] <= pos[u] {
					t.Fatalf("edge %s -> %s goes back in Order", g.State(u).Format(10), g.State(int(v)).Format(10))
				}
			}
		}
		if g.Height > 1 {
			continue // gonum's max flow is slow on 16k nodes
		}
		f := NetworkOf(g)
		ours := f.MaxFlow(0, g.N)
		theirs := network.MaxFlowDinic(gg, simple.Node(0), simple.Node(g.N), -1)
		if math.Abs(ours-theirs) > 1e-6 || ours == 0 {
			t.Fatalf("height %d: max flow %g, gonum %g", g.Height, ours, theirs)
		}
	}
}
