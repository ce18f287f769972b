package replaycodec

// rleReader turns a valid key string into the run-length byte stream of the
// Base65536 and Base2048 replay formats: runs of equal keys of length 1..4
// (longer runs split greedily 4, 4, ..., rest), each run one nybble
// (v(key) << 2) | (length - 1), two nybbles a byte with the first in the high
// half, and a 0 nybble (one extra L) to fill an odd last byte.
type rleReader struct {
	keys string
	pos  int
}

func (r *rleReader) nybble() (byte, bool) {
	if r.pos >= len(r.keys) {
		return 0, false
	}
	c := r.keys[r.pos]
	n := 1
	for n < 4 && r.pos+n < len(r.keys) && r.keys[r.pos+n] == c {
		n++
	}
	r.pos += n
	return byte(keyValue[c])<<2 | byte(n-1), true
}

// next returns the next byte, or false at the end of the stream.
func (r *rleReader) next() (byte, bool) {
	hi, ok := r.nybble()
	if !ok {
		return 0, false
	}
	lo, _ := r.nybble()
	return hi<<4 | lo, true
}

// AppendRunLength appends the run-length byte stream of keys (see the package
// documentation) to dst: the bytes that Base65536 and Base2048 encode.
func AppendRunLength(dst []byte, keys string) ([]byte, error) {
	if err := ValidateKeys(keys); err != nil {
		return dst, err
	}
	r := rleReader{keys: keys}
	for {
		b, ok := r.next()
		if !ok {
			return dst, nil
		}
		dst = append(dst, b)
	}
}

// runExpansion[b] is the key string of the byte b: the high nybble's run
// followed by the low nybble's.
var runExpansion = func() (t [256]string) {
	run := func(n int) string {
		s := ""
		for i := 0; i <= n&3; i++ {
			s += string(keyLetters[n>>2])
		}
		return s
	}
	for b := range t {
		t[b] = run(b>>4) + run(b&15)
	}
	return t
}()

// AppendRunLengthDecode appends the keys of the run-length byte stream b to
// dst. Every byte stream is valid.
func AppendRunLengthDecode(dst []byte, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, runExpansion[c]...)
	}
	return dst
}
