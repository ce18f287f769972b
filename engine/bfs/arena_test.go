package bfs

import (
	"sync"
	"testing"
	"unsafe"
)

// TestWordArena: allocations are disjoint, zeroed, within the arena while
// it has room (also from many goroutines), and from the heap after.
func TestWordArena(t *testing.T) {
	const n, each, workers = 1 << 16, 100, 8
	a := newWordArena(n)
	defer a.release()
	base := uintptr(unsafe.Pointer(&a.mem[0]))
	inside := func(s []uint64) bool {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		return p >= base && p < base+8*n
	}
	var mu sync.Mutex
	var got [][]uint64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n/each/workers; i++ {
				s := a.alloc(each)
				mu.Lock()
				got = append(got, s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	seen := map[uintptr]bool{}
	for _, s := range got {
		if len(s) != 0 || cap(s) != each || !inside(s) {
			t.Fatalf("alloc gave len %d cap %d inside %v", len(s), cap(s), inside(s))
		}
		s = s[:each]
		for i := range s {
			if s[i] != 0 {
				t.Fatal("arena words are not zero")
			}
			s[i] = 1
		}
		p := uintptr(unsafe.Pointer(&s[0]))
		if seen[p] {
			t.Fatal("two allocations share memory")
		}
		seen[p] = true
	}
	rest := n - len(got)*each
	if s := a.alloc(rest); !inside(s) || cap(s) != rest {
		t.Fatalf("the last %d words should still fit", rest)
	}
	if s := a.alloc(1); inside(s) || cap(s) != 1 {
		t.Fatal("a full arena must fall back to the heap")
	}
	var none *wordArena
	if s := none.alloc(3); cap(s) != 3 {
		t.Fatal("a nil arena allocates from the heap")
	}
	none.release()
}
