package classic

// Result is the outcome of one game.
type Result struct {
	Rows, Cols int
	Seed       int64
	Agent      string
	// Pieces counts locked pieces (the piece that could not be placed is
	// not counted); Lines counts cleared lines.
	Pieces, Lines int64
}

// Game is a game in progress.
type Game struct {
	Board  Board
	Stream Pieces
	Agent  Agent
	// Pieces and Lines so far; Over once a piece had no legal placement.
	Pieces, Lines int64
	Over          bool
	// Last is the last piece drawn and LastMove where it went (when not Over).
	Last     Piece
	LastMove Move
}

// NewGame starts a game of seed on r played by a.
func NewGame(r *Rules, a Agent, seed int64) *Game {
	return &Game{Board: NewBoard(r), Stream: NewPieces(seed), Agent: a}
}

// Step plays one piece and reports whether the game goes on.
func (g *Game) Step() bool {
	if g.Over {
		return false
	}
	p := g.Stream.Next()
	g.Last = p
	c, y := g.Agent.Choose(&g.Board, p)
	if c == nil {
		g.Over = true
		return false
	}
	g.LastMove = c.Move
	g.Lines += int64(g.Board.Apply(c, y))
	g.Pieces++
	return true
}

// Play runs a whole game of seed (or stops after maxPieces pieces when
// maxPieces > 0) and returns its result.
func Play(r *Rules, a Agent, seed int64, maxPieces int64) Result {
	b := NewBoard(r)
	st := NewPieces(seed)
	var pieces, lines int64
	for maxPieces <= 0 || pieces < maxPieces {
		c, y := a.Choose(&b, st.Next())
		if c == nil {
			break
		}
		lines += int64(b.Apply(c, y))
		pieces++
	}
	return Result{Rows: r.Rows, Cols: r.Cols, Seed: seed, Agent: a.Name(), Pieces: pieces, Lines: lines}
}
