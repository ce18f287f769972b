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
					e.hist.add(cellsOf(&res.Well), hashWell(&res.Well))
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

// TestPathHistClasses: a path memory kept by cell count (add) counts every
// well as one kept as a plain list (addMixed, the block API's) and as the
// real game's memory: the outcomes of every piece of the 86-point record's
// wells, against memories of the record's own earlier wells and of some
// of the outcomes (seeded), repeats included.
func TestPathHistClasses(t *testing.T) {
	all, err := records.All()
	if err != nil {
		t.Fatal(err)
	}
	var keys string
	for _, rec := range all {
		if rec.Name == "David & Felipe (1)" && rec.Primary {
			if keys, _, err = replaycodec.DecodeAuto(rec.Replay); err != nil {
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
	rng := rand.New(rand.NewPCG(3, 4))
	var byClass, mixed pathHist
	var plain []uint64
	hits := 0
	for n, st := range g.Steps {
		w := st.Before
		seen := hatetris.NewSeen()
		byClass.reset(r, cellsOf(&w))
		mixed.reset(r, cellsOf(&w))
		plain = plain[:0]
		remember := func(x *hatetris.Well) {
			seen.Add(x)
			byClass.add(cellsOf(x), hashWell(x))
			if byClass.wants(cellsOf(x)) {
				plain = append(plain, hashWell(x))
			}
		}
		for i := max(0, n-40); i <= n; i++ {
			remember(&g.Steps[i].Before)
		}
		var outs []hatetris.Outcome
		for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
			outs = gen.Outcomes(&w, p, outs)
		}
		for i := range outs {
			if !outs[i].GameOver && rng.IntN(5) == 0 {
				for k := rng.IntN(2); k >= 0; k-- {
					remember(&outs[i].Well)
				}
			}
		}
		mixed.addMixed(plain)
		for i := range outs {
			x := &outs[i].Well
			want := seen.Count(x)
			if a, b := byClass.Count(x), mixed.Count(x); a != want || b != want {
				t.Fatalf("piece %d outcome %d: by class %d, mixed %d, the game's memory %d", n, i, a, b, want)
			}
			hits += want
		}
	}
	if hits == 0 {
		t.Fatal("no outcome was in the memory")
	}
}
