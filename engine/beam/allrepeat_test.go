package beam

import (
	"math/rand/v2"
	"testing"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// TestAllPiecesRepeat: when every piece leads back to wells of the path
// (rule 1 of the loop rule: the AI sends the piece whose worst repeat was
// seen least often, then the tallest stack, then S Z O I L J T), the
// beam's expansion sends the real AI's piece. Real games never seem to get
// there, so the histories are made up: every outcome of every piece of
// wells from the 86-point record is put on the path 1 to 3 times (seeded),
// and the answer is compared with the game's own AI on the same memory.
func TestAllPiecesRepeat(t *testing.T) {
	all, err := records.All()
	if err != nil {
		t.Fatal(err)
	}
	var keys string
	for _, rec := range all {
		if rec.Name == "David & Felipe (1)" && rec.Primary {
			keys, _, err = replaycodec.DecodeAuto(rec.Replay)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, keys)
	if err != nil {
		t.Fatal(err)
	}
	gen := hatetris.NewGenerator(r)
	e := expander{g: hatetris.NewGenerator(r)}
	rng := rand.New(rand.NewPCG(1, 2))
	repeats := 0
	for n, st := range g.Steps {
		w := st.Before
		seen := hatetris.NewSeen()
		seen.Add(&w)
		e.hist.reset(r, cellsOf(&w))
		for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
			for _, res := range gen.Outcomes(&w, p, nil) {
				if res.GameOver || rng.IntN(4) == 0 && p != hatetris.T {
					continue // leave some outcomes unseen, except T's
				}
				for k := rng.IntN(3); k >= 0; k-- {
					seen.Add(&res.Well)
					e.hist.hashes = append(e.hist.hashes, hashWell(&res.Well))
				}
			}
		}
		want := gen.Choose(&w, hatetris.HATETRIS, seen)
		sent, _, _ := e.expand(&w)
		if sent != want {
			t.Fatalf("piece %d: beam sends %v, the game's AI %v", n, sent, want)
		}
		if e.allRepeat {
			repeats++
		}
	}
	if repeats == 0 {
		t.Fatal("no well where every piece repeats")
	}
	t.Logf("%d of %d wells with every piece repeating", repeats, len(g.Steps))
}
