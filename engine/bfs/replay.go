package bfs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
//
// A folder of kept levels (Options.KeepEvery) is rebuilt by Rebuild, with
// its default options.
func Reconstruct(dir string, t Target) (*Game, error) {
	m, rules, c, start, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	if m.KeepEvery > 0 {
		return Rebuild(context.Background(), dir, t, RebuildOptions{})
	}
	rb := rebuild{dir: dir, m: m, rules: rules, c: c, startCells: c.cells(&start), gen: hatetris.NewGenerator(rules)}
	depth, score := targetLevel(m, t)
	target, tscore, err := rb.target(depth, score)
	if err != nil {
		return nil, err
	}
	wells := []hatetris.Well{target}
	scores := []int{tscore}
	pieces := []hatetris.Piece{}
	for d := depth - 1; d >= 0; d-- {
		pw, ps, piece, err := rb.parent(d, wells[len(wells)-1], scores[len(scores)-1])
		if err != nil {
			return nil, err
		}
		wells, scores, pieces = append(wells, pw), append(scores, ps), append(pieces, piece)
	}
	return assemble(m, rules, wells, scores, pieces)
}

// targetLevel is the level of the game t of the search m, and the score
// its target state must have there (-1: any).
func targetLevel(m *levelMeta, t Target) (depth, score int) {
	depth, score = m.Length, -1
	if t == HighestScoring {
		for _, l := range m.Levels {
			if l.BestScore == m.Score {
				depth = l.Level
				break
			}
		}
		score = m.Score
	}
	return depth, score
}

// assemble makes the game of the search m whose wells, scores and pieces
// are given from its last state backward, and verifies it.
func assemble(m *levelMeta, rules *hatetris.Rules, wells []hatetris.Well, scores []int, pieces []hatetris.Piece) (*Game, error) {
	rule, _ := ParseRule(m.Rule)
	wells, scores, pieces = slices.Clone(wells), slices.Clone(scores), slices.Clone(pieces)
	// Reverse into game order.
	slices.Reverse(wells)
	slices.Reverse(scores)
	slices.Reverse(pieces)
	g := &Game{Width: m.Width, Height: m.Height, Rule: rule, Start: wells[0], StartScore: scores[0],
		Pieces: pieces, Wells: wells, Scores: scores, Score: scores[len(scores)-1], Length: len(pieces)}
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

// rebuild is what Reconstruct walks the level files of dir with.
type rebuild struct {
	dir        string
	m          *levelMeta
	rules      *hatetris.Rules
	c          *codec
	startCells int
	gen        *hatetris.Generator
	buf        []hatetris.Outcome
}

// target returns the first state of level depth with the given score
// (any score when negative), and its score.
func (rb *rebuild) target(depth, score int) (hatetris.Well, int, error) {
	c := rb.c
	lr, err := openLevel(rb.dir, depth, c.parts())
	if err != nil {
		return hatetris.Well{}, 0, err
	}
	defer lr.Close()
	sc := scorer{c, rb.m.StartScore, rb.startCells, depth}
	for {
		p, w, ok, err := lr.next()
		if err == nil && !ok {
			err = inputErrorf("bfs: %s: no state with score %d (damaged level files?)", levelPath(rb.dir, depth), score)
		}
		if err != nil {
			return hatetris.Well{}, 0, err
		}
		var well hatetris.Well
		c.decode(p, w, &well)
		if s := sc.score(&well); score < 0 || s == score {
			return well, s, nil
		}
	}
}

// parent returns the first state of level d (in its file's order) that
// the AI's piece turns into cur (of score cs), its score and the piece.
func (rb *rebuild) parent(d int, cur hatetris.Well, cs int) (hatetris.Well, int, hatetris.Piece, error) {
	c := rb.c
	ccells := c.cells(&cur)
	sc := scorer{c, rb.m.StartScore, rb.startCells, d}
	lr, err := openLevel(rb.dir, d, c.parts())
	if err != nil {
		return hatetris.Well{}, 0, 0, err
	}
	defer lr.Close()
	for {
		p, w, ok, err := lr.next()
		if err != nil {
			return hatetris.Well{}, 0, 0, err
		}
		if !ok {
			return hatetris.Well{}, 0, 0, inputErrorf("bfs: %s: no parent of the level-%d state (damaged level files?)", levelPath(rb.dir, d), d+1)
		}
		var pw hatetris.Well
		c.decode(p, w, &pw)
		ps := sc.score(&pw)
		if piece, ok := rb.moves(&pw, ps, &cur, cs, ccells); ok {
			return pw, ps, piece, nil
		}
	}
}

// moves reports whether the AI's piece turns pw (of score ps) into cur
// (of score cs and ccells cells), and that piece: cheap checks first
// (cells, lines, the rows a piece can change), then the move itself.
func (rb *rebuild) moves(pw *hatetris.Well, ps int, cur *hatetris.Well, cs, ccells int) (hatetris.Piece, bool) {
	lines := cs - ps
	if lines < 0 || lines > 4 || rb.c.cells(pw)+4-rb.m.Width*lines != ccells {
		return 0, false
	}
	if lines == 0 && !subset(pw, cur) || !window(pw, cur, lines, rb.rules.Depth) {
		return 0, false
	}
	var piece hatetris.Piece
	piece, rb.buf = rb.gen.Move(pw, hatetris.Mild, nil, rb.buf[:0])
	for i := range rb.buf {
		if !rb.buf[i].GameOver && rb.buf[i].Lines == lines && rb.buf[i].Well == *cur {
			return piece, true
		}
	}
	return 0, false
}

// readMeta reads and checks the meta.json of a search written to dir:
// its checksum (version 2), geometry, start well and levels, so that
// nothing later indexes past them. Its errors wrap ErrInput.
func readMeta(dir string) (m *levelMeta, rules *hatetris.Rules, c *codec, start hatetris.Well, err error) {
	path := filepath.Join(dir, metaName)
	b, err := readSmallFile(path)
	if err != nil {
		if errors.Is(err, ErrInput) {
			return nil, nil, nil, start, err
		}
		return nil, nil, nil, start, inputErrorf("bfs: no finished search in %s: %v", dir, err)
	}
	bad := func(format string, a ...any) error {
		return inputErrorf("bfs: %s: %s", path, fmt.Sprintf(format, a...))
	}
	m = &levelMeta{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(m); err != nil {
		return nil, nil, nil, start, bad("not a search description: %v", err)
	}
	if dec.More() {
		return nil, nil, nil, start, bad("data after the search description")
	}
	switch m.Version {
	case 0: // version 1, before checksums
	case metaVersion, metaVersionKept:
		if !checkSealed(m, &m.Checksum) {
			return nil, nil, nil, start, bad("checksum mismatch (damaged or edited)")
		}
	default:
		return nil, nil, nil, start, bad("version %d; this hatelab reads 1..%d", m.Version, metaVersionKept)
	}
	if (m.Version == metaVersionKept) != (m.KeepEvery > 0) || m.KeepEvery < 0 || m.KeepEvery > maxLevelsSaved {
		return nil, nil, nil, start, bad("version %d with keep-every %d", m.Version, m.KeepEvery)
	}
	if m.Unbounded || m.Truncated {
		return nil, nil, nil, start, inputErrorf("bfs: the search in %s did not finish (loop or level limit): no game to rebuild", dir)
	}
	rule, err := ParseRule(m.Rule)
	if err != nil {
		return nil, nil, nil, start, bad("%v", err)
	}
	if rules, err = NewRules(m.Width, m.Height, rule); err != nil {
		return nil, nil, nil, start, bad("%v", err)
	}
	if m.Width > 16 {
		return nil, nil, nil, start, bad("width %d too large", m.Width)
	}
	if c, err = newCodec(m.Width, m.Height, Bar); err != nil {
		return nil, nil, nil, start, bad("%v", err)
	}
	if m.StartRows != nil {
		if len(m.StartRows) != m.Height+Bar {
			return nil, nil, nil, start, bad("StartRows has %d rows, want %d", len(m.StartRows), m.Height+Bar)
		}
		for r, v := range m.StartRows {
			if v < 0 || v > int(rules.FullRow()) || r < Bar && v != 0 || v == int(rules.FullRow()) {
				return nil, nil, nil, start, bad("StartRows row %d: %d is not a row of this well", r, v)
			}
			start[r] = uint16(v)
		}
	}
	if m.StartScore < 0 || m.Score < m.StartScore || m.Length < 0 || len(m.Levels) != m.Length+1 {
		return nil, nil, nil, start, bad("score %d, start score %d, length %d and %d levels do not agree", m.Score, m.StartScore, m.Length, len(m.Levels))
	}
	best := -1
	for i, l := range m.Levels {
		if l.Level != i || l.States <= 0 {
			return nil, nil, nil, start, bad("level %d: number %d, %d states", i, l.Level, l.States)
		}
		best = max(best, l.BestScore)
	}
	if best != m.Score {
		return nil, nil, nil, start, bad("score %d is not the best score of its levels (%d)", m.Score, best)
	}
	return m, rules, c, start, nil
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
