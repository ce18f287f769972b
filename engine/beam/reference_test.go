package beam_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// refNode is a kept well of the reference beam, with the whole memory of
// the real AI along its path (as hatetris.Game keeps it).
type refNode struct {
	well  hatetris.Well
	score int
	seen  map[hatetris.Well]int
}

func (n *refNode) Count(w *hatetris.Well) int { return n.seen[*w] }

// refChild is a candidate of the next level.
type refChild struct {
	value  float64
	score  int
	well   hatetris.Well
	parent int
	move   int
}

// compareRows orders wells by their rows from the top, as the beam does.
func compareRows(r *hatetris.Rules, a, b *hatetris.Well) int {
	return slices.Compare(a[r.Bar:r.Depth], b[r.Bar:r.Depth])
}

// referenceBeam is the beam search written the obvious way: every child of
// every kept well, each valued on its own, all sorted by the documented
// order (value, score, well, parent, move), duplicates of (score, well)
// dropped after the first, the first width kept. No pools, no memo, no
// packing, no ancestry compaction. It returns the statistics the real beam
// reports per level.
func referenceBeam(t *testing.T, r *hatetris.Rules, width, maxPieces int) []beam.LevelStats {
	gen := hatetris.NewGenerator(r)
	ev := eval.NewHand(eval.DefaultWeights()).NewWorker(r)
	level := []refNode{{seen: map[hatetris.Well]int{}}}
	var out []beam.LevelStats
	for d := 0; maxPieces == 0 || d < maxPieces; d++ {
		var kids []refChild
		var nodes []refNode
		for i := range level {
			n := &level[i]
			// The spawn: the AI counts the well, then chooses (hatetris.Game).
			seen := maps.Clone(n.seen)
			seen[n.well]++
			child := refNode{seen: seen}
			_, outs := gen.Move(&n.well, hatetris.HATETRIS, &child, nil)
			nodes = append(nodes, child)
			for m, o := range outs {
				if o.GameOver {
					continue
				}
				s := n.score + o.Lines
				kids = append(kids, refChild{value: ev.Evaluate(&o.Well, s, 0), score: s, well: o.Well, parent: i, move: m})
			}
		}
		slices.SortFunc(kids, func(a, b refChild) int {
			switch {
			case a.value != b.value:
				if a.value > b.value {
					return -1
				}
				return 1
			case a.score != b.score:
				return b.score - a.score
			}
			if c := compareRows(r, &a.well, &b.well); c != 0 {
				return c
			}
			if a.parent != b.parent {
				return a.parent - b.parent
			}
			return a.move - b.move
		})
		ds := beam.LevelStats{Level: d + 1, Expanded: len(level), Children: int64(len(kids))}
		var next []refNode
		var last *refChild
		for i := range kids {
			k := &kids[i]
			if last != nil && last.score == k.score && last.well == k.well {
				continue
			}
			last = k
			if len(next) == width {
				break
			}
			if len(next) == 0 {
				ds.BestValue = k.value
			}
			ds.WorstValue = k.value
			next = append(next, refNode{well: k.well, score: k.score, seen: nodes[k.parent].seen})
		}
		ds.Kept = len(next)
		out = append(out, ds)
		if len(next) == 0 {
			break
		}
		ds.MinScore, ds.MaxScore = next[0].score, next[0].score
		for _, n := range next {
			ds.MinScore, ds.MaxScore = min(ds.MinScore, n.score), max(ds.MaxScore, n.score)
		}
		out[len(out)-1] = ds
		level = next
	}
	return out
}

// TestBeamEqualsReference runs the real beam and the reference beam on small
// wells and widths and compares every level.
func TestBeamEqualsReference(t *testing.T) {
	for _, c := range []struct{ w, d, width, max int }{
		{6, 10, 1, 0}, {6, 10, 3, 0}, {6, 10, 20, 0}, {8, 12, 7, 30}, {10, 20, 5, 25}, {10, 20, 40, 12}, {4, 10, 6, 40},
	} {
		r, err := hatetris.NewRules(c.w, c.d, 4)
		if err != nil {
			t.Fatal(err)
		}
		want := referenceBeam(t, r, c.width, c.max)
		for _, workers := range []int{1, 3} {
			res, err := beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: c.width, MaxPieces: c.max, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Levels) != len(want) {
				t.Fatalf("%dx%d width %d: %d levels, reference %d", c.w, c.d, c.width, len(res.Levels), len(want))
			}
			for i, g := range res.Levels {
				w := want[i]
				if g.Level != w.Level || g.Expanded != w.Expanded || g.Children != w.Children || g.Kept != w.Kept ||
					g.BestValue != w.BestValue || g.WorstValue != w.WorstValue || g.MinScore != w.MinScore || g.MaxScore != w.MaxScore {
					t.Fatalf("%dx%d width %d workers %d level %d:\n got %+v\nwant %+v", c.w, c.d, c.width, workers, g.Level, g, w)
				}
			}
		}
	}
}
