package classic

import (
	"fmt"

	"github.com/hatelab/hatelab/internal/clip"
)

// Agent chooses where the current piece goes. Choose returns the chosen
// candidate (one of b.R.Candidates(p)) and its landing row, or nil when no
// placement is legal (the game is over). Agents see only the board and the
// current piece: there is no preview. Choose must not modify b.
type Agent interface {
	Name() string
	Choose(b *Board, p Piece) (c *Candidate, y int)
}

// better reports whether (score, c) beats (best, bc) under tetr-ai's
// tie-break: higher score, then smaller centre bias, then smaller shift X.
// Candidates are visited in enumeration order, so the earlier one is kept
// otherwise.
func better(score int64, c *Candidate, best int64, bc *Candidate) bool {
	if bc == nil || score > best {
		return true
	}
	if score < best {
		return false
	}
	if c.Bias != bc.Bias {
		return c.Bias < bc.Bias
	}
	return c.X < bc.X
}

// AgentNames lists the built-in agents accepted by NewAgent.
var AgentNames = []string{"tetr-ai", "dellacherie", "bcts", "wkb"}

// NewAgent returns a built-in agent by name: "tetr-ai" (tetr-ai v2.0),
// "dellacherie", "bcts" (Thiery & Scherrer) or "wkb" (after Whitman, Kane
// and Burnette, one-piece lookahead pruned to the best 5).
func NewAgent(name string) (Agent, error) {
	switch name {
	case "tetr-ai", "tetrai":
		return TetrAI{}, nil
	case "dellacherie":
		return Dellacherie(), nil
	case "bcts":
		return BCTS(), nil
	case "wkb":
		return NewWKB(5), nil
	}
	return nil, fmt.Errorf("unknown agent %s (want one of tetr-ai, dellacherie, bcts, wkb)", clip.Quote(name))
}
