package cycle

import (
	"slices"
	"testing"
)

func TestHistogram(t *testing.T) {
	h := histogram([]float32{-1, -1, -0.95, 0, 0.05, 0.999, 1})
	want := make([]int, 20)
	want[0], want[10], want[19] = 3, 2, 2
	if !slices.Equal(h, want) {
		t.Errorf("histogram %v, want %v", h, want)
	}
}
