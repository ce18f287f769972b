package flats

import (
	"context"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestRandomGames: seeded games are reproducible, their counts conserve
// flow, and a different seed plays other games.
func TestRandomGames(t *testing.T) {
	r := hatetris.Standard()
	a, err := RandomGames(r, 30, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomGames(r, 30, 1, 0)
	c, _ := RandomGames(r, 30, 2, 0)
	same := func(x, y []Game) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if len(x[i]) != len(y[i]) {
				return false
			}
			for j := range x[i] {
				if x[i][j] != y[i][j] {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) || same(a, c) {
		t.Fatal("seeded games are not reproducible, or the seed is ignored")
	}
	counts, err := CountMoves(r, a)
	if err != nil {
		t.Fatal(err)
	}
	if err := counts.Conservation(); err != nil {
		t.Fatal(err)
	}
	if err := counts.CheckDAG(); err != nil {
		t.Fatal(err)
	}
	if counts.Games != 30 || counts.Moves < 30 {
		t.Fatalf("%g games, %g moves", counts.Games, counts.Moves)
	}
}

// TestBeamGames: the beam source gives whole games that the tracker
// follows from the empty well.
func TestBeamGames(t *testing.T) {
	r, _ := hatetris.NewRules(6, 12, 4)
	games, err := BeamGames(context.Background(), r, []int{2, 4}, 2, 3, 9, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("%d games, want 4", len(games))
	}
	c, err := CountMoves(r, games)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Conservation(); err != nil {
		t.Fatal(err)
	}
}

// TestBootstrap: the interval holds the estimate, is reproducible, and a
// source compared with itself has a difference interval around 0.
func TestBootstrap(t *testing.T) {
	r := hatetris.Standard()
	games, _ := RandomGames(r, 40, 3, 0)
	recs := make([]Game, 0, 20)
	for _, g := range testRecords(t) {
		recs = append(recs, GameOf(g))
	}
	iv, err := Bootstrap(r, [][]Game{recs, games}, 30, 7, 0.9, AbsorbDiff(Empty))
	if err != nil {
		t.Fatal(err)
	}
	iv2, _ := Bootstrap(r, [][]Game{recs, games}, 30, 7, 0.9, AbsorbDiff(Empty))
	if iv != iv2 || iv.Resamples != 30 || !(iv.Lo <= iv.Estimate && iv.Estimate <= iv.Hi) {
		t.Fatalf("interval %+v (again %+v)", iv, iv2)
	}
	self, _ := Bootstrap(r, [][]Game{games, games}, 30, 7, 0.9, AbsorbDiff(Empty))
	if self.Estimate != 0 || self.Lo > 0 || self.Hi < 0 {
		t.Fatalf("self-difference %+v", self)
	}
	t.Logf("B(empty) records - random: %+v", iv)
}
