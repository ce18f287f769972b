// Package wordbytes views slices of 64-bit words as bytes without copying,
// for reading and writing the engine's level files in one system call. The
// files are little-endian; on a big-endian machine the views still work but
// the files would not be portable, which LittleEndian lets callers check.
package wordbytes

import "unsafe"

// Bytes returns the memory of words as a byte slice of 8·len(words) bytes
// (nil for an empty slice). The two share memory.
func Bytes(words []uint64) []byte {
	if len(words) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 8*len(words))
}

// LittleEndian reports whether this machine stores words little-endian, the
// byte order of the files written through Bytes.
var LittleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()
