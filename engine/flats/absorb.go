package flats

// Absorb returns, for every node, the absorption probability into
// Cleared (the forward committor B = (I-Q)^-1 R of the chain whose
// transition probabilities are the edge counts over the out-count), by
// one backward pass over the DAG: B(u) = sum_v n(u->v) B(v) / N(u), with
// B(Cleared) = 1 and B(Immortal) = 0. Nodes without out-edges are NaN.
func Absorb(g *Graph) []float64 {
	b := make([]float64, g.Nodes())
	b[g.N], b[g.N+1] = 1, 0
	for i := len(g.order) - 3; i >= 0; i-- {
		u := g.order[i]
		to, n := g.Out(int(u))
		if len(to) == 0 {
			b[u] = nan
			continue
		}
		num, den := 0.0, 0.0
		for k, v := range to {
			num += n[k] * b[v]
			den += n[k]
		}
		b[u] = num / den
	}
	return b
}

// Pathwise returns, for every node of the (shape, height) graph of c, the
// pathwise cleared share (NaN where no life was followed): see
// Counts.PathFrac.
func Pathwise(c *Counts, g *Graph) []float64 {
	f := make([]float64, g.Nodes())
	for u := range f {
		f[u] = nan
	}
	f[g.N], f[g.N+1] = 1, 0
	if !c.Pathwise {
		return f
	}
	if g.Height == 1 {
		for u, n := range c.shapeLives {
			if n.through > 0 {
				f[u] = n.cleared / n.through
			}
		}
		return f
	}
	for j, n := range c.lives {
		if n.through > 0 {
			f[j] = n.cleared / n.through
		}
	}
	return f
}
