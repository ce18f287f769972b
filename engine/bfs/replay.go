package bfs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Game is a game rebuilt from a search's level files, verified by replaying
// its keys in the engine (HATETRIS Mild, the search's AI).
type Game struct {
	Width, Height int
	Rule          Rule
	// Keys is the replay (L R D U), from Start.
	Keys       string
	Start      hatetris.Well
	StartScore int
	// Pieces are the pieces the AI sent, Wells the wells after each
	// (Wells[0] is Start), Scores the scores after each.
	Pieces []hatetris.Piece
	Wells  []hatetris.Well
	Scores []int
	// Score and Length are the final score and pieces placed.
	Score, Length int
}

// Target says which game to rebuild.
type Target int

const (
	// Longest is a game lasting the most pieces: the first state (in the
	// level file's order) of the deepest level.
	Longest Target = iota
	// HighestScoring is a game reaching the best score as early as
	// possible: the first state with the best score of the first level
	// where it appears.
	HighestScoring
)

// Reconstruct rebuilds one game of a search written to dir
// (Options.LevelDir) without holding more than one level's stream at a
// time: it walks the level files backward, finding for each state the
// first parent (in file order) whose move produces it, and checks the
// result by replaying its keys.
func Reconstruct(dir string, t Target) (*Game, error) {
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return nil, fmt.Errorf("bfs: no finished search in %s: %w", dir, err)
	}
	var m levelMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m.Unbounded || m.Truncated {
		return nil, errors.New("bfs: the search did not finish (loop or level limit): no game to rebuild")
	}
	rule, err := ParseRule(m.Rule)
	if err != nil {
		return nil, err
	}
	rules, err := NewRules(m.Width, m.Height, rule)
	if err != nil {
		return nil, err
	}
	c, err := newCodec(m.Width, m.Height, Bar)
	if err != nil {
		return nil, err
	}
	var start hatetris.Well
	if m.StartRows != nil {
		for r, v := range m.StartRows {
			start[r] = uint16(v)
		}
	}
	startCells := c.cells(&start)
	depth, score := m.Length, -1
	if t == HighestScoring {
		for _, l := range m.Levels {
			if l.BestScore == m.Score {
				depth = l.Level
				break
			}
		}
		score = m.Score
	}
	// The target state.
	var target hatetris.Well
	tscore := -1
	lr, err := openLevel(dir, depth)
	if err != nil {
		return nil, err
	}
	for {
		p, w, ok, err := lr.next()
		if err != nil || !ok {
			lr.Close()
			if err == nil {
				err = fmt.Errorf("bfs: no state with score %d at level %d", score, depth)
			}
			return nil, err
		}
		var well hatetris.Well
		c.decode(p, w, &well)
		if s := (scorer{c, m.StartScore, startCells, depth}).score(&well); score < 0 || s == score {
			target, tscore = well, s
			break
		}
	}
	lr.Close()

	wells := []hatetris.Well{target}
	scores := []int{tscore}
	pieces := []hatetris.Piece{}
	gen := hatetris.NewGenerator(rules)
	var buf []hatetris.Outcome
	for d := depth - 1; d >= 0; d-- {
		cur, cs := wells[len(wells)-1], scores[len(scores)-1]
		ccells := c.cells(&cur)
		sc := scorer{c, m.StartScore, startCells, d}
		lr, err := openLevel(dir, d)
		if err != nil {
			return nil, err
		}
		found := false
		for !found {
			p, w, ok, err := lr.next()
			if err != nil {
				lr.Close()
				return nil, err
			}
			if !ok {
				break
			}
			var pw hatetris.Well
			c.decode(p, w, &pw)
			ps := sc.score(&pw)
			lines := cs - ps
			if lines < 0 || lines > 4 || c.cells(&pw)+4-m.Width*lines != ccells {
				continue
			}
			if lines == 0 && !subset(&pw, &cur) || !window(&pw, &cur, lines, rules.Depth) {
				continue
			}
			var piece hatetris.Piece
			piece, buf = gen.Move(&pw, hatetris.Mild, nil, buf[:0])
			for i := range buf {
				if !buf[i].GameOver && buf[i].Lines == lines && buf[i].Well == cur {
					wells, scores, pieces = append(wells, pw), append(scores, ps), append(pieces, piece)
					found = true
					break
				}
			}
		}
		lr.Close()
		if !found {
			return nil, fmt.Errorf("bfs: no parent at level %d (corrupt level files?)", d)
		}
	}
	// Reverse into game order.
	for i, j := 0, len(wells)-1; i < j; i, j = i+1, j-1 {
		wells[i], wells[j] = wells[j], wells[i]
		scores[i], scores[j] = scores[j], scores[i]
	}
	for i, j := 0, len(pieces)-1; i < j; i, j = i+1, j-1 {
		pieces[i], pieces[j] = pieces[j], pieces[i]
	}
	g := &Game{Width: m.Width, Height: m.Height, Rule: rule, Start: wells[0], StartScore: scores[0],
		Pieces: pieces, Wells: wells, Scores: scores, Score: tscore, Length: depth}
	var keys strings.Builder
	for i, p := range pieces {
		k, ok := rules.KeysTo(&wells[i], p, &wells[i+1])
		if !ok {
			return nil, fmt.Errorf("bfs: no keys for piece %d", i)
		}
		keys.WriteString(k)
	}
	g.Keys = keys.String()
	if err := g.Verify(); err != nil {
		return nil, err
	}
	return g, nil
}

// Verify replays the game's keys in the engine and checks every well,
// the pieces, the final score and that the game is still alive.
func (g *Game) Verify() error {
	rules, err := NewRules(g.Width, g.Height, g.Rule)
	if err != nil {
		return err
	}
	gm := hatetris.NewGameFrom(rules, hatetris.Mild, g.Start, g.StartScore)
	if err := gm.PressAll(g.Keys); err != nil {
		return fmt.Errorf("bfs: replay: %w", err)
	}
	if gm.Over || gm.Placed() != g.Length || gm.Score != g.Score || gm.Well != g.Wells[len(g.Wells)-1] {
		return fmt.Errorf("bfs: replay check failed: over %v, placed %d (want %d), score %d (want %d)",
			gm.Over, gm.Placed(), g.Length, gm.Score, g.Score)
	}
	for i, st := range gm.Steps {
		if st.Piece != g.Pieces[i] || st.Before != g.Wells[i] {
			return fmt.Errorf("bfs: replay differs at piece %d", i)
		}
	}
	return nil
}

// subset reports whether every filled cell of a is filled in b.
func subset(a, b *hatetris.Well) bool {
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

// window reports whether child can come from parent by one piece clearing
// lines rows: below the piece the rows are unchanged, above it they are
// the parent's shifted down by lines, so the child rows that match
// neither span at most 4-lines rows (the piece's rows left after the
// clear).
func window(parent, child *hatetris.Well, lines, depth int) bool {
	lo := depth - 1
	for lo >= 0 && parent[lo] == child[lo] {
		lo--
	}
	hi := 0
	for hi <= lo {
		var above uint16
		if hi-lines >= 0 {
			above = parent[hi-lines]
		}
		if child[hi] != above {
			break
		}
		hi++
	}
	return lo-hi+1 <= 4-lines
}
