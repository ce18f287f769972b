package nnue

import (
	"fmt"
	"math"
	"testing"
)

// TestTinyNetwork checks the float network against values computed by
// hand: a 4-wide, 4-high shared set (K = 4 rows + 2 windows), 2 hidden
// units.
func TestTinyNetwork(t *testing.T) {
	fs, err := NewFeatureSet(Shared, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Rows (top first): 0000, 0000, 1000, 1101.
	rows := []uint16{0, 0, 0b1000, 0b1101}
	// Features: rows 0, 0, 8, 13; window c=0 (columns 1..3): patterns
	// 000 000 000 101 = 5 -> 16+5 = 21; window c=1 (columns 0..2):
	// 000 000 100 110 = 0b100110 = 38 -> 54.
	got := fs.Append(nil, rows)
	want := []int32{0, 0, 8, 13, 21, 54}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("features %v, want %v", got, want)
	}
	for _, c := range []struct {
		act  Activation
		want float64
	}{
		// acc0 = 0.25 + 2*0.1 + 0.5 - 0.25 + 0.125 + 0.0625 = 0.8875
		// acc1 = -0.5 + 2*0.3 - 1 + 0 + 0.5 - 2 = -2.4
		// out = 0.5 + 2*act(acc0) - 1*act(acc1)
		{HardTanh, 0.5 + 2*0.8875 + 1},
		{ClippedReLU, 0.5 + 2*0.8875},
		{Tanh, 0.5 + 2*math.Tanh(0.8875) - math.Tanh(-2.4)},
	} {
		n, err := NewNetwork(fs, 2, c.act)
		if err != nil {
			t.Fatal(err)
		}
		set := func(f int, a, b float32) { copy(n.Row(int32(f)), []float32{a, b}) }
		set(0, 0.1, 0.3)
		set(8, 0.5, -1)
		set(13, -0.25, 0)
		set(21, 0.125, 0.5)
		set(54, 0.0625, -2)
		set(1, 100, 100) // inactive
		n.B1[0], n.B1[1] = 0.25, -0.5
		n.W2[0], n.W2[1] = 2, -1
		n.B2 = 0.5
		if v := n.Evaluate(rows); math.Abs(v-c.want) > 1e-6 {
			t.Errorf("%s: %v, want %v", c.act, v, c.want)
		}
	}
}

// ExampleNetwork builds a one-unit network on a 4-wide, 4-high well.
func ExampleNetwork() {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	n, _ := NewNetwork(fs, 1, HardTanh)
	n.Row(13)[0] = 0.5 // the row pattern 1101
	n.W2[0] = 2
	fmt.Println(fs, n.Evaluate([]uint16{0, 0, 0, 0b1101}))
	// Output: shared 4x4 (F=4112, K=6) 1
}
