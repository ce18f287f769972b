package hatetris

import "math/rand/v2"

// Opening is a start well reached by seeded random play from the empty
// well (Openings).
type Opening struct {
	Well  Well
	Score int
	// Spawns are the wells the pieces spawned into, oldest first: the AI's
	// memory at the opening's end. Placed are the outcomes the player
	// chose, one a piece (from Spawns[i] to Placed[i].Well).
	Spawns []Well
	Placed []Outcome
}

// Openings plays n seeded random openings of the given pieces from the
// empty well against HATETRIS (loop rule included, with each opening's
// memory), the player picking uniformly among the live outcomes; an
// opening stops early if no outcome is live. The first n openings of a
// longer list are the n openings. They are the starts of the arena's
// suites openings:N:PIECES:SEED (engine/arena), of the flats experiment
// and of the NNUE cycle's master openings.
func Openings(r *Rules, n, pieces int, seed uint64) []Opening {
	rng := rand.New(rand.NewPCG(seed, 0x6265616d))
	gen := NewGenerator(r)
	var buf []Outcome
	out := make([]Opening, 0, n)
	for range n {
		var o Opening
		seen := NewSeen()
		for range pieces {
			seen.Add(&o.Well)
			_, buf = gen.Move(&o.Well, HATETRIS, seen, buf[:0])
			live := buf[:0]
			for _, res := range buf {
				if !res.GameOver {
					live = append(live, res)
				}
			}
			if len(live) == 0 {
				break
			}
			res := live[rng.IntN(len(live))]
			o.Spawns = append(o.Spawns, o.Well)
			o.Placed = append(o.Placed, res)
			o.Well, o.Score = res.Well, o.Score+res.Lines
		}
		out = append(out, o)
	}
	return out
}
