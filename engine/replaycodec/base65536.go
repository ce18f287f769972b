package replaycodec

import (
	"fmt"
	"unicode/utf8"
)

// Base65536 byte codec (npm base65536 v5): each pair of bytes (b1, b2) is the
// character at position 256*b2 + b1 of the 65536-character repertoire (the
// second byte picks a block of 256, the first the offset in it: a byte-order
// quirk kept from earlier versions); an odd last byte b is the character b of
// the 256-character tail block. Every repertoire range is made of whole,
// aligned blocks of 256 code points.

var (
	// b65536Block[b2] is the first code point of block b2.
	b65536Block [256]rune
	// b65536BlockOf[cp>>8] is 0..255 for a main block, b65536TailFlag for
	// the tail block and -1 for anything else.
	b65536BlockOf []int16
	b65536Tail    rune
)

const b65536TailFlag = 0x100

func init() {
	k := 0
	var max rune
	for _, rg := range base65536Main {
		if rg.lo&0xff != 0 || rg.hi&0xff != 0xff {
			panic("replaycodec: base65536 range not made of whole blocks")
		}
		for blk := rg.lo; blk <= rg.hi; blk += 256 {
			b65536Block[k] = blk
			k++
		}
		max = rg.hi
	}
	if k != 256 || len(base65536Tail) != 1 || base65536Tail[0].hi-base65536Tail[0].lo != 255 || base65536Tail[0].lo&0xff != 0 {
		panic("replaycodec: base65536 repertoire has the wrong shape")
	}
	b65536Tail = base65536Tail[0].lo
	if b65536Tail > max {
		max = b65536Tail
	}
	b65536BlockOf = make([]int16, max>>8+1)
	for i := range b65536BlockOf {
		b65536BlockOf[i] = -1
	}
	for b2, blk := range b65536Block {
		b65536BlockOf[blk>>8] = int16(b2)
	}
	b65536BlockOf[b65536Tail>>8] = b65536TailFlag
}

// appendBase65536 encodes the run-length bytes of the valid keys.
func appendBase65536(dst []byte, keys string) []byte {
	rd := rleReader{keys: keys}
	for {
		b1, ok := rd.next()
		if !ok {
			return dst
		}
		b2, ok := rd.next()
		if !ok {
			return utf8.AppendRune(dst, b65536Tail+rune(b1))
		}
		dst = utf8.AppendRune(dst, b65536Block[b2]+rune(b1))
	}
}

// AppendBase65536 appends the base65536 v5 encoding of the bytes b to dst.
func AppendBase65536(dst []byte, b []byte) []byte {
	i := 0
	for ; i+1 < len(b); i += 2 {
		dst = utf8.AppendRune(dst, b65536Block[b[i+1]]+rune(b[i]))
	}
	if i < len(b) {
		dst = utf8.AppendRune(dst, b65536Tail+rune(b[i]))
	}
	return dst
}

// isBase65536 reports whether s decodes as Base65536 without error: every
// character is in the repertoires and only the last may be a tail character.
func isBase65536(s string) bool {
	tail := false
	for i, r := range s {
		if tail || int(r>>8) >= len(b65536BlockOf) || r == utf8.RuneError && isBadUTF8(s[i:]) {
			return false
		}
		switch b65536BlockOf[r>>8] {
		case -1:
			return false
		case b65536TailFlag:
			tail = true
		}
	}
	return true
}

// appendBase65536Decode decodes s and appends the keys of its run-length
// bytes. As base65536 v5, it rejects a character outside the repertoires and
// any character after a tail character.
func appendBase65536Decode(dst []byte, s string) ([]byte, error) {
	pos := 0
	tailAt := -1
	for i, r := range s {
		blk := int16(-1)
		if int(r>>8) < len(b65536BlockOf) && !(r == utf8.RuneError && isBadUTF8(s[i:])) {
			blk = b65536BlockOf[r>>8]
		}
		if blk < 0 {
			return dst, fmt.Errorf("base65536: character %s at position %d is not in the repertoire", describeBad(r, s[i:]), pos)
		}
		if tailAt >= 0 {
			return dst, fmt.Errorf("base65536: character %s at position %d follows the final (odd-byte) character at position %d", describeRune(r), pos, tailAt)
		}
		b1 := byte(r)
		if blk == b65536TailFlag {
			tailAt = pos
			dst = append(dst, runExpansion[b1]...)
		} else {
			dst = append(dst, runExpansion[b1]...)
			dst = append(dst, runExpansion[byte(blk)]...)
		}
		pos++
	}
	return dst, nil
}
