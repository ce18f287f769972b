package beamrun

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

func init() {
	beam.RegisterType(reflect.TypeOf(arenaGame{}))
	beam.RegisterDoFn(reflect.TypeOf((*arenaFn)(nil)).Elem())
}

// ArenaOptions describe a paired match as `hatelab arena` takes it: the
// arm and suite specs (arena.ParseArms, arena.ParseSuite) and the search
// settings. Files the specs name (weights, networks, tables, a suite's
// games) are read by the Beam workers too, at the same paths.
type ArenaOptions struct {
	Arms, Suite               string
	WellWidth, WellDepth, Bar int
	BeamWidth                 int
	Quiescence                bool
	MaxPieces                 int
	// BeamWorkers are the goroutines of each game's beam search (0: 1; --workers).
	BeamWorkers int
	// Out, when set, is the match file (arena.Match.Out): games it holds
	// are not played again, new ones are appended.
	Out string
}

// Match builds the match o describes and checks it; errors are the
// user's input (IsInput), one line.
func (o ArenaOptions) Match() (*arena.Match, error) {
	r, err := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
	if err != nil {
		return nil, inputErrorf("--well-width/--well-depth/--bar: %v", err)
	}
	s, err := arena.ParseSuite(o.Suite, r)
	if err != nil {
		return nil, inputErrorf("--suite: %v", err)
	}
	as, err := arena.ParseArms(o.Arms, r)
	if err != nil {
		return nil, inputErrorf("--arms: %v", err)
	}
	if o.Out != "" {
		if err := atomicfile.CheckTarget(o.Out); err != nil {
			return nil, inputErrorf("--out: %v", err)
		}
	}
	m := &arena.Match{Suite: s, Arms: as, BeamWidth: o.BeamWidth, Quiescence: o.Quiescence, MaxPieces: o.MaxPieces,
		BeamWorkers: o.BeamWorkers, Out: o.Out}
	if err := m.Check(); err != nil {
		return nil, inputError{err}
	}
	return m, nil
}

// evalNames returns the evaluations' names of m's arms.
func evalNames(m *arena.Match) []string {
	var names []string
	for _, a := range m.Arms {
		names = append(names, a.Eval.Name())
	}
	return names
}

// arenaGame is one game to play, an element: arm on start (indexes),
// written to Out.
type arenaGame struct {
	Arm, Start int
	Out        string
}

// arenaFn plays games of the match Opt describes. Each game goes to its
// own file, a match file of one game (the header line, then the game's
// line); a game whose file is already there (a run killed after it, or a
// retried bundle) is not played again.
type arenaFn struct {
	Opt    ArenaOptions
	Header arena.Header
	Evals  []string

	m *arena.Match
}

// Setup builds the match once per worker, and checks that the worker
// sees the driver's match (the same suite wells and evaluations: the
// same files).
func (f *arenaFn) Setup() error {
	m, err := f.Opt.Match()
	if err != nil {
		return err
	}
	if h := m.Header(); h != f.Header {
		return fmt.Errorf("beamrun: the worker's match differs from the driver's (suite %s, not %s)", h.Suite, f.Header.Suite)
	}
	if got := evalNames(m); !slices.Equal(got, f.Evals) {
		return fmt.Errorf("beamrun: the worker's evaluations differ from the driver's (%q, not %q): are the weights files the same?", got, f.Evals)
	}
	f.m = m
	return nil
}

func (f *arenaFn) ProcessElement(ctx context.Context, g arenaGame) error {
	if _, err := readGameFile(ctx, g, f.Header, f.m); err == nil {
		return nil
	}
	game, err := f.m.Play(ctx, g.Arm, g.Start)
	if err != nil {
		return err
	}
	b, err := gameFile(f.Header, game)
	if err != nil {
		return err
	}
	return writeFile(ctx, g.Out, b)
}

// gameFile returns a match file of one game: h's line and g's.
func gameFile(h arena.Header, g arena.Game) ([]byte, error) {
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	gb, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	return slices.Concat(hb, []byte{'\n'}, gb, []byte{'\n'}), nil
}

// readGameFile reads the game file of g, checked as a match file of
// header h and m's arms, that holds g's game alone.
func readGameFile(ctx context.Context, g arenaGame, h arena.Header, m *arena.Match) (arena.Game, error) {
	b, err := readFile(ctx, g.Out)
	if err != nil {
		return arena.Game{}, err
	}
	games, err := arena.ReadGames(bytes.NewReader(b), g.Out, &h, m.Arms)
	if err != nil {
		return arena.Game{}, err
	}
	if len(games) != 1 || games[0].Arm != m.Arms[g.Arm].Spec || games[0].Start != g.Start {
		return arena.Game{}, fmt.Errorf("beamrun: %s does not hold the game of arm %s on start %d alone", g.Out, m.Arms[g.Arm].Spec, g.Start)
	}
	return games[0], nil
}

// maxHeaderLine bounds the first line read to check an existing match
// file before any work.
const maxHeaderLine = 1 << 16

// checkMatchFile refuses, before any work, an existing file at path that
// is not a match file of header h (a new or empty file passes): what
// `hatelab arena` refuses before it plays.
func checkMatchFile(path string, h arena.Header) error {
	f, _, err := boundedfile.Open(path, arena.MaxMatchFile, "match file")
	if errors.Is(err, fs.ErrNotExist) {
		if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
			return inputErrorf("--out %s: the folder %s does not exist", path, filepath.Dir(path))
		}
		return nil
	}
	if err != nil {
		return inputErrorf("--out: %v", err)
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxHeaderLine), maxHeaderLine).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return inputErrorf("--out %s: %v", path, err)
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	if _, err := arena.ReadGames(bytes.NewReader(line), path, &h, nil); err != nil {
		return inputErrorf("--out: %v", err)
	}
	return nil
}

// Arena plays the match o describes on Apache Beam, one game an element:
// every game (an arm on a start) that o.Out does not hold yet, each the
// game `hatelab arena` plays (arena.Match.Play), written by its worker to
// a file under work (a local folder or a Beam filesystem URL) and then
// appended by the driver to o.Out in suite order, arms in their order
// within a start (`hatelab arena` appends them as they finish; no reader
// depends on the order). A run killed at any moment resumes: games in
// o.Out are skipped, and games finished in work but not yet in o.Out are
// read, not played again. It returns the match and its result, standings
// over every game of the file. A line on progress (nil: none) says how
// many games are played.
func Arena(ctx context.Context, o ArenaOptions, work string, r Runner, progress io.Writer) (*arena.Match, *arena.Result, error) {
	m, err := o.Match()
	if err != nil {
		return nil, nil, err
	}
	if work == "" {
		return nil, nil, inputErrorf("beamrun: the Beam engine needs a work folder (--work DIR)")
	}
	h := m.Header()
	res := &arena.Result{Header: h}
	var out *os.File
	if o.Out != "" {
		if err := checkMatchFile(o.Out, h); err != nil {
			return nil, nil, err
		}
		games, f, err := m.OpenOut()
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		out, res.Games = f, games
	}
	jobs := pendingGames(m, res.Games, join(work, "arena-"+headerKey(h)))
	if progress != nil {
		held := ""
		if out != nil {
			held = fmt.Sprintf(" (%d games already in %s)", len(res.Games), o.Out)
		}
		fmt.Fprintf(progress, "suite %s (%s, %d starts), %d arms, beam width %d: %d games to play on Beam%s\n",
			h.SuiteSpec, h.Suite, h.Starts, len(m.Arms), h.BeamWidth, len(jobs), held)
	}
	if len(jobs) > 0 {
		p, s := beam.NewPipelineWithRoot()
		fn := &arenaFn{Opt: o, Header: h, Evals: evalNames(m)}
		// The reshuffle lets a runner spread the games over its Beam workers
		// (and Prism split a bundle of them among its threads).
		beam.ParDo0(s, fn, beam.Reshuffle(s, beam.CreateList(s, jobs)))
		if err := r.Execute(ctx, p); err != nil {
			return nil, nil, err
		}
	}
	for _, j := range jobs {
		g, err := readGameFile(ctx, j, h, m)
		if err != nil {
			return nil, nil, err
		}
		if out != nil {
			if err := arena.AppendGame(out, g); err != nil {
				return nil, nil, err
			}
		}
		res.Games = append(res.Games, g)
	}
	for _, j := range jobs {
		removeGlob(ctx, j.Out)
	}
	if len(jobs) > 0 && !strings.Contains(work, "://") {
		os.Remove(join(work, "arena-"+headerKey(h))) // the folder, when empty
	}
	res.Standings = m.Tally(res.Games)
	return m, res, nil
}

// pendingGames returns the games of m that done lacks, in suite order
// (arms in their order within a start), with their files in dir.
func pendingGames(m *arena.Match, done []arena.Game, dir string) []arenaGame {
	have := map[string]bool{}
	for _, g := range done {
		have[fmt.Sprintf("%s\x00%d", g.Arm, g.Start)] = true
	}
	var jobs []arenaGame
	for s := range m.Suite.Starts {
		for a, arm := range m.Arms {
			if !have[fmt.Sprintf("%s\x00%d", arm.Spec, s)] {
				jobs = append(jobs, arenaGame{Arm: a, Start: s, Out: join(dir, fmt.Sprintf("game-%06d-%03d.jsonl", s, a))})
			}
		}
	}
	return jobs
}

// headerKey names a match's folder of game files: a hash of its header,
// so that matches of other settings never share one.
func headerKey(h arena.Header) string {
	b, _ := json.Marshal(h)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
