package hatetris

import (
	"math/rand/v2"
	"testing"
)

// randomWell builds a well whose stack is contiguous from the floor, with
// rows random but never full, up to height h below the bar.
func randomWell(rng *rand.Rand, r *Rules, h int) Well {
	var w Well
	for y := r.Depth - 1; y >= r.Depth-h; y-- {
		v := uint16(rng.IntN(int(r.full)) + 1)
		if v == r.full {
			v ^= r.Bit(rng.IntN(r.Width))
		}
		// Nearly full rows make line clears likely.
		if rng.IntN(3) == 0 {
			v = r.full ^ r.Bit(rng.IntN(r.Width))
		}
		w[y] = v
	}
	return w
}

// matchNaive fails t unless the generator's outcomes of p in w are the
// game's own breadth-first search's, outcome for outcome (both sorted);
// it returns the naive ones.
func matchNaive(t *testing.T, g *Generator, r *Rules, w *Well, p Piece) []Outcome {
	t.Helper()
	fast := g.Outcomes(w, p, nil)
	naive := r.NaiveOutcomes(w, p)
	SortOutcomes(r, fast)
	SortOutcomes(r, naive)
	if len(fast) != len(naive) {
		t.Fatalf("%v piece %v: %d outcomes, naive %d\n%s", r, p, len(fast), len(naive), r.Format(w))
	}
	for i := range fast {
		if !sameOutcome(&fast[i], &naive[i]) {
			t.Fatalf("%v piece %v: outcome %d differs\n%s", r, p, i, r.Format(w))
		}
	}
	return naive
}

// TestFastMatchesNaive compares the waveform generator with the game's own
// breadth-first search on random wells of every width, for every piece:
// outcomes, lines, game over, the AI value and the AI's choice.
func TestFastMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for width := MinWidth; width <= MaxWidth; width++ {
		for _, depth := range []int{6, 9, 14, 20} {
			r, err := NewRules(width, depth, 4)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGenerator(r)
			for trial := 0; trial < 60; trial++ {
				w := randomWell(rng, r, rng.IntN(depth-4)+1)
				var naiveValue [NumPieces]int
				for p := Piece(0); p < NumPieces; p++ {
					naive := matchNaive(t, g, r, &w, p)
					naiveValue[p] = -1
					for i := range naive {
						naiveValue[p] = max(naiveValue[p], r.Peak(&naive[i].Well))
					}
					if v := g.Value(&w, p); v != naiveValue[p] {
						t.Fatalf("%v piece %v: value %d, naive %d\n%s", r, p, v, naiveValue[p], r.Format(&w))
					}
				}
				rk := Ranking{Peak: naiveValue}
				if got := g.Choose(&w, Mild, nil); got != rk.Best() {
					t.Fatalf("%v: Mild chooses %v, naive %v", r, got, rk.Best())
				}
				p, res := g.Move(&w, Mild, nil, nil)
				if p != rk.Best() || len(res) != len(g.Outcomes(&w, p, nil)) {
					t.Fatalf("%v: Move disagrees with Choose+Results", r)
				}
			}
		}
	}
}

// TestClearAboveBar checks the variant rule against the naive search too.
func TestClearAboveBar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r, err := NewRulesClearAboveBar(10, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(r)
	overs := 0
	for trial := 0; trial < 300; trial++ {
		w := randomWell(rng, r, 6)
		for p := Piece(0); p < NumPieces; p++ {
			fast := g.Outcomes(&w, p, nil)
			naive := r.NaiveOutcomes(&w, p)
			SortOutcomes(r, fast)
			SortOutcomes(r, naive)
			if len(fast) != len(naive) {
				t.Fatalf("piece %v: %d results, naive %d", p, len(fast), len(naive))
			}
			for i := range fast {
				if !sameOutcome(&fast[i], &naive[i]) {
					t.Fatalf("piece %v result %d differs", p, i)
				}
				if fast[i].Lines > 0 && r.Peak(&w)-4 < 4 {
					overs++
				}
			}
		}
	}
	if overs == 0 {
		t.Fatal("no line clear near the bar was exercised")
	}
}

// TestDropReachesIsSound checks the Mild choice's shortcut: whenever a
// straight drop is said to reach top row v, the piece's exact value is at
// least v; and the test must say so often on ordinary wells, and must
// agree with a cell-by-cell drop of every slot.
func TestDropReachesIsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for width := MinWidth; width <= MaxWidth; width++ {
		r, err := NewRules(width, 12, 4)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGenerator(r)
		yes := 0
		for trial := 0; trial < 200; trial++ {
			w := randomWell(rng, r, rng.IntN(8)+1)
			for p := Piece(0); p < NumPieces; p++ {
				value := g.Value(&w, p)
				g.load(&w)
				g.loadOpen()
				best := naiveDropTop(r, &w, p)
				for v := max(0, g.top-6); v <= g.top; v++ {
					got := g.dropReaches(&r.pieces[p], v)
					if got != (best >= v) {
						t.Fatalf("%v piece %v v %d: dropReaches %v, cell-by-cell drop reaches top row %d\n%s", r, p, v, got, best, r.Format(&w))
					}
					if got && value < v {
						t.Fatalf("%v piece %v: drop reaches %d but the value is %d\n%s", r, p, v, value, r.Format(&w))
					}
					if got {
						yes++
					}
				}
			}
		}
		if yes == 0 {
			t.Fatalf("%v: the drop test never succeeded", r)
		}
	}
}

// naiveDropTop drops every orientation and column straight down from the
// empty rows, cell by cell, and returns the deepest top row reached.
func naiveDropTop(r *Rules, w *Well, p Piece) int {
	best := -1 << 30
	for o := 0; o < 4; o++ {
		for x := -3; x < r.Width; x++ {
			cells := PieceCells(p, o)
			inside := true
			for _, c := range cells {
				if x+c[0] < 0 || x+c[0] >= r.Width {
					inside = false
				}
			}
			if !inside {
				continue
			}
			fits := func(y int) bool {
				for _, c := range cells {
					row := y + c[1]
					if row >= r.Depth || row >= 0 && r.Filled(w, x+c[0], row) {
						return false
					}
				}
				return true
			}
			y := -8
			for fits(y + 1) {
				y++
			}
			_, _, minR, _ := boxExtent(p, o)
			best = max(best, y+minR)
		}
	}
	return best
}

// TestWidth4EmptyRowClears: at width 4 an I laid in an empty row above
// the stack completes it, so empty rows count as nearly full there.
func TestWidth4EmptyRowClears(t *testing.T) {
	r, err := NewRules(4, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(r)
	for _, bottom := range []uint16{0b1001, 0b0110, 0b1011, 0b0001} {
		var w Well
		w[7] = bottom
		for p := Piece(0); p < NumPieces; p++ {
			naive := -1
			for _, res := range r.NaiveOutcomes(&w, p) {
				naive = max(naive, r.Peak(&res.Well))
			}
			if v := g.Value(&w, p); v != naive {
				t.Errorf("bottom row %04b piece %v: value %d, naive %d", bottom, p, v, naive)
			}
		}
	}
}

// TestClearingOutcomesFilterOutcomes: ClearingOutcomes is Outcomes without
// the outcomes that clear no line, in the same order, on random wells of
// every width and depth (line clears made likely), for every piece, and
// appends after what dst holds.
func TestClearingOutcomesFilterOutcomes(t *testing.T) {
	clearing := 0
	forRandomWells(t, 11, 60, func(r *Rules, g *Generator, w Well) {
		for p := Piece(0); p < NumPieces; p++ {
			var want []Outcome
			for _, res := range g.Outcomes(&w, p, nil) {
				if res.Lines > 0 {
					want = append(want, res)
				}
			}
			prefix := []Outcome{{Lines: -7}}
			got := g.ClearingOutcomes(&w, p, prefix)
			if got[0].Lines != -7 || len(got)-1 != len(want) {
				t.Fatalf("%v piece %v: %d clearing outcomes (prefix kept: %v), want %d\n%s", r, p, len(got)-1, got[0].Lines == -7, len(want), r.Format(&w))
			}
			for i := range want {
				if got[i+1] != want[i] {
					t.Fatalf("%v piece %v: clearing outcome %d differs\n%s", r, p, i, r.Format(&w))
				}
			}
			clearing += len(want)
		}
	})
	if clearing < 1000 {
		t.Fatalf("only %d clearing outcomes checked", clearing)
	}
}

// TestSingleClears: SingleClears picks the quiescence piece (the first
// whose outcomes clear at most one line, by Outcomes) and returns its
// one-line outcomes in Outcomes' order, on random wells of every width and
// depth.
func TestSingleClears(t *testing.T) {
	chained := 0
	forRandomWells(t, 13, 80, func(r *Rules, g *Generator, w Well) {
		var want []Outcome
		wantPiece := Piece(NumPieces)
		for p := Piece(0); p < NumPieces; p++ {
			most := 0
			var ones []Outcome
			for _, res := range g.Outcomes(&w, p, nil) {
				if res.GameOver {
					continue
				}
				most = max(most, res.Lines)
			}
			if most >= 2 {
				continue
			}
			if most == 1 {
				wantPiece = p
				for _, res := range g.Outcomes(&w, p, nil) {
					if res.Lines > 0 {
						ones = append(ones, res)
					}
				}
			}
			want = ones
			break
		}
		prefix := []Outcome{{Lines: -7}}
		got, p := g.SingleClears(&w, prefix)
		if got[0].Lines != -7 || len(got)-1 != len(want) {
			t.Fatalf("%v: %d single clears, want %d\n%s", r, len(got)-1, len(want), r.Format(&w))
		}
		if len(want) > 0 && p != wantPiece {
			t.Fatalf("%v: piece %v, want %v\n%s", r, p, wantPiece, r.Format(&w))
		}
		for i := range want {
			if got[i+1] != want[i] {
				t.Fatalf("%v: single clear %d differs\n%s", r, i, r.Format(&w))
			}
		}
		chained += len(want)
	})
	if chained < 200 {
		t.Fatalf("only %d single clears checked", chained)
	}
}

// forRandomWells calls fn on trials random wells (randomWell, line clears
// made likely) of every width and of depths 6, 9, 14 and 20, seeded.
func forRandomWells(t *testing.T, seed uint64, trials int, fn func(r *Rules, g *Generator, w Well)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for width := MinWidth; width <= MaxWidth; width++ {
		for _, depth := range []int{6, 9, 14, 20} {
			r, err := NewRules(width, depth, 4)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGenerator(r)
			for trial := 0; trial < trials; trial++ {
				fn(r, g, randomWell(rng, r, rng.IntN(depth-4)+1))
			}
		}
	}
}

// TestRankedMove: RankedMove gives what Rank, Ranking.Best and Outcomes
// give (the sent piece, the piece of smallest Peak, the sent piece's
// Loops, its outcomes in order) on random wells with seeded random memories: outcomes of
// random pieces seen 1 to 3 times, so that the lazy search meets pieces
// that repeat, senders that are not the first in Peak order, and wells
// where every piece repeats.
func TestRankedMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var notFirst, repeated, all, n int
	var buf, got []Outcome
	forRandomWells(t, 5, 40, func(r *Rules, g *Generator, w Well) {
		hist := NewSeen()
		hist.Add(&w)
		everyP := rng.IntN(4) == 0
		for p := Piece(0); p < NumPieces; p++ {
			if !everyP && rng.IntN(3) != 0 {
				continue
			}
			buf = g.Outcomes(&w, p, buf[:0])
			if len(buf) == 0 {
				continue
			}
			x := &buf[rng.IntN(len(buf))].Well
			for k := rng.IntN(3); k >= 0; k-- {
				hist.Add(x)
			}
		}
		rk := g.Rank(&w, hist)
		want := rk.Best()
		wantOut := g.Outcomes(&w, want, nil)
		sent, mildGot, loops, out := g.RankedMove(&w, hist, got[:0])
		got = out
		mild := Piece(0)
		for p := Piece(1); p < NumPieces; p++ {
			if rk.Peak[p] < rk.Peak[mild] {
				mild = p
			}
		}
		if sent != want || mildGot != mild || loops != rk.Loops[want] {
			t.Fatalf("%v: RankedMove sent %v mild %v loops %d; Rank: %v mild %v peak %v loops %v\n%s", r, sent, mildGot, loops, want, mild, rk.Peak, rk.Loops, r.Format(&w))
		}
		if len(out) != len(wantOut) {
			t.Fatalf("%v: %d outcomes, want %d\n%s", r, len(out), len(wantOut), r.Format(&w))
		}
		for i := range out {
			if out[i] != wantOut[i] {
				t.Fatalf("%v: outcome %d differs\n%s", r, i, r.Format(&w))
			}
		}
		allRepeat := true
		for p := Piece(0); p < NumPieces; p++ {
			allRepeat = allRepeat && rk.Loops[p] > 0
		}
		n++
		if sent != mild {
			notFirst++
		}
		if rk.Loops[mild] > 0 {
			repeated++
		}
		if allRepeat {
			all++
		}
	})
	t.Logf("%d wells: %d sent another piece than the first in Peak order, %d with that piece repeating, %d every piece repeating", n, notFirst, repeated, all)
	if notFirst == 0 || repeated == 0 || all == 0 {
		t.Fatalf("cases not covered: %d not first, %d repeated, %d all repeat", notFirst, repeated, all)
	}
}
