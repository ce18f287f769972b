package replaycodec

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Base2048 byte codec (npm base2048 v3): the bytes are one bit stream, most
// significant bit first; each 11 bits index the main repertoire. r = 8n mod 11
// leftover bits are padded with 1-bits to 11 (r = 4..10, main repertoire) or
// to 3 (r = 1..3, tail repertoire '0'..'7').

var (
	// b2048Enc[z] is the main-repertoire character of the 11-bit value z.
	b2048Enc [2048]rune
	// b2048TailEnc[z] is the tail character of the 3-bit value z.
	b2048TailEnc [8]rune
	// b2048Dec[r] is 0..2047 for a main character, b2048TailFlag|z for a
	// tail character and -1 for anything else.
	b2048Dec []int16
)

const b2048TailFlag = 0x1000

func init() {
	var max rune
	expand := func(ranges []runeRange, out []rune) {
		k := 0
		for _, rg := range ranges {
			for r := rg.lo; r <= rg.hi; r++ {
				out[k] = r
				k++
				if r > max {
					max = r
				}
			}
		}
		if k != len(out) {
			panic("replaycodec: base2048 repertoire has the wrong size")
		}
	}
	expand(base2048Main[:], b2048Enc[:])
	expand(base2048Tail[:], b2048TailEnc[:])
	b2048Dec = make([]int16, max+1)
	for i := range b2048Dec {
		b2048Dec[i] = -1
	}
	for z, r := range b2048Enc {
		b2048Dec[r] = int16(z)
	}
	for z, r := range b2048TailEnc {
		b2048Dec[r] = b2048TailFlag | int16(z)
	}
}

// appendBase2048 encodes the run-length bytes of the valid keys.
func appendBase2048(dst []byte, keys string) []byte {
	rd := rleReader{keys: keys}
	var acc uint32
	nbits := 0
	for {
		b, ok := rd.next()
		if !ok {
			break
		}
		acc = acc<<8 | uint32(b)
		nbits += 8
		if nbits >= 11 {
			nbits -= 11
			dst = utf8.AppendRune(dst, b2048Enc[(acc>>nbits)&0x7ff])
		}
	}
	return finishBase2048(dst, acc, nbits)
}

// finishBase2048 writes the nbits < 11 leftover low bits of acc, padded with
// 1-bits.
func finishBase2048(dst []byte, acc uint32, nbits int) []byte {
	switch {
	case nbits == 0:
		return dst
	case nbits <= 3:
		pad := 3 - nbits
		z := (acc<<pad | (1<<pad - 1)) & 7
		return utf8.AppendRune(dst, b2048TailEnc[z])
	default:
		pad := 11 - nbits
		z := (acc<<pad | (1<<pad - 1)) & 0x7ff
		return utf8.AppendRune(dst, b2048Enc[z])
	}
}

// AppendBase2048 appends the base2048 v3 encoding of the bytes b to dst.
func AppendBase2048(dst []byte, b []byte) []byte {
	var acc uint32
	nbits := 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		nbits += 8
		if nbits >= 11 {
			nbits -= 11
			dst = utf8.AppendRune(dst, b2048Enc[(acc>>nbits)&0x7ff])
		}
	}
	return finishBase2048(dst, acc, nbits)
}

var errBase2048Padding = errors.New("base2048: the padding bits at the end are not all 1s")

// appendBase2048Decode decodes the base2048 string s and appends the keys of
// its run-length bytes. It reports the first error as base2048 v3 does: a character
// outside the repertoires, a tail character before the end, or leftover
// bits that are not all 1s.
func appendBase2048Decode(dst []byte, s string) ([]byte, error) {
	var acc uint32
	nbits := 0
	pos := 0
	for i, r := range s {
		z := int16(-1)
		if r >= 0 && int(r) < len(b2048Dec) && !(r == utf8.RuneError && isBadUTF8(s[i:])) {
			z = b2048Dec[r]
		}
		if z < 0 {
			return dst, fmt.Errorf("base2048: character %s at position %d is not in the repertoire", describeBad(r, s[i:]), pos)
		}
		if z&b2048TailFlag != 0 {
			if i+utf8.RuneLen(r) != len(s) {
				return dst, fmt.Errorf("base2048: tail character %s at position %d is not the last character", describeRune(r), pos)
			}
			acc = acc<<3 | uint32(z&7)
			nbits += 3
		} else {
			acc = acc<<11 | uint32(z)
			nbits += 11
		}
		for nbits >= 8 {
			nbits -= 8
			dst = append(dst, runExpansion[byte(acc>>nbits)]...)
		}
		pos++
	}
	if acc&(1<<nbits-1) != 1<<nbits-1 {
		return dst, errBase2048Padding
	}
	return dst, nil
}

// isBadUTF8 reports whether s starts with an invalid UTF-8 sequence (which
// range reads as U+FFFD).
func isBadUTF8(s string) bool {
	_, w := utf8.DecodeRuneInString(s)
	return w == 1
}

// describeBad describes the character r found at the start of s.
func describeBad(r rune, s string) string {
	if r == utf8.RuneError && isBadUTF8(s) {
		return fmt.Sprintf("(invalid UTF-8 byte 0x%02X)", s[0])
	}
	return describeRune(r)
}
