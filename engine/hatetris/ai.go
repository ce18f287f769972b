package hatetris

import (
	"fmt"
	"strings"
)

// AI is an enemy piece-selection rule.
type AI int

const (
	// HATETRIS is the current game's AI: fewest repeats of a previously
	// seen spawn well, then the tallest best-case stack, then S Z O I L J T.
	HATETRIS AI = iota
	// Mild is HATETRIS without the loop rule (the AI before June 2021).
	Mild
	// LOVETRIS, the game's joke AI, always sends I.
	LOVETRIS
	// Brzustowski is "Algorithm 2" of J. Brzustowski, "Can You Win At
	// Tetris?" (1992), as the real game implements it: send S until a
	// well repeats, then one Z, then Z until a well repeats, then one S.
	Brzustowski
	// Burgiel alternates S and Z whatever the well (H. Burgiel, "How To
	// Lose At Tetris", 1997).
	Burgiel
)

// String returns the AI's name as the CLI spells it.
func (a AI) String() string {
	switch a {
	case HATETRIS:
		return "hatetris"
	case Mild:
		return "mild"
	case LOVETRIS:
		return "lovetris"
	case Brzustowski:
		return "brzustowski"
	case Burgiel:
		return "burgiel"
	}
	return fmt.Sprintf("AI(%d)", int(a))
}

// ParseAI reads an AI's name as String writes it ("hatetris", "mild",
// "lovetris", "brzustowski", "burgiel"), in any case, also the game's own
// names "HATETRIS Mild" and "hatetris-mild".
func ParseAI(s string) (AI, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "hatetris":
		return HATETRIS, nil
	case "mild", "hatetris mild", "hatetris-mild":
		return Mild, nil
	case "lovetris":
		return LOVETRIS, nil
	case "brzustowski":
		return Brzustowski, nil
	case "burgiel":
		return Burgiel, nil
	}
	return 0, fmt.Errorf("unknown AI %q (want hatetris, mild, lovetris, brzustowski or burgiel)", s)
}

// History tells how many times a well was seen at a spawn. For the real
// game it is the AI's memory of the current game, the current well
// already counted.
type History interface {
	Count(w *Well) int
}

// Seen counts the wells seen at spawns (the real AI's state).
type Seen struct {
	m map[Well]int32
}

// NewSeen returns an empty history.
func NewSeen() *Seen { return &Seen{m: make(map[Well]int32)} }

// Add counts one more sighting of w and returns the new count.
func (s *Seen) Add(w *Well) int {
	s.m[*w]++
	return int(s.m[*w])
}

// Count returns how many times w was seen.
func (s *Seen) Count(w *Well) int { return int(s.m[*w]) }

// Len returns the number of distinct wells seen.
func (s *Seen) Len() int { return len(s.m) }

// onlyWell is the history of a game that starts at its well: that well,
// seen once.
type onlyWell struct{ w *Well }

func (o onlyWell) Count(w *Well) int {
	if *w == *o.w {
		return 1
	}
	return 0
}

// Ranking is what the AI weighs for each piece (indexed by Piece).
type Ranking struct {
	// Loops is the highest seen-count among the piece's outcomes.
	Loops [NumPieces]int
	// Peak is the best (largest) topmost-row index among its outcomes.
	Peak [NumPieces]int
}

// Best returns the piece HATETRIS picks from the ranking: smallest Loops,
// then smallest Peak, then the earliest in S Z O I L J T.
func (rk *Ranking) Best() Piece {
	best := Piece(0)
	for p := Piece(1); p < NumPieces; p++ {
		if rk.Loops[p] < rk.Loops[best] || rk.Loops[p] == rk.Loops[best] && rk.Peak[p] < rk.Peak[best] {
			best = p
		}
	}
	return best
}

// Rank computes the loops and peak of every piece for well w. With a nil
// history every Loops is 0.
func (g *Generator) Rank(w *Well, hist History) Ranking {
	var rk Ranking
	fast := g.load(w)
	for p := Piece(0); p < NumPieces; p++ {
		if !fast {
			g.buf = g.slowResults(w, p, g.buf[:0])
			rk.Peak[p] = -1
			for i := range g.buf {
				rk.Peak[p] = max(rk.Peak[p], g.r.Peak(&g.buf[i].Well))
			}
		} else {
			rk.Peak[p] = g.scan(p, -1)
			if hist != nil {
				g.buf = g.buildResults(p, g.buf[:0], false)
			}
		}
		if hist != nil {
			for i := range g.buf {
				rk.Loops[p] = max(rk.Loops[p], hist.Count(&g.buf[i].Well))
			}
		}
	}
	return rk
}

// RankedMove is one HATETRIS step for well w with the memory hist, as
// Rank, Ranking.Best and Outcomes give it, for a search that needs the
// outcomes of the sent piece only: it returns the sent piece, the piece
// Mild would send (the smallest Peak, then S Z O I L J T), the sent
// piece's Loops and its outcomes (appended to dst). It is lazy: Mild's
// piece is found as Move finds it (scans cut short once a piece cannot
// win) and, when its outcomes repeat no well of hist, it is sent (no
// piece can beat it) without ranking the others; otherwise the pieces
// are tried in Peak order (then S Z O I L J T) and the first that
// repeats least is sent. hist must not be nil.
func (g *Generator) RankedMove(w *Well, hist History, dst []Outcome) (sent, mild Piece, loops int, out []Outcome) {
	start := len(dst)
	mild, dst = g.Move(w, Mild, nil, dst)
	for i := start; i < len(dst); i++ {
		loops = max(loops, hist.Count(&dst[i].Well))
	}
	if loops == 0 {
		return mild, mild, 0, dst
	}
	sent, loops, dst = g.rankedMove(w, hist, dst[:start])
	return sent, mild, loops, dst
}

// rankedMove is RankedMove's ranking when Mild's piece repeats: every
// piece's Peak, then the pieces in Peak order until one repeats nothing.
func (g *Generator) rankedMove(w *Well, hist History, dst []Outcome) (sent Piece, loops int, out []Outcome) {
	if !g.load(w) {
		rk := g.Rank(w, hist)
		sent = rk.Best()
		return sent, rk.Loops[sent], g.Outcomes(w, sent, dst)
	}
	var peak [NumPieces]int
	var order [NumPieces]Piece
	for p := Piece(0); p < NumPieces; p++ {
		peak[p] = g.scan(p, -1)
		// Insertion by (Peak, piece): a later piece goes after its equals.
		i := int(p)
		for ; i > 0 && peak[order[i-1]] > peak[p]; i-- {
			order[i] = order[i-1]
		}
		order[i] = p
	}
	start := len(dst)
	sent, built := Piece(NumPieces), Piece(NumPieces)
	scanned := Piece(NumPieces - 1) // the levels in lev
	for _, p := range order {
		if p != scanned {
			g.scan(p, -1)
		}
		scanned = NumPieces // buildResults edits lev
		dst = g.buildResults(p, dst[:start], false)
		built = p
		n := 0
		for i := start; i < len(dst); i++ {
			n = max(n, hist.Count(&dst[i].Well))
		}
		if sent == NumPieces || n < loops {
			sent, loops = p, n
		}
		if n == 0 {
			break
		}
	}
	if built != sent {
		g.scan(sent, -1)
		dst = g.buildResults(sent, dst[:start], false)
	}
	return sent, loops, dst
}

// Choose returns the piece the AI sends for well w. For HATETRIS, hist is
// the game's memory with w already counted; nil means a game that starts
// at w (w seen once). Mild ignores hist. The stateful AIs (Brzustowski,
// Burgiel) answer as at the start of a game; a Game tracks their state.
func (g *Generator) Choose(w *Well, ai AI, hist History) Piece {
	switch ai {
	case LOVETRIS:
		return I
	case Brzustowski, Burgiel:
		return S
	case HATETRIS:
		if hist == nil && g.r.Width*1 == 4 {
			// Only at width 4 can one piece (clearing one line) give back
			// the same well; elsewhere the fresh history changes nothing.
			hist = onlyWell{w}
		}
		if hist != nil {
			rk := g.Rank(w, hist)
			return rk.Best()
		}
	}
	return g.chooseMild(w)
}

// chooseMild picks the piece with the smallest best-case Peak, ties to the
// earliest in S Z O I L J T, abandoning a piece as soon as it cannot win.
func (g *Generator) chooseMild(w *Well) Piece {
	if !g.load(w) {
		var rk Ranking
		for p := Piece(0); p < NumPieces; p++ {
			rk.Peak[p] = g.slowValue(w, p)
		}
		return rk.Best()
	}
	g.loadOpen()
	best, bestV := Piece(0), 1<<30
	g.saved = NumPieces
	for p := Piece(0); p < NumPieces; p++ {
		if bestV <= g.top && bestV >= 0 && g.top >= 4 && g.dropReaches(&g.r.pieces[p], bestV) {
			continue // p's value is at least bestV: it cannot win
		}
		if g.saved != NumPieces && g.savedInLev {
			g.stashLevels() // the scan below overwrites them
		}
		if v := g.scan(p, bestV); v < bestV {
			best, bestV = p, v
			g.keepLevels(p)
		}
	}
	return best
}

// Move returns the AI's piece for w and appends that piece's distinct
// outcomes to dst: one step of a game, the unit of every search.
func (g *Generator) Move(w *Well, ai AI, hist History, dst []Outcome) (Piece, []Outcome) {
	g.saved = NumPieces
	p := g.Choose(w, ai, hist)
	if g.saved == p && g.well == w && g.scomplete {
		// The Mild scan kept the winner's levels: build from them.
		g.restoreLevels()
		return p, g.buildResults(p, dst, false)
	}
	return p, g.Outcomes(w, p, dst)
}

// keepLevels marks the levels just scanned, of piece p (the best so far),
// as the ones to build from; they stay in lev until another scan needs it.
func (g *Generator) keepLevels(p Piece) {
	g.saved, g.savedInLev = p, true
	g.sy0, g.sy1 = g.y0, g.y1
	g.scomplete = g.complete
}

// stashLevels moves the kept levels aside, out of the scan's way.
func (g *Generator) stashLevels() {
	copy(g.slev[g.sy0:g.sy1], g.lev[g.sy0:g.sy1])
	copy(g.sclr[g.sy0:g.sy1], g.clr[g.sy0:g.sy1])
	g.savedInLev = false
}

// restoreLevels puts the kept levels back in lev.
func (g *Generator) restoreLevels() {
	g.y0, g.y1 = g.sy0, g.sy1
	if !g.savedInLev {
		copy(g.lev[g.y0:g.y1], g.slev[g.y0:g.y1])
		copy(g.clr[g.y0:g.y1], g.sclr[g.y0:g.y1])
		g.savedInLev = true
	}
}
