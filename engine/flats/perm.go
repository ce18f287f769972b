package flats

// Permeability is the smoothed row-pair permeability π(a, b): the share
// of moves with row a directly above row b whose piece reached row b or
// lower (such a piece passed through a). Sparse pairs are smoothed toward
// the pairs with the same open-through mask ~a & ~b, and those toward the
// global mean, each with Alpha pseudo-moves.
type Permeability struct {
	Width int
	Alpha float64
	// Mean is the global share.
	Mean float64
	// Open[o] is the smoothed share of the pairs whose open-through mask
	// is o.
	Open  []float64
	pairs map[uint32][2]float64
}

// NewPermeability smooths the pair counts of a width-wide well with alpha
// pseudo-moves per level (alpha <= 0 means 5).
func NewPermeability(pairs []Pair, width int, alpha float64) *Permeability {
	if alpha <= 0 {
		alpha = 5
	}
	full := uint16(1<<width - 1)
	p := &Permeability{Width: width, Alpha: alpha, Open: make([]float64, 1<<width), pairs: make(map[uint32][2]float64, len(pairs))}
	var n, hits float64
	on := make([]float64, 1<<width)
	oh := make([]float64, 1<<width)
	for _, q := range pairs {
		n += q.N
		hits += q.Hits
		o := ^q.A & ^q.B & full
		on[o] += q.N
		oh[o] += q.Hits
		p.pairs[uint32(q.A)<<16|uint32(q.B)] = [2]float64{q.N, q.Hits}
	}
	p.Mean = 0.5
	if n > 0 {
		p.Mean = hits / n
	}
	for o := range p.Open {
		p.Open[o] = (oh[o] + alpha*p.Mean) / (on[o] + alpha)
	}
	return p
}

// At returns π(a, b), smoothed.
func (p *Permeability) At(a, b uint16) float64 {
	o := ^a & ^b & uint16(1<<p.Width-1)
	q := p.pairs[uint32(a)<<16|uint32(b)]
	return (q[1] + p.Alpha*p.Open[o]) / (q[0] + p.Alpha)
}
