package flats

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// FloorResult answers whether the floor row of a start well can be
// cleared (D&F's "line-height-removal-required"), exactly, under HATETRIS
// Mild (equal to HATETRIS in wells where no well repeats).
type FloorResult struct {
	Width, Height int
	// Clearable tells whether some game clears the floor row; Pieces is
	// then the fewest pieces that do it (the clearing piece included).
	Clearable bool
	Pieces    int
	// Wells is the number of distinct wells explored.
	Wells int
}

// FloorClear searches breadth-first from start (nil: the empty well, whose
// floor row is the first one laid there) in a width x height well (height
// rows below the bar), stopping at the first level with a move that
// clears the floor row, and failing past maxWells wells.
func FloorClear(width, height int, start *hatetris.Well, maxWells int) (FloorResult, error) {
	r, err := bfs.NewRules(width, height, bfs.RuleQntm)
	if err != nil {
		return FloorResult{}, err
	}
	var s hatetris.Well
	if start != nil {
		s = *start
	}
	if r.IsOver(&s) {
		return FloorResult{}, fmt.Errorf("flats: the start well has blocks above the bar")
	}
	out := FloorResult{Width: width, Height: height}
	floor := r.Depth - 1
	seen := map[hatetris.Well]struct{}{s: {}}
	level := []hatetris.Well{s}
	gen := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for pieces := 1; len(level) > 0; pieces++ {
		var next []hatetris.Well
		for i := range level {
			_, buf = gen.Move(&level[i], hatetris.Mild, nil, buf[:0])
			for k := range buf {
				res := &buf[k]
				if res.GameOver {
					continue
				}
				p := &res.Placed
				if res.Lines > 0 && floor-p.Y < 4 && p.Cells[floor-p.Y] != 0 && level[i][floor]|p.Cells[floor-p.Y] == r.FullRow() {
					out.Clearable, out.Pieces, out.Wells = true, pieces, len(seen)
					return out, nil
				}
				if _, ok := seen[res.Well]; ok {
					continue
				}
				if len(seen) >= maxWells {
					return out, fmt.Errorf("flats: more than %d wells", maxWells)
				}
				seen[res.Well] = struct{}{}
				next = append(next, res.Well)
			}
		}
		level = next
	}
	out.Wells = len(seen)
	return out, nil
}

// LoneFloorRow returns the well of the given width and height whose only
// filled row is the floor row, shape row.
func LoneFloorRow(width, height int, row uint16) (hatetris.Well, error) {
	var w hatetris.Well
	r, err := bfs.NewRules(width, height, bfs.RuleQntm)
	if err != nil {
		return w, err
	}
	if row == 0 || row >= r.FullRow() {
		return w, fmt.Errorf("flats: floor row %d: want a non-empty, non-full %d-wide row", row, width)
	}
	w[r.Depth-1] = row
	return w, nil
}

// MinClearHeight returns the smallest height from minHeight to maxHeight
// at which a lone floor row of the given shape can be cleared, with the
// fewest pieces there (height 0 if none can).
func MinClearHeight(width int, row uint16, minHeight, maxHeight, maxWells int) (FloorResult, error) {
	var last FloorResult
	for h := minHeight; h <= maxHeight; h++ {
		w, err := LoneFloorRow(width, h, row)
		if err != nil {
			return FloorResult{}, err
		}
		res, err := FloorClear(width, h, &w, maxWells)
		if err != nil {
			return FloorResult{}, err
		}
		if res.Clearable {
			return res, nil
		}
		last = res
	}
	last.Height = 0
	return last, nil
}
