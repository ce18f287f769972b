package replaycodec

const hexDigits = "0123456789ABCDEF"

// appendHex writes keys in the 2010 hex format: one digit 4*v(a)+v(b) per
// pair of keys (an odd last key is paired with D), a space after every fourth
// digit. keys must be valid.
func appendHex(dst []byte, keys string) []byte {
	digits := 0
	for i := 0; i < len(keys); i += 2 {
		a := keyValue[keys[i]]
		b := int8(2) // D
		if i+1 < len(keys) {
			b = keyValue[keys[i+1]]
		}
		dst = append(dst, hexDigits[4*a+b])
		digits++
		if digits%4 == 0 {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// hexValue maps '0'-'9' and 'A'-'F' to 0..15 and everything else to -1.
var hexValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for v := 0; v < 16; v++ {
		t[hexDigits[v]] = int8(v)
	}
	return t
}()

// appendHexDecode maps each hex digit of s to two keys and ignores every
// other character, as the game does. It cannot fail.
func appendHexDecode(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if v := hexValue[s[i]]; v >= 0 {
			dst = append(dst, keyLetters[v>>2], keyLetters[v&3])
		}
	}
	return dst
}
