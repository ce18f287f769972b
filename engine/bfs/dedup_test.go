package bfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDedupMerge checks the deduplication of one partition directly
// against sort and unique: keys with duplicates within and across three
// workers, in four partitions (the partition bits are the top 8 of a
// word, as the codec gives them), in an arena or on the heap, including
// the zero word, a million copies of one key, and keys clustered where the
// hash table overflows (the plain-sort fallback).
func TestDedupMerge(t *testing.T) {
	const wordPart = 8
	const parts = 4
	rng := rand.New(rand.NewPCG(7, 11))
	// Keys of partition p: the partition number in the top 8 bits.
	inPart := func(p int, x uint64) uint64 { return uint64(p)<<(64-wordPart) | x>>wordPart }
	// random gives n keys drawn from distinct ones (0: all drawn afresh).
	random := func(n, distinct int) func(p int) []uint64 {
		return func(p int) []uint64 {
			keys := make([]uint64, n)
			if distinct == 0 {
				for i := range keys {
					keys[i] = inPart(p, rng.Uint64())
				}
				return keys
			}
			pool := make([]uint64, distinct)
			for i := range pool {
				pool[i] = inPart(p, rng.Uint64())
			}
			for i := range keys {
				keys[i] = pool[rng.IntN(len(pool))]
			}
			return keys
		}
	}
	for _, tc := range []struct {
		name string
		keys func(p int) []uint64
	}{
		{"empty", func(int) []uint64 { return nil }},
		{"one key", func(p int) []uint64 { return []uint64{inPart(p, 12345<<20)} }},
		{"one key twice", func(p int) []uint64 { return []uint64{inPart(p, 99<<30), inPart(p, 99<<30)} }},
		{"all distinct", random(5000, 0)},
		{"half repeats", random(40000, 20000)},
		{"many repeats", random(50000, 100)},
		{"a million copies of one key", random(1<<20, 1)},
		{"the zero word", func(p int) []uint64 {
			keys := random(300, 100)(p)
			if p == 0 {
				keys = append(keys, 0, 0, 0)
			}
			return keys
		}},
		{"clustered: the table overflows", func(p int) []uint64 {
			var keys []uint64
			for i := range 3000 {
				k := uint64(p)<<(64-wordPart) | (uint64(1)<<(64-wordPart) - 1 - uint64(i%2000))
				keys = append(keys, k)
			}
			return keys
		}},
	} {
		for _, inArena := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/arena=%v", tc.name, inArena), func(t *testing.T) {
				workers := make([]*worker, 3)
				for i := range workers {
					workers[i] = &worker{id: i, out: newPartArray[[]uint64](parts), spilled: newPartArray[int64](parts)}
				}
				want := make([][]uint64, parts)
				total := 0
				for p := range parts {
					keys := tc.keys(p)
					total += len(keys)
					for _, k := range keys {
						w := workers[rng.IntN(len(workers))]
						*w.out.ref(p) = append(w.out.at(p), k)
					}
					want[p] = slices.Compact(slices.Sorted(slices.Values(keys)))
				}
				var arena *wordArena
				if inArena {
					arena = newWordArena(total + parts)
					defer arena.release()
				}
				var d deduper
				for p := range parts {
					got, err := d.merge(workers, p, wordPart, arena)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want[p]) && !(len(got) == 0 && len(want[p]) == 0) {
						t.Fatalf("partition %d: %d keys, want %d (sort and unique)", p, len(got), len(want[p]))
					}
					for _, w := range workers {
						if len(w.out.at(p)) != 0 {
							t.Fatalf("partition %d: worker %d's buffer not emptied", p, w.id)
						}
					}
				}
			})
		}
	}
}

// TestInsertionSort: the finishing sort of the deduplication, on almost
// sorted, reversed and random slices.
func TestInsertionSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, tc := range []struct {
		name string
		a    []uint64
	}{
		{"empty", nil},
		{"one", []uint64{7}},
		{"reversed", []uint64{5, 4, 3, 2, 1}},
		{"almost sorted", []uint64{1, 2, 4, 3, 5, 7, 6, 8}},
		{"random", func() []uint64 {
			a := make([]uint64, 1000)
			for i := range a {
				a[i] = rng.Uint64()
			}
			return a
		}()},
	} {
		want := slices.Sorted(slices.Values(tc.a))
		insertionSort(tc.a)
		if !slices.Equal(tc.a, want) {
			t.Errorf("%s: %v", tc.name, tc.a)
		}
	}
}
