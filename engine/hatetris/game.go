package hatetris

import "fmt"

// Step records one placed piece of a game.
type Step struct {
	Before    Well     // the well the piece spawned into
	Score     int      // score before the piece
	Piece     Piece    // the piece the AI sent
	MildPiece Piece    // the piece HATETRIS Mild would have sent
	Lock      Position // where it locked
	Lines     int      // lines it cleared
	// Placed holds the locked piece's cells before any line cleared
	// (Outcome.Placed), GameOver whether the lock ended the game: what
	// the lock reported, kept so that nothing has to lock it again.
	Placed   Placement
	GameOver bool
}

// LoopChange is a spawn where the loop rule changed the AI's piece.
type LoopChange struct {
	Index      int   // piece number, from 0
	Mild, Sent Piece // what Mild would have sent, what HATETRIS sent
}

// Game is a game in progress, driven key by key like the real one.
type Game struct {
	Rules *Rules
	AI    AI
	Well  Well
	Score int
	Over  bool
	// Pieces lists every spawned piece; while the game runs the last one
	// is the live piece.
	Pieces []Piece
	// Live is the live piece's position (meaningless once Over).
	Live Position
	// KeysUsed counts the keys consumed; keys after game over are ignored.
	KeysUsed int
	// Steps has one entry per locked piece.
	Steps []Step
	// LoopChanges lists the spawns where the loop rule decided.
	LoopChanges []LoopChange
	// Seen is the AI's memory of spawn wells (HATETRIS only).
	Seen *Seen

	gen  *Generator
	mild Piece
	// Brzustowski's and Burgiel's state.
	step      int
	display   Piece
	stepWells []Well
}

// NewGame starts a game on an empty well: the AI picks the first piece.
func NewGame(r *Rules, ai AI) *Game {
	return NewGameFrom(r, ai, Well{}, 0)
}

// NewGameFrom starts a game at a given well and score with a fresh AI
// memory.
func NewGameFrom(r *Rules, ai AI, w Well, score int) *Game {
	return NewGameAfter(r, ai, w, score, nil)
}

// NewGameAfter starts a game at a given well and score whose AI remembers
// the spawn wells of history (oldest first, repeats included) as if it
// had seen them earlier in the same game: a game resumed mid-way keeps
// the loop rule's memory.
func NewGameAfter(r *Rules, ai AI, w Well, score int, history []Well) *Game {
	g := &Game{Rules: r, AI: ai, Well: w, Score: score, gen: NewGenerator(r), Seen: NewSeen()}
	for i := range history {
		g.Seen.Add(&history[i])
	}
	if r.IsOver(&g.Well) {
		g.Over = true
		return g
	}
	g.spawn()
	return g
}

// Piece returns the live piece (valid while the game is not over).
func (g *Game) Piece() Piece { return g.Pieces[len(g.Pieces)-1] }

// Placed is the number of pieces locked so far.
func (g *Game) Placed() int { return len(g.Steps) }

func (g *Game) spawn() {
	g.mild = g.gen.Choose(&g.Well, Mild, nil)
	p := g.mild
	switch g.AI {
	case LOVETRIS:
		p = I
	case Burgiel:
		p = S
		if len(g.Pieces)%2 == 1 {
			p = Z
		}
	case Brzustowski:
		p = g.brzustowski()
	case HATETRIS:
		g.Seen.Add(&g.Well)
		rk := g.gen.Rank(&g.Well, g.Seen)
		p = rk.Best()
		if p != g.mild {
			g.LoopChanges = append(g.LoopChanges, LoopChange{Index: len(g.Pieces), Mild: g.mild, Sent: p})
		}
	}
	g.Pieces = append(g.Pieces, p)
	g.Live = g.Rules.Spawn()
}

// brzustowski advances Brzustowski's four-step machine and returns the
// piece it sends: S in steps 1 and 4 ("left kink"), Z in steps 2 and 3,
// moving on from step 1 (3) when the well repeats one seen since the step
// began, and from step 2 (4) after one piece.
func (g *Game) brzustowski() Piece {
	if g.step == 0 {
		g.step, g.display = 1, S
	}
	sent := g.display
	switch g.step {
	case 1, 3:
		cycle := false
		for i := range g.stepWells {
			if g.stepWells[i] == g.Well {
				cycle = true
				break
			}
		}
		g.stepWells = append(g.stepWells, g.Well)
		if cycle {
			g.step++
			g.display = Z
			if g.step == 4 {
				g.display = S
			}
		} else if g.step == 1 {
			g.display = S
		} else {
			g.display = Z
		}
	case 2:
		g.step, g.display, g.stepWells = 3, Z, g.stepWells[:0]
	case 4:
		g.step, g.display, g.stepWells = 1, S, g.stepWells[:0]
	}
	return sent
}

// Press applies one key (L, R, D or U). Keys after game over are ignored.
func (g *Game) Press(key byte) error {
	switch key {
	case 'L', 'R', 'D', 'U':
	default:
		return fmt.Errorf("key %q is not one of L R D U", key)
	}
	if g.Over {
		return nil
	}
	g.KeysUsed++
	p := g.Piece()
	next, ok := g.Rules.step(&g.Well, p, g.Live, key)
	if ok {
		g.Live = next
		return nil
	}
	if key != 'D' {
		return nil
	}
	res := g.Rules.Lock(&g.Well, p, g.Live)
	g.Steps = append(g.Steps, Step{Before: g.Well, Score: g.Score, Piece: p, MildPiece: g.mild, Lock: g.Live, Lines: res.Lines, Placed: res.Placed, GameOver: res.GameOver})
	g.Well = res.Well
	g.Score += res.Lines
	if res.GameOver {
		g.Over = true
		return nil
	}
	g.spawn()
	return nil
}

// PressAll applies a key string; it stops at the first key that is not
// L, R, D or U and reports its position.
func (g *Game) PressAll(keys string) error {
	for i := 0; i < len(keys); i++ {
		if err := g.Press(keys[i]); err != nil {
			return fmt.Errorf("key %d: %w", i, err)
		}
	}
	return nil
}

// Play replays keys from the empty well and returns the game.
func Play(r *Rules, ai AI, keys string) (*Game, error) {
	g := NewGame(r, ai)
	if err := g.PressAll(keys); err != nil {
		return nil, err
	}
	return g, nil
}
