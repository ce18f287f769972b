package wordbytes_test

import (
	"encoding/binary"
	"fmt"

	"github.com/hatelab/hatelab/internal/wordbytes"
)

// Bytes views words as bytes without copying: a write through the view
// changes the words. The files are little-endian; LittleEndian says whether
// the view is already in that order on this machine.
func ExampleBytes() {
	words := []uint64{0x0102030405060708, 42}
	b := wordbytes.Bytes(words)
	fmt.Println(len(b))
	fmt.Println(binary.LittleEndian.Uint64(b) == words[0] == wordbytes.LittleEndian)
	copy(b[8:], make([]byte, 8)) // zero the bytes of words[1]
	fmt.Printf("%#x\n", words)
	fmt.Println(wordbytes.Bytes(nil) == nil)
	// Output:
	// 16
	// true
	// [0x102030405060708 0x0]
	// true
}
