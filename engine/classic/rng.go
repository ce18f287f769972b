package classic

// PCG constants of pcg32_k2_fast (O'Neill's extended PCG, table size 2,
// advance_pow2 32, kdd true) as tetr-ai uses it.
const (
	pcgMult    = 6364136223846793005
	pcgInc     = 1442695040888963407
	extMult    = 747796405
	extInc     = 2891336453
	rxsMult    = 277803737
	rxsMultInv = 2897767785
)

// PCG is tetr-ai's random generator, pcg32_k2_fast: a 64-bit LCG with an
// XSH-RS output of the previous state, XORed with one of two 32-bit
// extension words chosen by the low state bit. The extension table advances
// once every 2^32 words. The zero value is not seeded; use NewPCG.
type PCG struct {
	State uint64
	Table [2]uint32
}

// NewPCG seeds the generator exactly like tetr-ai's --seed S: the seed is
// truncated to 32 bits (negative seeds wrap), the base LCG is bumped once,
// and the table self-initialises from four base words.
func NewPCG(seed int64) PCG {
	s := uint64(uint32(seed))
	g := PCG{State: (s+pcgInc)*pcgMult + pcgInc}
	a := g.base()
	b := g.base()
	xdiff := a - b
	g.Table[0] = g.base() ^ xdiff
	g.Table[1] = g.base() ^ xdiff
	return g
}

// base steps the LCG and returns the XSH-RS output of the old state.
func (g *PCG) base() uint32 {
	old := g.State
	g.State = old*pcgMult + pcgInc
	r := old >> 61
	t := old ^ (old >> 22)
	return uint32(t >> (22 + r))
}

// Uint32 returns the next 32-bit word.
func (g *PCG) Uint32() uint32 {
	idx := g.State & 1
	if uint32(g.State) == 0 {
		g.advanceTable()
	}
	rhs := g.Table[idx]
	return g.base() ^ rhs
}

func rxsmxs(s uint32) uint32 {
	r := s >> 28
	s ^= s >> (4 + r)
	s *= rxsMult
	return s ^ (s >> 22)
}

// unxorshift undoes x ^= x >> shift on 32 bits.
func unxorshift(x uint32, shift uint) uint32 {
	res := x
	for s := shift; s < 32; s += shift {
		res = x ^ (res >> shift)
	}
	return res
}

func unrxsmxs(v uint32) uint32 {
	v = unxorshift(v, 22)
	v *= rxsMultInv
	r := v >> 28
	return unxorshift(v, uint(4+r))
}

func extStep(v *uint32, k uint32) bool {
	s := unrxsmxs(*v)
	s = s*extMult + extInc + 2*k
	*v = rxsmxs(s)
	return *v == 0
}

func (g *PCG) advanceTable() {
	carry := false
	for i := range g.Table {
		if carry {
			carry = extStep(&g.Table[i], uint32(i+1))
		}
		carry2 := extStep(&g.Table[i], uint32(i+1))
		carry = carry || carry2
	}
}

// Pieces draws tetr-ai's piece stream: the generator's words read as one
// LSB-first bit stream in 3-bit chunks, 7 rejected.
type Pieces struct {
	RNG  PCG
	buf  uint64
	bits uint
}

// NewPieces returns the piece stream of a seed.
func NewPieces(seed int64) Pieces { return Pieces{RNG: NewPCG(seed)} }

// Next returns the next piece.
func (p *Pieces) Next() Piece {
	for {
		if p.bits < 3 {
			p.buf |= uint64(p.RNG.Uint32()) << p.bits
			p.bits += 32
		}
		v := p.buf & 7
		p.buf >>= 3
		p.bits -= 3
		if v != 7 {
			return Piece(v)
		}
	}
}
