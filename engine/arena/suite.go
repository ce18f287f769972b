package arena

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"unsafe"

	"github.com/hatelab/hatelab/datasets/beams"
	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// Start is one start position of a suite.
type Start struct {
	// Well and Score are the position the beam search starts from.
	Well  hatetris.Well
	Score int
	// History lists the spawn wells the AI saw before the start, oldest
	// first (beam.Config.StartHistory): a start from the middle of a game
	// keeps the AI's memory, so the loop rule acts as it would there. The
	// starts of one game may share its backing array: read it, never write.
	History []hatetris.Well
	// TieSeed, when not 0, breaks exact ties between wells of equal value
	// by a seeded hash (TieBreak) instead of the beam's fixed order.
	TieSeed uint64
	// Label says where the start comes from ("opening 3", "record 3711
	// piece 1200", "empty well, tie seed 2").
	Label string
}

// Suite is a named, reproducible list of start positions.
type Suite struct {
	// Spec is the suite's name, which rebuilds it (ParseSuite).
	Spec   string
	Rules  *hatetris.Rules
	Starts []Start
}

// Limits on suites.
const (
	// MaxStarts caps the starts of a suite.
	MaxStarts = 100000
	// MaxOpening caps the pieces of a seeded opening.
	MaxOpening = 1000
)

// ParseSuite builds the suite a spec names, for rules r (nil: the real
// game's 10x20 well):
//
//   - openings:N:PIECES:SEED: N seeded random openings of PIECES pieces
//     from the empty well (Openings);
//   - empty:N: the empty well under tie-break seeds 0..N-1 (seed 0 is the
//     beam's own order, the single game from the empty well);
//   - records:N:SEED: N mid-game wells drawn (seeded) from the world-record
//     replays of datasets/records, each with the AI's memory of that game
//     up to it (only on the real game's well);
//   - games:N:SEED:MINSCORE: N mid-game wells drawn (seeded) from the lab's
//     own long games (datasets/beams: its first beams.SuiteGames games, so
//     that a game added later changes no suite), among the spawns at MINSCORE lines
//     or more, each with the AI's memory (GameStarts; only on the real
//     game's well); games:N:SEED:MINSCORE:FILE draws them from the games
//     of FILE, a file of the same form (at most MaxGamesFile bytes);
//   - distinct:SUITE, SUITE an openings:, records: or games: spec of N
//     starts: the first N distinct starts (Duplicates), in draw order and
//     with their labels, of SUITE's draws.
//
// Why distinct: records: and games: draw their starts independently, with
// replacement, and openings: of very few pieces meet the same wells, so
// such a suite can repeat a start, which every arm then plays twice (the
// match counts every draw; CountOnce reads it with each start once). A
// distinct: suite holds each start once. It is a spec of its own, so every
// suite already played keeps its spec and its ID. Every kind's draws are
// prefix-stable (the first n starts of SUITE drawn with more than n are
// the n starts SUITE names with N = n), so distinct: draws SUITE's stream
// with N, 2N, 4N, ... starts until N of them are distinct, and fails,
// saying how many it found, when MaxStarts draws hold fewer. The empty:
// kind never repeats a start and distinct: of distinct: would be the same
// suite: both are refused.
//
// Errors are one line and name the part of the spec that is wrong.
func ParseSuite(spec string, r *hatetris.Rules) (*Suite, error) {
	if r == nil {
		r = hatetris.Standard()
	}
	if kind, inner, _ := strings.Cut(strings.TrimSpace(spec), ":"); kind == "distinct" {
		return parseDistinct(spec, inner, r)
	}
	p, err := parsePlain(spec, spec, r)
	if err != nil {
		return nil, err
	}
	starts, err := p.draw(p.count)
	if err != nil {
		return nil, err
	}
	return &Suite{Spec: p.spec, Rules: r, Starts: starts}, nil
}

// Kind is the kind of suite spec draws from (openings, empty, records,
// games; "" for an empty spec), looking through a distinct: modifier and
// the spaces ParseSuite ignores: distinct:records:600:1 is of kind
// records. It checks nothing else (ParseSuite does).
func Kind(spec string) string {
	kind, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if kind == "distinct" {
		kind, _, _ = strings.Cut(strings.TrimSpace(rest), ":")
	}
	return kind
}

// plainSuite is a parsed spec of a kind other than distinct:.
type plainSuite struct {
	spec  string // the canonical spec
	count int    // its N
	// draw builds the first m starts of the spec's draws: the suite's own
	// starts for m = count (every kind's draws are prefix-stable).
	draw func(m int) ([]Start, error)
}

// parsePlain checks spec, a spec of one of the kinds openings:, empty:,
// records: and games:, for rules r; its errors name the suite name (spec
// itself, or the distinct: spec around it).
func parsePlain(spec, name string, r *hatetris.Rules) (*plainSuite, error) {
	parts := strings.Split(strings.TrimSpace(spec), ":")
	if parts[0] == "games" && len(parts) > 5 { // a FILE with ':' in it
		parts = append(parts[:4], strings.Join(parts[4:], ":"))
	}
	num := func(i int, what string, lo, hi uint64) (uint64, error) {
		v, err := flags.ParseUnsigned(parts[i]) // no leading zeros: 02 is not 2
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("suite %q: %s %q: want a whole number from %d to %d, no leading zeros", name, what, parts[i], lo, hi)
		}
		return v, nil
	}
	want := map[string]int{"openings": 4, "empty": 2, "records": 3, "games": 4}
	n, ok := want[parts[0]]
	if !ok {
		return nil, fmt.Errorf("suite %q: unknown kind %q (want openings:N:PIECES:SEED, empty:N, records:N:SEED, games:N:SEED:MINSCORE[:FILE] or distinct:SUITE)", name, parts[0])
	}
	if parts[0] == "games" && len(parts) == 5 {
		n = 5
	}
	if len(parts) != n {
		return nil, fmt.Errorf("suite %q: %s takes %d fields separated by ':', got %d", name, parts[0], n-1, len(parts)-1)
	}
	count, err := num(1, "number of starts", 1, MaxStarts)
	if err != nil {
		return nil, err
	}
	p := &plainSuite{spec: strings.Join(parts, ":"), count: int(count)}
	switch parts[0] {
	case "openings":
		pieces, err := num(2, "pieces", 0, MaxOpening)
		if err != nil {
			return nil, err
		}
		seed, err := num(3, "seed", 0, 1<<63)
		if err != nil {
			return nil, err
		}
		p.draw = func(m int) ([]Start, error) {
			// Each opening keeps its spawn wells as its memory: checked
			// before any is drawn (openings:100000:1000:1 would take about
			// 6 GiB).
			need := uint64(m) * (pieces + 2) * uint64(unsafe.Sizeof(hatetris.Well{})) * 2
			if err := memlimit.Check(fmt.Sprintf("suite %q (%d openings of %d pieces, each with its memory)", name, m, pieces), need); err != nil {
				return nil, err
			}
			return Openings(r, m, int(pieces), seed)
		}
	case "empty":
		p.draw = func(m int) ([]Start, error) {
			starts := make([]Start, 0, m)
			for i := range m {
				starts = append(starts, Start{TieSeed: uint64(i), Label: fmt.Sprintf("empty well, tie seed %d", i)})
			}
			return starts, nil
		}
	case "records":
		seed, err := num(2, "seed", 0, 1<<63)
		if err != nil {
			return nil, err
		}
		if *r != *hatetris.Standard() {
			return nil, fmt.Errorf("suite %q: record wells exist only on the real game's 10x20 well", name)
		}
		p.draw = func(m int) ([]Start, error) { return RecordStarts(m, seed) }
	case "games":
		seed, err := num(2, "seed", 0, 1<<63)
		if err != nil {
			return nil, err
		}
		minScore, err := num(3, "minimum score", 0, 1<<20)
		if err != nil {
			return nil, err
		}
		if *r != *hatetris.Standard() {
			return nil, fmt.Errorf("suite %q: the lab's long games are on the real game's 10x20 well only", name)
		}
		var games []beams.Game
		if len(parts) == 5 {
			games, err = readGames(parts[4])
		} else {
			games, err = beams.SuitePool()
		}
		if err != nil {
			return nil, fmt.Errorf("suite %q: %w", name, err)
		}
		p.draw = func(m int) ([]Start, error) {
			starts, err := GameStarts(games, m, seed, int(minScore))
			if err != nil {
				return nil, fmt.Errorf("suite %q: %w", name, err)
			}
			return starts, nil
		}
	}
	return p, nil
}

// parseDistinct builds the suite distinct:INNER (ParseSuite): INNER's
// draws, N, 2N, 4N, ... of them up to MaxStarts, until they hold N
// distinct starts, of which it keeps the first N.
func parseDistinct(spec, inner string, r *hatetris.Rules) (*Suite, error) {
	inner = strings.TrimSpace(inner)
	switch kind, _, _ := strings.Cut(inner, ":"); kind {
	case "":
		return nil, fmt.Errorf("suite %q: distinct: wants a suite after it (distinct:records:N:SEED, distinct:games:N:SEED:MINSCORE[:FILE] or distinct:openings:N:PIECES:SEED)", spec)
	case "empty":
		return nil, fmt.Errorf("suite %q: distinct:empty: is refused: empty:N never repeats a start (each has its own tie seed)", spec)
	case "distinct":
		return nil, fmt.Errorf("suite %q: distinct:distinct: is refused: distinct: takes a suite of another kind (openings:, records: or games:)", spec)
	}
	p, err := parsePlain(inner, spec, r)
	if err != nil {
		return nil, err
	}
	for m := p.count; ; m = min(2*m, MaxStarts) {
		drawn, err := p.draw(m)
		if err != nil {
			return nil, err
		}
		dup := Duplicates(&Suite{Starts: drawn})
		starts := make([]Start, 0, p.count)
		for i, j := range dup {
			if j < 0 && len(starts) < p.count {
				starts = append(starts, drawn[i])
			}
		}
		if len(starts) == p.count {
			return &Suite{Spec: "distinct:" + p.spec, Rules: r, Starts: starts}, nil
		}
		if m >= MaxStarts {
			noun := "starts"
			if len(starts) == 1 {
				noun = "start"
			}
			return nil, fmt.Errorf("suite %q: only %d distinct %s in the first %d draws", spec, len(starts), noun, m)
		}
	}
}

// ID is a short fingerprint of the suite's wells, scores, histories, tie
// seeds and rules: two suites with the same ID start the same games.
func (s *Suite) ID() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%d|", s.Rules, len(s.Starts))
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	well := func(w *hatetris.Well) {
		for _, row := range w {
			put(uint64(row))
		}
	}
	for i := range s.Starts {
		st := &s.Starts[i]
		well(&st.Well)
		put(uint64(st.Score))
		put(st.TieSeed)
		put(uint64(len(st.History)))
		for j := range st.History {
			well(&st.History[j])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Openings are hatetris.Openings (n seeded random openings of the given
// pieces from the empty well against HATETRIS, loop rule included, the
// player picking uniformly among the live outcomes) as starts: each keeps
// its opening's spawn wells as its History. The first n openings of a
// longer list are the n openings (distinct: suites rely on it).
func Openings(r *hatetris.Rules, n, pieces int, seed uint64) ([]Start, error) {
	opens := hatetris.Openings(r, n, pieces, seed)
	out := make([]Start, len(opens))
	for i, o := range opens {
		out[i] = Start{Well: o.Well, Score: o.Score, History: o.Spawns, Label: fmt.Sprintf("opening %d", i)}
	}
	return out, nil
}

// RecordGame is one world record replayed: its name and its spawn steps.
type RecordGame struct {
	Name  string
	Steps []hatetris.Step
}

// RecordGames replays the primary line of every world record of
// datasets/records played against HATETRIS with at least one line, in
// file order (records.Record.Play).
func RecordGames() ([]RecordGame, error) {
	recs, err := records.WorldRecords()
	if err != nil {
		return nil, err
	}
	var out []RecordGame
	for _, rec := range recs {
		if rec.AI != "HATETRIS" || rec.Score < 1 {
			continue
		}
		_, g, err := rec.Play()
		if err != nil {
			return nil, err
		}
		out = append(out, RecordGame{Name: rec.Name, Steps: g.Steps})
	}
	return out, nil
}

// RecordStarts draws n mid-game starts from the world records (seeded):
// a record uniformly, then one of its spawns (after the first) uniformly;
// each start is the well the piece spawned into, its score, and the AI's
// memory of the game before it. The first n starts of a longer draw of the
// same seed are the n starts (distinct: suites rely on it).
func RecordStarts(n int, seed uint64) ([]Start, error) {
	games, err := RecordGames()
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("records: no world record to draw wells from")
	}
	rng := rand.New(rand.NewPCG(seed, 0x7265636f7264))
	out := make([]Start, 0, n)
	spawns := make([][]hatetris.Well, len(games)) // each game's spawn wells, made once
	for range n {
		i := rng.IntN(len(games))
		g := &games[i]
		k := 1 + rng.IntN(len(g.Steps)-1)
		if spawns[i] == nil {
			spawns[i] = spawnWells(g.Steps)
		}
		out = append(out, Start{Well: g.Steps[k].Before, Score: g.Steps[k].Score, History: spawns[i][:k:k],
			Label: fmt.Sprintf("record %s piece %d", g.Name, k)})
	}
	return out, nil
}

// spawnWells lists the wells the game's pieces spawned into. The starts
// of one game share it as their History, each the prefix before its spawn
// (capped, so that an append copies): a suite's memory grows with its games'
// lengths, not with its starts times their depth.
func spawnWells(steps []hatetris.Step) []hatetris.Well {
	ws := make([]hatetris.Well, len(steps))
	for j := range steps {
		ws[j] = steps[j].Before
	}
	return ws
}

// MaxGamesFile bounds the games file of a games:N:SEED:MINSCORE:FILE suite.
const MaxGamesFile = 64 << 20

func readGames(path string) ([]beams.Game, error) {
	b, err := boundedfile.ReadFile(path, MaxGamesFile, "games file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("games file %s %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	return beams.Parse(bytes.NewReader(b), path)
}

// RecordWells is the set of every well a piece spawned into in the
// world-record replays (RecordGames): the deep test set, which no training
// well and no games: start may come from. The records are embedded, so the
// set is built once; callers read it, never write it.
func RecordWells() (map[hatetris.Well]bool, error) { return recordWells() }

var recordWells = sync.OnceValues(func() (map[hatetris.Well]bool, error) {
	games, err := RecordGames()
	if err != nil {
		return nil, err
	}
	set := make(map[hatetris.Well]bool)
	for _, g := range games {
		for _, st := range g.Steps {
			set[st.Before] = true
		}
	}
	return set, nil
})

// GameStarts draws n mid-game starts (seeded) from games, long games from
// the empty well of the real game's well (their Base2048 replays): a game
// uniformly among those with a spawn at minScore lines or more, then one
// such spawn (after the first) uniformly; each start is the well the piece
// spawned into, its score and the AI's memory of the game before it.
// Spawns whose well occurs in a world-record replay (RecordWells) are never
// drawn, so that a games: suite shares no start with a records: one. The
// first n starts of a longer draw of the same seed are the n starts
// (distinct: suites rely on it).
func GameStarts(games []beams.Game, n int, seed uint64, minScore int) ([]Start, error) {
	excluded, err := RecordWells()
	if err != nil {
		return nil, err
	}
	type game struct {
		name   string
		steps  []hatetris.Step
		ks     []int           // the spawns that may be drawn
		spawns []hatetris.Well // spawnWells(steps), made when first drawn
	}
	var pool []game
	for i, gm := range games {
		keys, err := replaycodec.Decode(replaycodec.Base2048, gm.Replay)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		g, err := hatetris.Play(hatetris.Standard(), hatetris.HATETRIS, keys)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		gg := game{name: fmt.Sprintf("game %d (%s, %d lines)", i+1, gm.Evaluation, g.Score), steps: g.Steps}
		for k := 1; k < len(g.Steps); k++ {
			if g.Steps[k].Score >= minScore && !excluded[g.Steps[k].Before] {
				gg.ks = append(gg.ks, k)
			}
		}
		if len(gg.ks) > 0 {
			pool = append(pool, gg)
		}
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("no game has a spawn at %d lines or more", minScore)
	}
	rng := rand.New(rand.NewPCG(seed, 0x67616d6573))
	out := make([]Start, 0, n)
	for range n {
		g := &pool[rng.IntN(len(pool))]
		k := g.ks[rng.IntN(len(g.ks))]
		if g.spawns == nil {
			g.spawns = spawnWells(g.steps)
		}
		out = append(out, Start{Well: g.steps[k].Before, Score: g.steps[k].Score, History: g.spawns[:k:k],
			Label: fmt.Sprintf("%s piece %d", g.name, k)})
	}
	return out, nil
}
