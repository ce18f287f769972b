package bfs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestBlocksMatchSearch runs a search level by level from the building
// blocks (blocks of one partition expanded apart, partitions deduplicated
// apart) and checks its levels and level files against Search's.
func TestBlocksMatchSearch(t *testing.T) {
	for _, tc := range []struct{ w, h int }{{5, 4}, {5, 5}, {6, 5}} {
		opt := Options{Width: tc.w, Height: tc.h, Rule: RuleQntm, Workers: 2, LevelDir: t.TempDir(), LoopWells: -1}
		res, err := Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := NewSpace(opt)
		if err != nil {
			t.Fatal(err)
		}
		P := sp.Parts()
		cur := make([][]uint64, P)
		p0, w0 := sp.Start()
		cur[p0] = []uint64{w0}
		for d := 0; ; d++ {
			var n int64
			counts := make([]int64, P)
			for p := range cur {
				counts[p] = int64(len(cur[p]))
				n += counts[p]
			}
			if n == 0 {
				if d != len(res.Levels) {
					t.Fatalf("%dx%d: %d levels, Search %d", tc.w, tc.h, d, len(res.Levels))
				}
				break
			}
			var buf bytes.Buffer
			if _, err := WriteLevelFile(&buf, counts, func(p int) ([]uint64, error) { return cur[p], nil }); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(opt.LevelDir, LevelFileName(d)))
			if err != nil || !bytes.Equal(want, buf.Bytes()) {
				t.Fatalf("%dx%d level %d: file differs (%v)", tc.w, tc.h, d, err)
			}
			if d >= len(res.Levels) || res.Levels[d].States != n {
				t.Fatalf("%dx%d level %d: %d states", tc.w, tc.h, d, n)
			}
			// Two expanders, each given every other block of 3 states.
			ex := []*Expander{sp.NewExpander(), sp.NewExpander()}
			best, k := -1, 0
			blocks := make([][][]uint64, P)
			for p := range cur {
				for lo := 0; lo < len(cur[p]); lo += 3 {
					e := ex[k%2]
					k++
					_, b := e.Expand(d, uint32(p), cur[p][lo:min(lo+3, len(cur[p]))])
					best = max(best, b)
					for q := range P {
						if ch := e.Children(q); len(ch) > 0 {
							blocks[q] = append(blocks[q], append([]uint64(nil), ch...))
						}
					}
					e.Reset()
				}
			}
			if best != res.Levels[d].BestScore {
				t.Fatalf("%dx%d level %d: best %d, Search %d", tc.w, tc.h, d, best, res.Levels[d].BestScore)
			}
			for q := range cur {
				cur[q] = sp.DedupPartition(blocks[q])
			}
		}
	}
}
