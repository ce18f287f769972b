package arena

import (
	"context"
	"os"
)

// The functions below serve a runner that plays a match's games
// elsewhere, one game at a time on other machines (dist/beamrun's Arena):
// each is what Run does for one of its stages, so such a runner plays the
// same games and writes the same file.

// Header returns the header line of m's match file.
func (m *Match) Header() Header { return m.header() }

// Play plays one game, arm on start (indexes into m.Arms and
// m.Suite.Starts): the game Run plays for them, its seconds aside.
func (m *Match) Play(ctx context.Context, arm, start int) (Game, error) {
	return m.play(ctx, arm, start)
}

// OpenOut opens (or creates) m's match file m.Out as Run does, and returns
// the games it holds and the file, positioned for AppendGame.
func (m *Match) OpenOut() ([]Game, *os.File, error) {
	return openMatchFile(m.Out, m.header(), m.Arms)
}

// AppendGame appends one game line to a match file from OpenOut and syncs
// it, as Run does after every game.
func AppendGame(f *os.File, g Game) error { return appendGame(f, g) }

// Tally returns the standings of games (of m's match, in any order) as
// Run computes them.
func (m *Match) Tally(games []Game) *Standings {
	st := m.newStandings()
	for _, g := range games {
		st.add(g)
	}
	return st
}
