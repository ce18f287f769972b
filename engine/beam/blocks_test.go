package beam

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// distributed runs a beam search from the building blocks the way a
// distributed engine does: parents in blocks of size block, each block's
// children cut to the width, partitioned by KeyHash, deduplicated and cut
// per partition, then cut globally.
func distributed(t *testing.T, cfg Config, block, parts int) *Result {
	t.Helper()
	d, err := NewDriver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := NewBlockExpander(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for !d.Done() {
		byPart := make([][]Cand, parts)
		var children int64
		var loops, all int
		for lo := 0; lo < d.Len(); lo += block {
			ps := d.Parents(lo, min(lo+block, d.Len()))
			ex.Begin()
			for i := range ps {
				ex.Expand(&ps[i])
			}
			kept, c, l, a := ex.Finish()
			children += c
			loops += l
			all += a
			for _, k := range kept {
				q := KeyHash(&k) % uint64(parts)
				byPart[q] = append(byPart[q], k)
			}
		}
		var next []Cand
		for _, cs := range byPart {
			slices.SortFunc(cs, func(a, b Cand) int { return Order(&a, &b) })
			cs = slices.CompactFunc(cs, func(a, b Cand) bool { return SameKey(&a, &b) })
			next = append(next, cs[:min(len(cs), cfg.BeamWidth)]...)
		}
		slices.SortFunc(next, func(a, b Cand) int { return Order(&a, &b) })
		if _, err := d.Advance(next[:min(len(next), cfg.BeamWidth)], children, loops, all, 0); err != nil {
			t.Fatal(err)
		}
	}
	res, err := d.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestBlocksMatchRun(t *testing.T) {
	r6, _ := hatetris.NewRules(6, 12, 4)
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"10x20 w100 p40", Config{BeamWidth: 100, MaxPieces: 40}},
		{"10x20 w60 q p25", Config{BeamWidth: 60, MaxPieces: 25, Quiescence: true}},
		{"6x8 w50 to death", Config{Rules: r6, BeamWidth: 50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Run(context.Background(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := distributed(t, tc.cfg, 7, 5)
			if got.Keys != want.Keys || got.Score != want.Score || got.BestLevel != want.BestLevel || got.Children != want.Children || len(got.Levels) != len(want.Levels) {
				t.Fatalf("got score %d pieces %d, want %d %d", got.Score, got.Pieces, want.Score, want.Pieces)
			}
			for i := range got.Levels {
				g, w := got.Levels[i], want.Levels[i]
				g.Bytes, w.Bytes, g.Seconds, w.Seconds = 0, 0, 0, 0
				if !slices.Equal(g.ScoreCounts, w.ScoreCounts) {
					t.Fatalf("level %d: score counts differ", i)
				}
				g.ScoreCounts, w.ScoreCounts = nil, nil
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("level %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}
