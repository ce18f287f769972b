// Package replaycodec reads and writes HATETRIS replays in the four formats
// the real game understands: raw keystrokes (the letters L, R, D, U), the
// 2010 hex format, Base65536 (2015) and Base2048 (2017, what the game prints
// today). The two Unicode formats run-length encode the keystrokes into
// nybbles first and then encode the bytes with base65536 v5 or base2048 v3
// (qntm's npm packages), reimplemented here from their repertoires.
//
// Decoding mirrors the game exactly, quirks included: a replay whose
// run-length nybble count was odd decodes with one extra trailing L, an odd
// hex replay with one extra trailing D, and DecodeAuto sniffs the format in
// the game's order, so that the hex replay "D" reads as the raw key D and the
// Base2048 replay "F" reads as hex.
package replaycodec

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Format is a replay format.
type Format int

// The replay formats. Auto is not a format of its own: Decode(Auto, s) sniffs
// the format as the game does (see DecodeAuto) and Encode(Auto, keys) writes
// the game's current output format, Base2048.
const (
	Auto Format = iota
	Raw
	Hex
	Base65536
	Base2048
)

var formatNames = [...]string{Auto: "auto", Raw: "raw", Hex: "hex", Base65536: "base65536", Base2048: "base2048"}

// String returns the lower-case name of f, as ParseFormat accepts it.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat parses "auto", "raw", "hex", "base65536" or "base2048" (any
// letter case).
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if strings.EqualFold(s, name) {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("unknown replay format %q (want auto, raw, hex, base65536 or base2048)", s)
}

// Key values: L=0, R=1, D=2, U=3.
const keyLetters = "LRDU"

var keyValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for v := 0; v < 4; v++ {
		t[keyLetters[v]] = int8(v)
	}
	return t
}()

// ValidateKeys reports an error naming the first character of keys that is
// not one of L, R, D, U, with its position (counted in characters from 0).
func ValidateKeys(keys string) error {
	for i := 0; i < len(keys); i++ {
		if keyValue[keys[i]] < 0 {
			r, _ := utf8.DecodeRuneInString(keys[i:])
			return fmt.Errorf("keys: character %s at position %d is not one of L, R, D, U", describeRune(r), utf8.RuneCountInString(keys[:i]))
		}
	}
	return nil
}

// describeRune writes r as U+XXXX, followed by the quoted character when it
// is printable.
func describeRune(r rune) string {
	if r < 0x20 || r == 0x7f || r == utf8.RuneError {
		return fmt.Sprintf("U+%04X", r)
	}
	return fmt.Sprintf("U+%04X %q", r, r)
}

// Encode encodes the keystrokes keys (only the letters L, R, D, U) in format f.
func Encode(f Format, keys string) (string, error) {
	buf := scratch.Get().(*[]byte)
	defer scratch.Put(buf)
	b, err := AppendEncode(slices.Grow((*buf)[:0], EncodedLenMax(f, len(keys))), f, keys)
	*buf = b
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// EncodedLenMax is an upper bound on the length in bytes of the encoding of
// n keystrokes in format f.
func EncodedLenMax(f Format, n int) int {
	switch f {
	case Raw:
		return n
	case Hex:
		d := (n + 1) / 2
		return d + d/4
	}
	bytes := (n + 1) / 2 // run-length bytes: at most one nybble a key, plus a pad
	if f == Base65536 {
		return (bytes/2 + 1) * 4 // 2 bytes a character, 4 UTF-8 bytes at most
	}
	return (bytes*8/11 + 1) * 3 // Base2048 and Auto: 11 bits a character, 3 UTF-8 bytes at most
}

// AppendEncode appends the encoding of keys in format f to dst. It allocates
// nothing when dst has room.
func AppendEncode(dst []byte, f Format, keys string) ([]byte, error) {
	if err := ValidateKeys(keys); err != nil {
		return dst, err
	}
	switch f {
	case Raw:
		return append(dst, keys...), nil
	case Hex:
		return appendHex(dst, keys), nil
	case Base65536:
		return appendBase65536(dst, keys), nil
	case Base2048, Auto:
		return appendBase2048(dst, keys), nil
	}
	return dst, fmt.Errorf("unknown replay format %v", f)
}

// Decode decodes the replay s, written in format f, into keystrokes. White
// space around s is ignored, as the game trims it. Decode(Auto, s) is
// DecodeAuto(s) without the format.
func Decode(f Format, s string) (string, error) {
	keys, _, err := decodeString(f, s)
	return keys, err
}

// scratch holds reusable decode buffers, so that Decode allocates only its
// result.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

func decodeString(f Format, s string) (string, Format, error) {
	buf := scratch.Get().(*[]byte)
	b, f, err := AppendDecode((*buf)[:0], f, s)
	keys := ""
	if err == nil {
		keys = string(b)
	}
	*buf = b
	scratch.Put(buf)
	return keys, f, err
}

// DecodeAuto decodes a replay the way the game does: after trimming white
// space, the replay is raw if it matches ^[ULDR]+$, hex if it matches
// ^[0-9A-F# ]+$, Base65536 if it decodes as Base65536, and Base2048
// otherwise. It returns the keys and the format that was used.
func DecodeAuto(s string) (string, Format, error) {
	return decodeString(Auto, s)
}

// AppendDecode appends the keystrokes of the replay s (format f, or Auto) to
// dst and returns the format that was decoded. It allocates nothing when dst
// has room (at most 11 keys a Base2048 character, 16 a Base65536 character,
// 2 a hex digit).
func AppendDecode(dst []byte, f Format, s string) ([]byte, Format, error) {
	s = trimJS(s)
	if f == Auto {
		f = sniff(s)
	}
	var err error
	n := len(dst)
	switch f {
	case Raw:
		if err = ValidateKeys(s); err != nil {
			err = fmt.Errorf("raw: %w", err)
		} else {
			dst = append(dst, s...)
		}
	case Hex:
		dst = appendHexDecode(dst, s)
	case Base65536:
		dst, err = appendBase65536Decode(dst, s)
	case Base2048:
		dst, err = appendBase2048Decode(dst, s)
	case auto2048:
		// The game tries Base65536 first and falls back on Base2048.
		if isBase65536(s) {
			f = Base65536
			dst, err = appendBase65536Decode(dst, s)
		} else {
			f = Base2048
			if dst, err = appendBase2048Decode(dst, s); err != nil {
				err = fmt.Errorf("not a raw, hex, Base65536 or Base2048 replay: %w", err)
			}
		}
	default:
		err = fmt.Errorf("unknown replay format %v", f)
	}
	if err != nil {
		return dst[:n], f, err
	}
	return dst, f, nil
}

// auto2048 is the internal result of sniff for "Base65536, else Base2048".
const auto2048 Format = -1

// sniff applies the game's first two format tests to the trimmed replay.
func sniff(s string) Format {
	if s == "" {
		return auto2048
	}
	raw, hex := true, true
	for i := 0; i < len(s) && (raw || hex); i++ {
		c := s[i]
		if keyValue[c] < 0 {
			raw = false
		}
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c == '#' || c == ' ') {
			hex = false
		}
	}
	switch {
	case raw:
		return Raw
	case hex:
		return Hex
	}
	return auto2048
}

// trimJS removes leading and trailing white space as JavaScript's
// String.prototype.trim does (WhiteSpace and LineTerminator of ECMA-262).
func trimJS(s string) string {
	start := 0
	for start < len(s) {
		r, w := utf8.DecodeRuneInString(s[start:])
		if !isJSSpace(r) {
			break
		}
		start += w
	}
	end := len(s)
	for end > start {
		r, w := utf8.DecodeLastRuneInString(s[start:end])
		if !isJSSpace(r) {
			break
		}
		end -= w
	}
	return s[start:end]
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
