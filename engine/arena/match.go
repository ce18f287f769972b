package arena

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/filelock"
	"github.com/hatelab/hatelab/internal/jsonline"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// Format identifies the JSONL layout of a match file: a header line, then
// one line per finished game.
const Format = "hatelab-arena/1"

// MaxMatchFile caps the size of a match file read back on resume.
const MaxMatchFile = 1 << 30

// Header is the first line of a match file: the settings every game of
// the file was played with.
type Header struct {
	Format     string `json:"format"`
	SuiteSpec  string `json:"suite_spec"`
	Suite      string `json:"suite"` // Suite.ID
	Starts     int    `json:"starts"`
	Rules      string `json:"rules"`
	BeamWidth  int    `json:"beam_width"`
	Quiescence bool   `json:"quiescence"`
	MaxPieces  int    `json:"max_pieces,omitempty"`
}

// Game is one finished game of a match: a line of its file.
type Game struct {
	Arm   string `json:"arm"`
	Start int    `json:"start"` // index in the suite
	// Eval is the arm's evaluation's Name, BeamWidth and Quiescence its
	// search settings (a resumed match checks them).
	Eval       string `json:"eval"`
	BeamWidth  int    `json:"beam_width"`
	Quiescence bool   `json:"quiescence"`
	// Score is the best game's lines, the start's included; Pieces its
	// pieces after the start.
	Score    int     `json:"score"`
	Pieces   int     `json:"pieces"`
	Seconds  float64 `json:"seconds"`
	Children int64   `json:"children"`
	// Replay is the game from the start well (Base2048).
	Replay string `json:"replay"`
}

// Match is a paired match: every arm plays every start of the suite with
// the same beam settings.
type Match struct {
	Suite *Suite
	// Arms are the contestants; the first is the baseline the others are
	// compared with.
	Arms       []Arm
	BeamWidth  int
	Quiescence bool
	MaxPieces  int
	// Parallel is the number of games played at once (0: GOMAXPROCS);
	// BeamWorkers the workers (goroutines) of each game's beam search
	// (0: 1). Neither changes any game.
	Parallel    int
	BeamWorkers int
	// SPRT, when set, stops the match as soon as the sequential test has
	// decided every arm against the baseline (read along the starts in
	// suite order).
	SPRT stats.Sequential
	// Out, when set, is the match file: games already in it are not
	// played again (a match killed at any moment resumes), new ones are
	// appended as they finish.
	Out string
	// OnGame, when set, is called (from one goroutine at a time) after
	// every finished game with the standings so far.
	OnGame func(g Game, s *Standings)
	// Resamples, Seed and Level set the bootstrap intervals (0: 2000,
	// seed 1, 0.95).
	Resamples int
	Seed      uint64
	Level     float64
}

// Limits on a match's settings.
const (
	MaxArms     = 64
	MaxParallel = 1024
)

// Check validates the settings before any work.
func (m *Match) Check() error {
	switch {
	case m.Suite == nil || len(m.Suite.Starts) == 0:
		return errors.New("arena: the suite has no starts")
	case len(m.Arms) < 2 || len(m.Arms) > MaxArms:
		return fmt.Errorf("arena: %d arms: want 2 to %d", len(m.Arms), MaxArms)
	case m.BeamWidth < 1 || m.BeamWidth > beam.MaxWidth:
		return fmt.Errorf("arena: beam width %d: want 1 to %d", m.BeamWidth, beam.MaxWidth)
	case m.MaxPieces < 0:
		return fmt.Errorf("arena: max pieces %d: want 0 (no limit) or more", m.MaxPieces)
	case m.Parallel < 0 || m.Parallel > MaxParallel:
		return fmt.Errorf("arena: %d games at once: want 0 (all cores) to %d", m.Parallel, MaxParallel)
	case m.BeamWorkers < 0 || m.BeamWorkers > beam.MaxWorkers:
		return fmt.Errorf("arena: %d workers (goroutines of each game's beam search): want 0 to %d", m.BeamWorkers, beam.MaxWorkers)
	case m.Resamples < 0 || m.Resamples > 1e7:
		return fmt.Errorf("arena: %d resamples: want 0 to 10000000", m.Resamples)
	case m.Level != 0 && !(m.Level > 0 && m.Level < 1):
		return fmt.Errorf("arena: interval level %g: want a value in (0, 1)", m.Level)
	}
	seen := map[string]bool{}
	for _, a := range m.Arms {
		if seen[a.Spec] {
			return fmt.Errorf("arena: arm %q is listed twice", a.Spec)
		}
		seen[a.Spec] = true
	}
	if m.SPRT != nil {
		if err := m.SPRT.Check(); err != nil {
			return err
		}
	}
	if m.Out != "" {
		if err := atomicfile.CheckTarget(m.Out); err != nil {
			return err
		}
	}
	if r := m.Suite.Rules; r != nil && r.Width == 4 && r.Bar == 1 && m.MaxPieces == 0 {
		// A horizontal I fills a 4-wide row on its own: under a bar of one
		// row the beam clears lines forever (hatelab beam refuses it too).
		return errors.New("arena: a 4-wide well under a bar of 1 need not end (a horizontal I clears a row by itself, and the beam never dies): give a piece limit (--max-pieces), --bar 2 or more, or a wider well")
	}
	if dead := DeadStarts(m.Suite); dead > 0 {
		return fmt.Errorf("arena: %d of the suite's %d starts are dead (over, or every placement of the first piece ends the game: every arm would score the start's lines): use shorter openings or another suite", dead, len(m.Suite.Starts))
	}
	return memlimit.Check(fmt.Sprintf("arena: %d games at once at beam width %d with %d workers each", m.parallel(), m.maxWidth(), max(m.BeamWorkers, 1)), m.MemoryNeed())
}

// DeadStarts counts the starts of s that are dead: the game is over, or
// every placement of the first piece the AI sends ends it. Every arm
// scores the start's lines there (a tie that says nothing), whatever it
// values: long openings make many (half of openings:50:20:1).
func DeadStarts(s *Suite) int {
	r := s.Rules
	if r == nil {
		r = hatetris.Standard()
	}
	gen := hatetris.NewGenerator(r)
	var outs []hatetris.Outcome
	n := 0
	for i := range s.Starts {
		st := &s.Starts[i]
		g := hatetris.NewGameAfter(r, hatetris.HATETRIS, st.Well, st.Score, st.History)
		if g.Over {
			n++
			continue
		}
		outs = gen.Outcomes(&st.Well, g.Piece(), outs[:0])
		dead := true
		for _, o := range outs {
			dead = dead && o.GameOver
		}
		if dead {
			n++
		}
	}
	return n
}

// parallel is the number of games played at once: Parallel (0: every
// core), at most one per game of the match.
func (m *Match) parallel() int {
	p := m.Parallel
	if p == 0 {
		p = runtime.GOMAXPROCS(0)
	}
	return max(min(p, len(m.Suite.Starts)*len(m.Arms)), 1)
}

// maxWidth is the widest beam any arm searches with.
func (m *Match) maxWidth() int {
	w := m.BeamWidth
	for _, a := range m.Arms {
		w = max(w, a.BeamWidth)
	}
	return w
}

// MemoryNeed estimates the memory a match's games take at once: the
// candidate pools of Parallel beam searches of the widest arm's width
// (beam.PoolBytes), each with an ancestry of ten levels of that
// width (15 bytes a node, the beam's own figure). The suite and the arms'
// evaluations are already in memory when it is asked.
func (m *Match) MemoryNeed() uint64 {
	w := m.maxWidth()
	per := beam.PoolBytes(w, max(m.BeamWorkers, 1)) + uint64(w)*15*10
	return uint64(m.parallel()) * per
}

func (m *Match) header() Header {
	return Header{Format: Format, SuiteSpec: m.Suite.Spec, Suite: m.Suite.ID(), Starts: len(m.Suite.Starts),
		Rules: m.Suite.Rules.String(), BeamWidth: m.BeamWidth, Quiescence: m.Quiescence, MaxPieces: m.MaxPieces}
}

// Result is a match's games and standings.
type Result struct {
	Header    Header
	Games     []Game // in the order they finished (file order)
	Standings *Standings
	// Stopped tells that the sequential test stopped the match before
	// every game was played.
	Stopped bool
}

// Run plays every game of the match that its file does not hold yet and
// returns the standings. Games are independent and deterministic, so the
// result is the same for any Parallel and any kill-and-resume history
// (seconds aside).
func (m *Match) Run(ctx context.Context) (*Result, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	h := m.header()
	res := &Result{Header: h}
	var file *os.File
	if m.Out != "" {
		games, f, err := m.openMatchFile(h)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		file, res.Games = f, games
	}
	st := m.newStandings()
	done := map[[2]int]bool{}
	for _, g := range res.Games {
		st.add(g)
		done[[2]int{st.armIndex[g.Arm], g.Start}] = true
	}
	var jobs []job
	for s := range m.Suite.Starts {
		for a := range m.Arms {
			if !done[[2]int{a, s}] {
				jobs = append(jobs, job{a, s})
			}
		}
	}
	err := m.playJobs(ctx, jobs, func() bool { return m.SPRT != nil && st.Decided() }, func(g Game) error {
		if file != nil {
			if err := appendGame(file, g); err != nil {
				return err
			}
		}
		res.Games = append(res.Games, g)
		st.add(g)
		if m.OnGame != nil {
			m.OnGame(g, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Stopped = st.Played() < len(m.Suite.Starts)*len(m.Arms)
	res.Standings = st
	return res, nil
}

// job is one game to play: an arm on a start.
type job struct{ arm, start int }

// playJobs plays the jobs, Parallel at a time, in order of dispatch, until
// all are played, one fails (its error is returned and the others are
// cancelled) or stop says so before a job starts; finished is called with
// each game, under a lock (an error from it stops the jobs too).
func (m *Match) playJobs(ctx context.Context, jobs []job, stop func() bool, finished func(Game) error) error {
	parallel := m.Parallel
	if parallel == 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	for range min(parallel, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= len(jobs) || firstErr != nil || stop() {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				g, err := m.play(ctx, j.arm, j.start)
				mu.Lock()
				if err == nil {
					err = finished(g)
				}
				if err != nil {
					fail(err)
					mu.Unlock()
					return
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// play runs one arm's beam search from one start.
func (m *Match) play(ctx context.Context, arm, start int) (Game, error) {
	a, s := &m.Arms[arm], &m.Suite.Starts[start]
	workers := max(m.BeamWorkers, 1)
	width, q := a.Settings(m.BeamWidth, m.Quiescence)
	cfg := beam.Config{Rules: m.Suite.Rules, BeamWidth: width, MaxPieces: m.MaxPieces, Quiescence: q,
		Eval: eval.TieBreak(a.Eval, s.TieSeed), Workers: workers, Start: &s.Well, StartScore: s.Score, StartHistory: s.History}
	t0 := time.Now()
	r, err := beam.Run(ctx, cfg)
	if err != nil {
		return Game{}, fmt.Errorf("arena: arm %s, start %d (%s): %w", a.Spec, start, s.Label, err)
	}
	return Game{Arm: a.Spec, Start: start, Eval: a.Eval.Name(), BeamWidth: width, Quiescence: q, Score: r.Score, Pieces: r.Pieces,
		Seconds: math.Round(time.Since(t0).Seconds()*1000) / 1000, Children: r.Children, Replay: r.Replay}, nil
}

// appendGame writes one game line and syncs it, so that a kill loses at
// most the games in flight.
func appendGame(f *os.File, g Game) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("arena: writing %s: %w", f.Name(), err)
	}
	return f.Sync()
}

// InputError is a match file that cannot be resumed: not a match file,
// other settings, a row that its replay contradicts, another run writing
// it. The file is left as it was; the CLI exits 2 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// openMatchFile opens (or creates) the match file for appending, locked
// against a second writer, and returns its games. A file that is not a
// match file, holds a match of other settings or a game its replay
// contradicts is refused with the file left byte for byte as it was; only
// once all of it is checked is a last line cut by a kill dropped.
func (m *Match) openMatchFile(h Header) ([]Game, *os.File, error) {
	path := m.Out
	f, _, err := boundedfile.OpenRW(path, MaxMatchFile, "match file", 0o644)
	if boundedfile.IsRefused(err) {
		return nil, nil, &InputError{fmt.Errorf("arena: %s %w", path, err)}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("arena: %w", err)
	}
	fail := func(err error) ([]Game, *os.File, error) {
		f.Close()
		return nil, nil, err
	}
	if err := filelock.TryLock(f); errors.Is(err, filelock.ErrLocked) {
		return fail(&InputError{fmt.Errorf("arena: %s is being written by another arena run: wait for it, or name another --out", path)})
	} else if err != nil {
		return fail(fmt.Errorf("arena: locking %s: %w", path, err))
	}
	data, err := boundedfile.ReadAll(f, MaxMatchFile, "match file")
	if err != nil {
		return fail(fmt.Errorf("arena: reading %s: %w", path, err))
	}
	hb, _ := json.Marshal(h)
	hb = append(hb, '\n')
	cut := bytes.LastIndexByte(data, '\n') + 1
	if cut == 0 && bytes.HasPrefix(hb, data) {
		// New, or its header cut by a kill: (re)write the header.
		if err := f.Truncate(0); err != nil {
			return fail(err)
		}
		if _, err := f.WriteAt(hb, 0); err != nil {
			return fail(fmt.Errorf("arena: writing %s: %w", path, err))
		}
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			return fail(err)
		}
		return nil, f, f.Sync()
	}
	games, err := ReadGames(bytes.NewReader(data[:cut]), path, &h, m.Arms)
	if err != nil {
		return fail(&InputError{err})
	}
	if err := m.verifyGames(path, games); err != nil {
		return fail(&InputError{err})
	}
	if cut < len(data) {
		if err := f.Truncate(int64(cut)); err != nil {
			return fail(err)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return fail(err)
	}
	return games, f, nil
}

// verifyGames replays every game of a resumed file from its start and
// refuses one whose replay does not give its score and pieces (an edited
// score, rows swapped, a replay changed): the standings only count games
// the rules confirm.
func (m *Match) verifyGames(path string, games []Game) error {
	errs := make([]error, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(len(games), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = m.verifyGame(&games[i])
			}
		}()
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("arena: %s line %d (arm %s, start %d): %v: the file is not as the match wrote it; name another --out", path, i+2, games[i].Arm, games[i].Start, err)
		}
	}
	return nil
}

// verifyGame replays g from its start: its score and pieces must be the
// replay's, and the game over (or at the piece limit).
func (m *Match) verifyGame(g *Game) error {
	keys, err := replaycodec.Decode(replaycodec.Base2048, g.Replay)
	if err != nil {
		return fmt.Errorf("its replay does not decode (%v)", err)
	}
	s := &m.Suite.Starts[g.Start]
	game := hatetris.NewGameAfter(m.Suite.Rules, hatetris.HATETRIS, s.Well, s.Score, s.History)
	if err := game.PressAll(keys); err != nil {
		return fmt.Errorf("its replay does not play (%v)", err)
	}
	limit := m.MaxPieces > 0 && game.Placed() == m.MaxPieces
	switch {
	case game.Score != g.Score || game.Placed() != g.Pieces:
		return fmt.Errorf("it says score %d in %d pieces, its replay scores %d in %d", g.Score, g.Pieces, game.Score, game.Placed())
	case !game.Over && !limit:
		return fmt.Errorf("its replay stops before the game is over")
	}
	return nil
}

// ReadGames reads a match file: its header, which must equal want when
// want is not nil, and its games, each checked (a known arm with the same
// evaluation when arms is not nil, a start of the suite, plausible numbers,
// no game twice). Errors are one line naming the file and line.
func ReadGames(r io.Reader, name string, want *Header, arms []Arm) ([]Game, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("arena: %s: %w", name, err)
		}
		return nil, fmt.Errorf("arena: %s is empty: not a match file", name)
	}
	var h Header
	if err := jsonline.Decode(sc.Bytes(), &h); err != nil || h.Format != Format {
		return nil, fmt.Errorf("arena: %s is not a match file (its first line is not a %s header): choose another file", name, Format)
	}
	if want != nil && h != *want {
		return nil, fmt.Errorf("arena: %s holds a match of other settings (%s); choose another file", name, diffHeader(h, *want))
	}
	evals := map[string]Game{}
	for _, a := range arms {
		w, q := a.Settings(h.BeamWidth, h.Quiescence)
		evals[a.Spec] = Game{Eval: a.Eval.Name(), BeamWidth: w, Quiescence: q}
	}
	var games []Game
	seen := map[string]bool{}
	for line := 2; sc.Scan(); line++ {
		var g Game
		if err := jsonline.Decode(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("arena: %s line %d: %v", name, line, err)
		}
		if err := checkGame(&g, &h, evals, arms != nil); err != nil {
			return nil, fmt.Errorf("arena: %s line %d: %v", name, line, err)
		}
		key := fmt.Sprintf("%s\x00%d", g.Arm, g.Start)
		if seen[key] {
			return nil, fmt.Errorf("arena: %s line %d: arm %s start %d is there twice", name, line, g.Arm, g.Start)
		}
		seen[key] = true
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("arena: %s: %w", name, err)
	}
	return games, nil
}

func checkGame(g *Game, h *Header, evals map[string]Game, known bool) error {
	switch {
	case g.Start < 0 || g.Start >= h.Starts:
		return fmt.Errorf("start %d is not in the suite (0 to %d)", g.Start, h.Starts-1)
	case g.Score < 0 || g.Score > 1<<30 || g.Pieces < 0 || g.Pieces > 1<<30 || g.Children < 0:
		return fmt.Errorf("implausible game (score %d, %d pieces, %d children)", g.Score, g.Pieces, g.Children)
	case math.IsNaN(g.Seconds) || g.Seconds < 0:
		return fmt.Errorf("seconds %g", g.Seconds)
	}
	if !known {
		return nil
	}
	e, ok := evals[g.Arm]
	switch {
	case !ok:
		// A game of an arm this run does not play is kept as it is.
		return nil
	case e.Eval != g.Eval:
		return fmt.Errorf("arm %s was played with evaluation %q, now it is %q (a changed weights file?)", g.Arm, g.Eval, e.Eval)
	case e.BeamWidth != g.BeamWidth || e.Quiescence != g.Quiescence:
		return fmt.Errorf("arm %s was played at beam width %d, quiescence %v; now it plays at %d, %v", g.Arm, g.BeamWidth, g.Quiescence, e.BeamWidth, e.Quiescence)
	}
	return nil
}

func diffHeader(got, want Header) string {
	switch {
	case got.Suite != want.Suite:
		return fmt.Sprintf("suite %s %s, not %s %s", got.SuiteSpec, got.Suite, want.SuiteSpec, want.Suite)
	case got.BeamWidth != want.BeamWidth:
		return fmt.Sprintf("beam width %d, not %d", got.BeamWidth, want.BeamWidth)
	case got.Quiescence != want.Quiescence:
		return fmt.Sprintf("quiescence %v, not %v", got.Quiescence, want.Quiescence)
	case got.MaxPieces != want.MaxPieces:
		return fmt.Sprintf("max pieces %d, not %d", got.MaxPieces, want.MaxPieces)
	}
	return fmt.Sprintf("rules %s, not %s", got.Rules, want.Rules)
}

// Standings are the scores so far and the comparisons of every arm with
// the baseline.
type Standings struct {
	Arms   []string
	Starts int
	// Scores[a][s] is arm a's score on start s (NaN: not played yet).
	Scores   [][]float64
	armIndex map[string]int
	// Running sums, kept as games arrive (a progress line each game
	// costs O(1), not a bootstrap): played games, and per arm the
	// differences with the baseline summed over the pairs so far.
	played  int
	diffSum []float64
	pairs   []int
	sprt    stats.Sequential
	// Bootstrap settings.
	resamples int
	seed      uint64
	level     float64
}

func (m *Match) newStandings() *Standings {
	st := &Standings{Starts: len(m.Suite.Starts), armIndex: map[string]int{}, sprt: m.SPRT,
		resamples: m.Resamples, seed: m.Seed, level: m.Level}
	if st.resamples == 0 {
		st.resamples = 2000
	}
	if st.seed == 0 {
		st.seed = 1
	}
	if st.level == 0 {
		st.level = 0.95
	}
	for i, a := range m.Arms {
		st.Arms = append(st.Arms, a.Spec)
		st.armIndex[a.Spec] = i
		row := make([]float64, st.Starts)
		for k := range row {
			row[k] = math.NaN()
		}
		st.Scores = append(st.Scores, row)
	}
	st.diffSum, st.pairs = make([]float64, len(m.Arms)), make([]int, len(m.Arms))
	return st
}

func (st *Standings) add(g Game) {
	a, ok := st.armIndex[g.Arm]
	if !ok || !math.IsNaN(st.Scores[a][g.Start]) {
		return
	}
	v := float64(g.Score)
	st.Scores[a][g.Start] = v
	st.played++
	if a > 0 {
		if b := st.Scores[0][g.Start]; !math.IsNaN(b) {
			st.diffSum[a] += v - b
			st.pairs[a]++
		}
		return
	}
	for o := 1; o < len(st.Scores); o++ {
		if x := st.Scores[o][g.Start]; !math.IsNaN(x) {
			st.diffSum[o] += x - v
			st.pairs[o]++
		}
	}
}

// Played counts the games finished.
func (st *Standings) Played() int { return st.played }

// Running returns arm a's mean difference with the baseline over the
// pairs finished so far and their number, kept up to date as games arrive
// (for a progress line: Comparisons recomputes every statistic, its
// bootstrap included, and belongs at the end).
func (st *Standings) Running(a int) (diff float64, pairs int) {
	if a <= 0 || a >= len(st.pairs) || st.pairs[a] == 0 {
		return 0, 0
	}
	return st.diffSum[a] / float64(st.pairs[a]), st.pairs[a]
}

// Comparisons returns every arm against the baseline (the first arm),
// with Holm-adjusted p-values and intervals of the same family-wise level
// over them (stats.Adjust).
func (st *Standings) Comparisons() []stats.Comparison {
	var out []stats.Comparison
	for a := 1; a < len(st.Arms); a++ {
		out = append(out, stats.Compare(st.Arms[a], st.Arms[0], st.Scores[a], st.Scores[0], st.resamples, st.seed, st.level, st.sprt))
	}
	stats.Adjust(out, st.resamples, st.seed, st.level)
	return out
}

// Decided tells whether the sequential test has decided every arm: its
// verdict on the leading run of starts both have played (as Compare
// reads it), without the other statistics.
func (st *Standings) Decided() bool {
	if st.sprt == nil {
		return false
	}
	var lead []float64
	for a := 1; a < len(st.Arms); a++ {
		lead = lead[:0]
		for s, v := range st.Scores[a] {
			b := st.Scores[0][s]
			if math.IsNaN(v) || math.IsNaN(b) {
				break
			}
			lead = append(lead, v-b)
		}
		if v, _, _ := st.sprt.Decide(lead); v == stats.Continue {
			return false
		}
	}
	return true
}

// Mean returns arm a's mean score over the starts it has played.
func (st *Standings) Mean(a int) (mean float64, n int) {
	for _, v := range st.Scores[a] {
		if !math.IsNaN(v) {
			mean += v
			n++
		}
	}
	if n > 0 {
		mean /= float64(n)
	}
	return mean, n
}

// ReadMatch reads a match file (at most MaxMatchFile bytes) and returns
// its games with standings: baseline first, then the arms named in order
// (in that order), then the file's other arms in the order they first
// appear. A baseline or an arm of order that the file lacks is an error.
// The order changes no number: each arm is compared with the baseline
// alone, and Holm's adjustment does not depend on the order.
func ReadMatch(path, baseline string, order ...string) (*Result, error) {
	data, err := readMatchFile(path)
	if err != nil {
		return nil, err
	}
	var h Header
	first, _, _ := bytes.Cut(data, []byte{'\n'})
	jsonline.Decode(first, &h)
	games, err := ReadGames(bytes.NewReader(data), path, nil, nil)
	if err != nil {
		return nil, err
	}
	names := []string{baseline}
	for _, a := range order {
		if !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	for _, g := range games {
		if !slices.Contains(names, g.Arm) {
			names = append(names, g.Arm)
		}
	}
	m := &Match{Suite: &Suite{Starts: make([]Start, h.Starts)}}
	for _, n := range names {
		m.Arms = append(m.Arms, Arm{Spec: n})
	}
	st := m.newStandings()
	found := false
	for _, g := range games {
		st.add(g)
		found = found || g.Arm == baseline
	}
	if !found {
		return nil, fmt.Errorf("arena: %s has no game of the baseline %s", path, baseline)
	}
	for _, a := range order {
		if !slices.ContainsFunc(games, func(g Game) bool { return g.Arm == a }) {
			return nil, fmt.Errorf("arena: %s has no game of the arm %s", path, a)
		}
	}
	return &Result{Header: h, Games: games, Standings: st}, nil
}

// readMatchFile reads a match file whole (boundedfile: a regular file of
// at most MaxMatchFile bytes, never blocking).
func readMatchFile(path string) ([]byte, error) {
	data, err := boundedfile.ReadFile(path, MaxMatchFile, "match file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("arena: %s %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return data, nil
}

// ReadMatchAny is ReadMatch with the file's first game's arm as the
// baseline.
func ReadMatchAny(path string) (*Result, error) {
	data, err := readMatchFile(path)
	if err != nil {
		return nil, err
	}
	games, err := ReadGames(bytes.NewReader(data), path, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("arena: %s has no games", path)
	}
	return ReadMatch(path, games[0].Arm)
}

// PlayArm plays one arm of m on every start of its suite (Parallel games
// at once, no file) and returns the games in suite order: what tuning
// needs of a candidate, which has no baseline.
func (m *Match) PlayArm(ctx context.Context, arm int) ([]Game, error) {
	if arm < 0 || arm >= len(m.Arms) || m.Suite == nil {
		return nil, fmt.Errorf("arena: no arm %d", arm)
	}
	games := make([]Game, len(m.Suite.Starts))
	jobs := make([]job, len(games))
	for i := range jobs {
		jobs[i] = job{arm, i}
	}
	err := m.playJobs(ctx, jobs, func() bool { return false }, func(g Game) error {
		games[g.Start] = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}
