package bfs

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// Compressed runs. A run is a strictly increasing sequence of plain keys
// (the well's rows, up to 128 bits: hi, lo), stored as blocks of at most
// runBlockKeys keys. A block is a header of runHeaderSize bytes, all
// little-endian:
//
//	count    uint32  keys in the block (1..runBlockKeys)
//	length   uint32  bytes of the payload that follows the header
//	crc      uint32  CRC-32C of the other header fields and the payload
//	firstHi  uint64  the first key, absolute (high word)
//	firstLo  uint64  (low word)
//
// and a payload of count-1 deltas, each key minus the one before it (at
// least 1), as 128-bit unsigned LEB128 varints (7 bits a byte, low first;
// at most 19 bytes). Every block starts from an absolute key, so blocks can
// be decoded independently: a run's block index (the offset of every
// block) splits it among workers. Sorted plain keys of a level are close
// together (the wells share their bottom rows), so a delta takes about
// 2 to 3 bytes where a key takes 8 (measured: 10x6's peak level, 2.7 bytes
// a state).

const (
	runBlockKeys  = 4096
	runHeaderSize = 28
	maxVarint128  = 19
)

// run is a compressed run held in memory: its bytes and block index.
type run struct {
	data  []byte
	index []int64 // the offset of every block in data
	n     int64   // keys in all
}

// errRunDamaged is the error of a block that does not parse.
var errRunDamaged = errors.New("damaged compressed block")

// less128 reports whether (ah, al) < (bh, bl).
func less128(ah, al, bh, bl uint64) bool { return ah < bh || ah == bh && al < bl }

// appendVarint128 appends v = (hi, lo) as an unsigned LEB128 varint.
func appendVarint128(dst []byte, hi, lo uint64) []byte {
	for hi != 0 || lo >= 0x80 {
		dst = append(dst, byte(lo)|0x80)
		lo = lo>>7 | hi<<57
		hi >>= 7
	}
	return append(dst, byte(lo))
}

// readVarint128 reads a varint of appendVarint128 from b; n is 0 when b
// ends early or the varint is too long or overflows 128 bits.
func readVarint128(b []byte) (hi, lo uint64, n int) {
	var shift uint
	for i, c := range b {
		if i == maxVarint128 {
			return 0, 0, 0
		}
		v := uint64(c & 0x7f)
		if shift < 64 {
			lo |= v << shift
			if shift > 57 {
				hi |= v >> (64 - shift)
			}
		} else {
			if shift == 126 && v > 3 {
				return 0, 0, 0
			}
			hi |= v << (shift - 64)
		}
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, 0, 0 // overlong: one encoding per value
			}
			return hi, lo, i + 1
		}
		shift += 7
	}
	return 0, 0, 0
}

// runEncoder appends keys, in strictly increasing order, as blocks.
type runEncoder struct {
	data             []byte
	index            []int64
	n                int64
	start            int // offset of the open block's header (-1: none)
	count            int
	prevHi, prevLo   uint64
	firstHi, firstLo uint64
}

func newRunEncoder(data []byte) *runEncoder {
	return &runEncoder{data: data[:0], start: -1}
}

// add appends the key (hi, lo), greater than the one before.
func (e *runEncoder) add(hi, lo uint64) {
	if e.start < 0 || e.count == runBlockKeys {
		e.close()
		e.start = len(e.data)
		e.index = append(e.index, int64(e.start))
		var h [runHeaderSize]byte
		e.data = append(e.data, h[:]...)
		e.firstHi, e.firstLo, e.count = hi, lo, 1
		e.prevHi, e.prevLo = hi, lo
		e.n++
		return
	}
	dlo := lo - e.prevLo
	dhi := hi - e.prevHi
	if lo < e.prevLo {
		dhi--
	}
	e.data = appendVarint128(e.data, dhi, dlo)
	e.prevHi, e.prevLo = hi, lo
	e.count++
	e.n++
}

// close completes the open block's header.
func (e *runEncoder) close() {
	if e.start < 0 {
		return
	}
	h := e.data[e.start : e.start+runHeaderSize]
	payload := e.data[e.start+runHeaderSize:]
	binary.LittleEndian.PutUint32(h[0:], uint32(e.count))
	binary.LittleEndian.PutUint32(h[4:], uint32(len(payload)))
	binary.LittleEndian.PutUint64(h[12:], e.firstHi)
	binary.LittleEndian.PutUint64(h[20:], e.firstLo)
	binary.LittleEndian.PutUint32(h[8:], blockCRC(h, payload))
	e.start = -1
}

// finish closes the last block and returns the run.
func (e *runEncoder) finish() *run {
	e.close()
	return &run{data: e.data, index: e.index, n: e.n}
}

// encodeRun compresses keys, given as (hi, lo) pairs in strictly
// increasing order, into a run.
func encodeRun(keys []uint64) *run {
	e := newRunEncoder(nil)
	for i := 0; i+1 < len(keys); i += 2 {
		e.add(keys[i], keys[i+1])
	}
	return e.finish()
}

// blockCRC is the checksum of a block: CRC-32C of its header without the
// crc field, then of its payload.
func blockCRC(h, payload []byte) uint32 {
	c := crc32.Update(0, crcTable, h[0:8])
	c = crc32.Update(c, crcTable, h[12:runHeaderSize])
	return crc32.Update(c, crcTable, payload)
}

// blockSize returns the bytes of the block that starts b (header and
// payload) and its key count, checking only that the header is there and
// fits.
func blockSize(b []byte) (size, count int, err error) {
	if len(b) < runHeaderSize {
		return 0, 0, errRunDamaged
	}
	count = int(binary.LittleEndian.Uint32(b[0:]))
	length := int64(binary.LittleEndian.Uint32(b[4:]))
	if count < 1 || count > runBlockKeys || length > int64(len(b)-runHeaderSize) || length < int64(count-1) {
		return 0, 0, errRunDamaged
	}
	return runHeaderSize + int(length), count, nil
}

// decodeBlock decodes the block at the start of b, appending its keys as
// (hi, lo) pairs to dst; it checks the header, the checksum, that the
// keys increase strictly (no delta of 0, no overflow past 128 bits) and
// that the payload is used exactly. It returns the block's size.
func decodeBlock(b []byte, dst []uint64) (out []uint64, size int, err error) {
	size, count, err := blockSize(b)
	if err != nil {
		return dst, 0, err
	}
	payload := b[runHeaderSize:size]
	if blockCRC(b, payload) != binary.LittleEndian.Uint32(b[8:]) {
		return dst, 0, errRunDamaged
	}
	hi, lo := binary.LittleEndian.Uint64(b[12:]), binary.LittleEndian.Uint64(b[20:])
	dst = append(dst, hi, lo)
	pos := 0
	for i := 1; i < count; i++ {
		dh, dl, n := readVarint128(payload[pos:])
		if n == 0 || dh == 0 && dl == 0 {
			return dst, 0, errRunDamaged
		}
		pos += n
		nlo := lo + dl
		nhi := hi + dh
		if nlo < lo {
			nhi++
		}
		if nhi < hi || nhi == hi && nlo <= lo {
			return dst, 0, errRunDamaged // wrapped past 128 bits
		}
		hi, lo = nhi, nlo
		dst = append(dst, hi, lo)
	}
	if pos != len(payload) {
		return dst, 0, errRunDamaged
	}
	return dst, size, nil
}

// parseRun checks data, a run's blocks end to end (every block as
// decodeBlock checks it, and the order across blocks), and returns the run
// with its index.
func parseRun(data []byte) (*run, error) {
	r := &run{data: data}
	var scratch []uint64
	var lastHi, lastLo uint64
	for off := 0; off < len(data); {
		keys, size, err := decodeBlock(data[off:], scratch[:0])
		if err != nil {
			return nil, err
		}
		if r.n > 0 && !less128(lastHi, lastLo, keys[0], keys[1]) {
			return nil, errRunDamaged
		}
		lastHi, lastLo = keys[len(keys)-2], keys[len(keys)-1]
		r.index = append(r.index, int64(off))
		r.n += int64(len(keys) / 2)
		off += size
		scratch = keys
	}
	return r, nil
}

// block appends the keys of block i to dst (a run built here or checked
// by parseRun: the header is trusted, the checksum is not recomputed).
func (r *run) block(i int, dst []uint64) []uint64 {
	b := r.data[r.index[i]:]
	count := int(binary.LittleEndian.Uint32(b[0:]))
	hi, lo := binary.LittleEndian.Uint64(b[12:]), binary.LittleEndian.Uint64(b[20:])
	dst = append(dst, hi, lo)
	p := b[runHeaderSize:]
	for k := 1; k < count; k++ {
		var dh, dl uint64
		if c := p[0]; c < 0x80 { // the common short deltas, inline
			dl, p = uint64(c), p[1:]
		} else if c1 := p[1]; c1 < 0x80 {
			dl, p = uint64(c&0x7f)|uint64(c1)<<7, p[2:]
		} else {
			var n int
			dh, dl, n = readVarint128(p)
			p = p[n:]
		}
		nlo := lo + dl
		if nlo < lo {
			hi++
		}
		hi, lo = hi+dh, nlo
		dst = append(dst, hi, lo)
	}
	return dst
}

// size returns the run's bytes.
func (r *run) size() int64 {
	if r == nil {
		return 0
	}
	return int64(len(r.data))
}
