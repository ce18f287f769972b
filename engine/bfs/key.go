package bfs

import (
	"fmt"
	"math/bits"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// codec packs a well into a partition number and a 64-bit word,
// bijectively. The score is not stored: within one level it follows from
// the well (every piece adds 4 cells, every line removes Width), so
// deduplicating on (well, score) is deduplicating each level on wells.
// The plain key v = the H rows below the bar, W bits each, has B = H·W bits.
// With B <= 64 the word is mix(v) and the partition its top bits; with
// B > 64 the k = B-64 high bits a and the low word b go through a
// two-round Feistel-like mix: a' = a ^ h(b), b' = mix(b) ^ h(a'); the
// partition is a' followed by the top bits of b', and the word is b'.
type codec struct {
	width, height, bar int
	rowMask            uint64
	k                  uint // high bits (B-64, or 0)
	s                  uint // partition bits taken from the word
	pb                 uint // partition bits, k+s
}

// minPartBits is the least number of partition bits (256 partitions).
const minPartBits = 8

func newCodec(width, height, bar int) (*codec, error) {
	c := &codec{width: width, height: height, bar: bar, rowMask: 1<<uint(width) - 1}
	wb := uint(width * height)
	if wb > 64 {
		c.k = wb - 64
	}
	if c.k > 24 {
		return nil, fmt.Errorf("bfs: a %dx%d well needs %d key bits, more than this search packs (88)", width, height, wb)
	}
	c.pb = max(c.k, minPartBits)
	c.s = c.pb - c.k
	return c, nil
}

func (c *codec) parts() int { return 1 << c.pb }

// pack returns the plain key as (hi, lo).
func (c *codec) pack(w *hatetris.Well) (hi, lo uint64) {
	W := uint(c.width)
	off := uint(0)
	for r := 0; r < c.height; r++ {
		hi, lo = orRow(hi, lo, uint64(w[c.bar+r]), off, W)
		off += W
	}
	return hi, lo
}

// orRow ORs the W-bit row v into the key (hi, lo) at bit offset off.
func orRow(hi, lo, v uint64, off, W uint) (uint64, uint64) {
	if off < 64 {
		lo |= v << off
		if off+W > 64 {
			hi |= v >> (64 - off)
		}
	} else {
		hi |= v << (off - 64)
	}
	return hi, lo
}

// unpack is the inverse of pack.
func (c *codec) unpack(hi, lo uint64, w *hatetris.Well) {
	*w = hatetris.Well{}
	c.unpackRows(hi, lo, w)
}

// unpackRows is unpack for a well whose other rows are already zero: it
// writes only the rows below the bar.
func (c *codec) unpackRows(hi, lo uint64, w *hatetris.Well) {
	W := uint(c.width)
	off := uint(0)
	for r := 0; r < c.height; r++ {
		var v uint64
		if off < 64 {
			v = lo >> off
			if off+W > 64 {
				v |= hi << (64 - off)
			}
		} else {
			v = hi >> (off - 64)
		}
		w[c.bar+r] = uint16(v & c.rowMask)
		off += W
	}
}

// place returns the plain key of the well with plain key (hi, lo) and the
// placement's cells added (every cell lies below the bar).
func (c *codec) place(hi, lo uint64, pl *hatetris.Placement) (uint64, uint64) {
	W := uint(c.width)
	for i, cells := range pl.Cells {
		if cells == 0 {
			continue
		}
		hi, lo = orRow(hi, lo, uint64(cells), uint(pl.Y+i-c.bar)*W, W)
	}
	return hi, lo
}

// encode maps a state to its partition and word.
func (c *codec) encode(w *hatetris.Well) (part uint32, word uint64) {
	hi, lo := c.pack(w)
	return c.encodeKey(hi, lo)
}

// encodeKey maps a plain key to its partition and word.
func (c *codec) encodeKey(hi, lo uint64) (part uint32, word uint64) {
	if c.k == 0 {
		word = mix(lo)
		return uint32(word >> (64 - c.pb)), word
	}
	a := hi ^ mix(lo^seedA)>>(64-c.k)
	word = mix(lo) ^ mix(a^seedB)
	part = uint32(a << c.s)
	if c.s > 0 {
		part |= uint32(word >> (64 - c.s))
	}
	return part, word
}

// decode is the inverse of encode.
func (c *codec) decode(part uint32, word uint64, w *hatetris.Well) {
	hi, lo := c.decodeKey(part, word)
	c.unpack(hi, lo, w)
}

// decodeKey is the inverse of encodeKey.
func (c *codec) decodeKey(part uint32, word uint64) (hi, lo uint64) {
	if c.k == 0 {
		return 0, unmix(word)
	}
	a := uint64(part) >> c.s
	lo = unmix(word ^ mix(a^seedB))
	hi = a ^ mix(lo^seedA)>>(64-c.k)
	return hi, lo
}

const (
	seedA = 0x9e3779b97f4a7c15
	seedB = 0xd1b54a32d192ed03
	mul1  = 0xbf58476d1ce4e5b9
	mul2  = 0x94d049bb133111eb
)

var inv1, inv2 = modInverse(mul1), modInverse(mul2)

// mix is the SplitMix64 finaliser, a bijection of uint64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= mul1
	x ^= x >> 27
	x *= mul2
	x ^= x >> 31
	return x
}

// unmix inverts mix.
func unmix(x uint64) uint64 {
	x ^= x>>31 ^ x>>62
	x *= inv2
	x ^= x>>27 ^ x>>54
	x *= inv1
	x ^= x>>30 ^ x>>60
	return x
}

// modInverse returns the inverse of an odd a modulo 2^64 (Newton).
func modInverse(a uint64) uint64 {
	x := a
	for i := 0; i < 6; i++ {
		x *= 2 - a*x
	}
	return x
}

// cells counts the filled cells of a well's rows below the bar.
func (c *codec) cells(w *hatetris.Well) int {
	n := 0
	for r := c.bar; r < c.bar+c.height; r++ {
		n += bits.OnesCount16(w[r])
	}
	return n
}

// scorer gives the score of a well at a level: score = s0 + (cells0 +
// 4·depth - cells)/width.
type scorer struct {
	c             *codec
	s0, cells0, d int
}

// scoreKey is score for a well given by its plain key (every filled cell
// below the bar is one key bit).
func (sc scorer) scoreKey(hi, lo uint64) int {
	return sc.s0 + (sc.cells0+4*sc.d-bits.OnesCount64(hi)-bits.OnesCount64(lo))/sc.c.width
}

func (sc scorer) score(w *hatetris.Well) int {
	return sc.s0 + (sc.cells0+4*sc.d-sc.c.cells(w))/sc.c.width
}
