package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// recordWells returns every well (spawn wells and the last) of the primary
// record replays on the standard well (all of them with -short off; the
// games under 1,000 lines with it).
func recordWells(t testing.TB) []hatetris.Well {
	t.Helper()
	all, err := records.All()
	if err != nil {
		t.Fatal(err)
	}
	r := hatetris.Standard()
	var out []hatetris.Well
	for _, rec := range all {
		if !rec.Primary || rec.AI != "HATETRIS" {
			continue
		}
		if testing.Short() && rec.Score > 1000 {
			continue
		}
		keys, _, err := replaycodec.DecodeAuto(rec.Replay)
		if err != nil {
			t.Fatal(rec.Name, err)
		}
		g, err := hatetris.Play(r, hatetris.HATETRIS, keys)
		if err != nil {
			t.Fatal(rec.Name, err)
		}
		for _, s := range g.Steps {
			out = append(out, s.Before)
		}
		out = append(out, g.Well)
	}
	return out
}

// randomGames plays seeded random games (a uniformly random outcome of the
// AI's piece each move, a new game at game over) and returns n live wells.
func randomGames(r *hatetris.Rules, seed uint64, n int) []hatetris.Well {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := hatetris.NewGenerator(r)
	var out []hatetris.Well
	var buf []hatetris.Outcome
	w := hatetris.Well{}
	for len(out) < n {
		out = append(out, w)
		_, buf = g.Move(&w, hatetris.Mild, nil, buf[:0])
		live := buf[:0]
		for _, res := range buf {
			if !res.GameOver {
				live = append(live, res)
			}
		}
		if len(live) == 0 {
			w = hatetris.Well{}
			continue
		}
		w = live[rng.IntN(len(live))].Well
	}
	return out
}

// randomNetwork returns a network with seeded weights uniform in
// [-w1max, w1max] (first layer) and [-1, 1] (the rest).
func randomNetwork(t testing.TB, fs *FeatureSet, hidden int, act Activation, w1max float64, seed uint64) *Network {
	t.Helper()
	n, err := NewNetwork(fs, hidden, act)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	for i := range n.W1 {
		n.W1[i] = float32((2*rng.Float64() - 1) * w1max)
	}
	for j := range n.B1 {
		n.B1[j] = float32(2*rng.Float64() - 1)
		n.W2[j] = float32(2*rng.Float64() - 1)
	}
	n.B2 = float32(2*rng.Float64() - 1)
	return n
}

// below returns the rows below the bar of w.
func below(r *hatetris.Rules, w *hatetris.Well) []uint16 { return w[r.Bar:r.Depth] }

// children returns the live outcomes of every piece in w.
func children(g *hatetris.Generator, w *hatetris.Well, buf []hatetris.Outcome) []hatetris.Outcome {
	buf = buf[:0]
	for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
		n := len(buf)
		buf = g.Outcomes(w, p, buf)
		live := buf[:n]
		for _, res := range buf[n:] {
			if !res.GameOver {
				live = append(live, res)
			}
		}
		buf = live
	}
	return buf
}
