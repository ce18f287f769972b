package flats

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// Game is one game as its moves, from the empty well; the game ends after
// the last move (a censored game ends there too).
type Game []Move

// GameOf returns the moves of a replayed game (from the empty well).
func GameOf(g *hatetris.Game) Game {
	out := make(Game, 0, len(g.Steps))
	for i := range g.Steps {
		m, ok := FromStep(g.Rules, &g.Steps[i])
		if !ok {
			break
		}
		out = append(out, m)
	}
	return out
}

// CountMoves counts games of rules r, pathwise shares included.
func CountMoves(r *hatetris.Rules, games []Game) (*Counts, error) {
	k, err := NewCounter(r)
	if err != nil {
		return nil, err
	}
	for i, g := range games {
		k.Start()
		for j := range g {
			if err := k.Move(&g[j]); err != nil {
				return nil, fmt.Errorf("game %d move %d: %w", i, j, err)
			}
		}
		if err := k.End(); err != nil {
			return nil, err
		}
	}
	return k.Counts, nil
}

// RandomGames plays n games from the empty well against HATETRIS (loop
// rule included, with each game's memory), the player picking uniformly
// among the distinct outcomes of each piece (game-ending ones included),
// seeded. A game stops at game over or after maxPieces pieces (0: no
// limit; a stopped game is censored).
func RandomGames(r *hatetris.Rules, n int, seed uint64, maxPieces int) ([]Game, error) {
	if n < 0 {
		return nil, fmt.Errorf("flats: %d games", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x666c617473))
	gen := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	out := make([]Game, 0, n)
	for i := 0; i < n; i++ {
		var g Game
		w := hatetris.Well{}
		seen := hatetris.NewSeen()
		for pieces := 0; maxPieces <= 0 || pieces < maxPieces; pieces++ {
			seen.Add(&w)
			_, buf = gen.Move(&w, hatetris.HATETRIS, seen, buf[:0])
			if len(buf) == 0 {
				break
			}
			res := &buf[rng.IntN(len(buf))]
			if res.GameOver {
				break
			}
			m, err := FromOutcome(r, &w, res)
			if err != nil {
				return nil, err
			}
			g = append(g, m)
			w = res.Well
		}
		out = append(out, g)
	}
	return out, nil
}

// BeamGames plays, for each of starts seeded random openings of opening
// pieces (as RandomGames plays them, live outcomes only) and each beam
// width, the best game of a beam search from the opening's well (default
// evaluation, quiescence as asked), and returns the whole games (opening
// then beam game) from the empty well. The beam search itself is
// unchanged: only its best game is replayed.
func BeamGames(ctx context.Context, r *hatetris.Rules, widths []int, starts, opening int, seed uint64, quiescence bool) ([]Game, error) {
	opens, err := Openings(r, starts, opening, seed)
	if err != nil {
		return nil, err
	}
	var out []Game
	for _, o := range opens {
		for _, width := range widths {
			start := o.Well
			res, err := beam.Run(ctx, beam.Config{Rules: r, BeamWidth: width, Quiescence: quiescence, Start: &start, StartScore: o.Score, Workers: 1})
			if err != nil {
				return nil, err
			}
			g := hatetris.NewGameFrom(r, hatetris.HATETRIS, start, o.Score)
			if err := g.PressAll(res.Keys); err != nil {
				return nil, err
			}
			game := append(Game(nil), o.Moves...)
			game = append(game, GameOf(g)...)
			out = append(out, game)
		}
	}
	return out, nil
}

// Opening is a start well of seeded random play.
type Opening struct {
	Well  hatetris.Well
	Score int
	Moves Game
}

// Openings are hatetris.Openings (n seeded random openings of the given
// pieces from the empty well against HATETRIS, the player picking
// uniformly among the live outcomes) with their placements as moves.
// BeamGames starts its searches from these openings.
func Openings(r *hatetris.Rules, n, pieces int, seed uint64) ([]Opening, error) {
	opens := hatetris.Openings(r, n, pieces, seed)
	out := make([]Opening, len(opens))
	for i, o := range opens {
		out[i] = Opening{Well: o.Well, Score: o.Score}
		for p := range o.Placed {
			m, err := FromOutcome(r, &o.Spawns[p], &o.Placed[p])
			if err != nil {
				return nil, err
			}
			out[i].Moves = append(out[i].Moves, m)
		}
	}
	return out, nil
}
