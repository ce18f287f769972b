package wordbytes

import (
	"encoding/binary"
	"testing"
)

func TestBytes(t *testing.T) {
	if Bytes(nil) != nil {
		t.Fatal("Bytes(nil) is not nil")
	}
	w := []uint64{0x0102030405060708, 42}
	b := Bytes(w)
	if len(b) != 16 {
		t.Fatalf("len %d, want 16", len(b))
	}
	if LittleEndian {
		if got := binary.LittleEndian.Uint64(b); got != w[0] {
			t.Fatalf("first word %#x, want %#x", got, w[0])
		}
	}
	b[8] = 7 // shared memory
	if LittleEndian && w[1] != 7 {
		t.Fatalf("w[1] = %d after writing its low byte, want 7", w[1])
	}
}
