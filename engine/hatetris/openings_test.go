package hatetris

import (
	"slices"
	"testing"
)

// TestOpenings: openings are the same for the same seed and differ across
// seeds; the first n of a longer list are the n; each opening's placements
// lead from the empty well through its spawns to its well and score, each
// the AI's own choice for the spawn with the memory before it.
func TestOpenings(t *testing.T) {
	r := Standard()
	a, b := Openings(r, 12, 8, 1), Openings(r, 20, 8, 1)
	other := Openings(r, 12, 8, 2)
	same := 0
	for i := range a {
		if a[i].Well != b[i].Well || a[i].Score != b[i].Score || !slices.Equal(a[i].Spawns, b[i].Spawns) {
			t.Fatalf("opening %d differs between 12 and 20 openings", i)
		}
		if a[i].Well == other[i].Well {
			same++
		}
	}
	if same == len(a) {
		t.Fatal("seeds 1 and 2 give the same openings")
	}
	gen := NewGenerator(r)
	for i, o := range a {
		if len(o.Spawns) != 8 || len(o.Placed) != 8 || o.Spawns[0] != (Well{}) {
			t.Fatalf("opening %d: %d spawns, %d placements", i, len(o.Spawns), len(o.Placed))
		}
		seen := NewSeen()
		var w Well
		score := 0
		for p, sp := range o.Spawns {
			if sp != w {
				t.Fatalf("opening %d piece %d: spawned into another well", i, p)
			}
			seen.Add(&w)
			_, outs := gen.Move(&w, HATETRIS, seen, nil)
			if !slices.ContainsFunc(outs, func(x Outcome) bool { return x.Well == o.Placed[p].Well && !x.GameOver }) {
				t.Fatalf("opening %d piece %d: a placement the AI's piece does not allow", i, p)
			}
			w, score = o.Placed[p].Well, score+o.Placed[p].Lines
		}
		if w != o.Well || score != o.Score {
			t.Fatalf("opening %d: placements end at another well or score", i)
		}
	}
}
