package beam

import (
	"math/bits"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// rowsMax is the most rows below the bar a beam well may have.
const rowsMax = 16

// pwell is a live well packed to its rows below the bar (rows above the
// bar are empty in a live well), 32 bytes instead of 64.
type pwell [rowsMax]uint16

func pack(r *hatetris.Rules, w *hatetris.Well) pwell {
	var p pwell
	copy(p[:], w[r.Bar:r.Depth])
	return p
}

func unpack(r *hatetris.Rules, p *pwell, w *hatetris.Well) {
	*w = hatetris.Well{}
	copy(w[r.Bar:r.Depth], p[:r.Depth-r.Bar])
}

// hashWell mixes the rows of a well (only rows at or below the bar can be
// filled in a live well; all rows are mixed so game-over wells differ).
func hashWell(w *hatetris.Well) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < hatetris.MaxDepth; i += 4 {
		v := uint64(w[i]) | uint64(w[i+1])<<16 | uint64(w[i+2])<<32 | uint64(w[i+3])<<48
		if v == 0 {
			h = (h ^ uint64(i)) * 0xbf58476d1ce4e5b9
			continue
		}
		h = (h ^ v) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func cellsOf(w *hatetris.Well) int {
	n := 0
	for i := 0; i < hatetris.MaxDepth; i += 4 {
		n += bits.OnesCount64(uint64(w[i]) | uint64(w[i+1])<<16 | uint64(w[i+2])<<32 | uint64(w[i+3])<<48)
	}
	return n
}

func comparePacked(a, b *pwell) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
