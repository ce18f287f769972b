package bfs

import (
	"slices"
	"testing"
)

// TestPartArray: unwritten partitions read zero and allocate nothing; a
// write allocates its chunk only; each visits the allocated partitions in
// order; slice gives every value.
func TestPartArray(t *testing.T) {
	for _, tc := range []struct {
		n      int
		writes []int
		chunks int
	}{
		{n: 1, writes: []int{0}, chunks: 1},
		{n: 256, writes: nil, chunks: 0},
		{n: 256, writes: []int{255, 3}, chunks: 2},
		{n: 1 << 24, writes: []int{1<<24 - 1, 0, 77, 12345678}, chunks: 4},
		{n: 100, writes: []int{99, 98}, chunks: 1}, // the last chunk is short
	} {
		a := newPartArray[int64](tc.n)
		for _, p := range tc.writes {
			*a.ref(p) = int64(p) + 1
		}
		used := 0
		for i := range a.chunks {
			if a.chunkUsed(i) {
				used++
			}
		}
		if used != tc.chunks || a.len() != tc.n {
			t.Errorf("n %d, writes %v: %d chunks, len %d; want %d, %d", tc.n, tc.writes, used, a.len(), tc.chunks, tc.n)
		}
		var seen []int
		a.each(func(p int, v *int64) {
			if *v != 0 {
				seen = append(seen, p)
			}
		})
		want := slices.Sorted(slices.Values(tc.writes))
		if !slices.Equal(seen, want) {
			t.Errorf("n %d: each saw %v, want %v", tc.n, seen, want)
		}
		for _, p := range []int{0, tc.n - 1, tc.n / 2} {
			if got, want := a.at(p), map[bool]int64{true: int64(p) + 1}[slices.Contains(tc.writes, p)]; got != want {
				t.Errorf("n %d: at(%d) = %d, want %d", tc.n, p, got, want)
			}
		}
		if tc.n <= 1<<12 {
			s := a.slice()
			for _, p := range tc.writes {
				if len(s) != tc.n || s[p] != int64(p)+1 {
					t.Errorf("n %d: slice()[%d] = %d", tc.n, p, s[p])
				}
			}
		}
	}
}
