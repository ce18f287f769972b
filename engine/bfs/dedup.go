package bfs

import (
	"math/bits"
	"slices"
)

// deduper turns the unsorted, duplicated children of one partition into a
// sorted set. It inserts them into an open-addressing table indexed by the
// word's leading bits (below the partition bits), so the occupied slots are
// already almost in key order; reading them out and finishing with an
// insertion sort costs little more than the insertions.
type deduper struct {
	table []uint64
}

const probeSlack = 1024

func (d *deduper) merge(workers []*worker, p int, wordPart uint) []uint64 {
	n := 0
	for _, w := range workers {
		n += len(w.out[p])
	}
	if n == 0 {
		return nil
	}
	tb := uint(bits.Len(uint(2*n - 1))) // table of 2^tb >= 2n slots
	size := 1 << tb
	if cap(d.table) < size+probeSlack {
		d.table = make([]uint64, size+probeSlack)
	}
	t := d.table[:size+probeSlack]
	clear(t)
	hasZero := false
	uniq := 0
	overflow := false
	for _, w := range workers {
		for _, x := range w.out[p] {
			if x == 0 {
				if !hasZero {
					hasZero = true
					uniq++
				}
				continue
			}
			i := int((x << wordPart) >> (64 - tb))
			if tb == 0 {
				i = 0
			}
			for t[i] != 0 && t[i] != x {
				i++
				if i == len(t) {
					overflow = true
					break
				}
			}
			if overflow {
				break
			}
			if t[i] == 0 {
				t[i] = x
				uniq++
			}
		}
		if overflow {
			break
		}
	}
	var out []uint64
	if overflow {
		// Pathological clustering: plain sort and compact.
		out = make([]uint64, 0, n)
		for _, w := range workers {
			out = append(out, w.out[p]...)
		}
		slices.Sort(out)
		out = slices.Clip(slices.Compact(out))
	} else {
		out = make([]uint64, 0, uniq)
		if hasZero {
			out = append(out, 0)
		}
		for _, x := range t {
			if x != 0 {
				out = append(out, x)
			}
		}
		insertionSort(out)
	}
	for _, w := range workers {
		w.out[p] = w.out[p][:0]
	}
	return out
}

// insertionSort sorts an almost sorted slice.
func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		if a[i-1] <= x {
			continue
		}
		j := i - 1
		for j >= 0 && a[j] > x {
			a[j+1] = a[j]
			j--
		}
		a[j+1] = x
	}
}
