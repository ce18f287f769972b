// Package beam is a HATETRIS beam search: keep the best BeamWidth wells at each
// level, expand every kept well under the real AI (loop rule included, each
// well with the history of its own path), keep the best BeamWidth distinct
// children, and repeat until no child survives. The evaluation is pluggable
// (engine/eval); an optional quiescence ("bird in hand") lookahead values a
// well by the best evaluation over the wells reachable from it by
// successive single-line clears.
//
// The beam is stored flat: arrays of the kept wells (packed to 32 bytes)
// and scores, and a compacted ancestry (per level, parent and outcome
// indices, well hashes and cell counts), so that the best game can be
// rebuilt, replayed and checked against the real game at the end. Results
// are identical for any number of workers: every choice is made by a
// strict total order on (value, score, well, parent, outcome).
package beam

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// Config describes one beam search.
type Config struct {
	// Rules is the geometry (nil: the real game's 10x20, bar 4). At most
	// 16 rows below the bar.
	Rules *hatetris.Rules
	// BeamWidth is the number of wells kept at each level (pieces placed).
	BeamWidth int
	// MaxPieces stops the search after that many pieces (0: until the beam
	// dies).
	MaxPieces int
	// Quiescence turns on the bird-in-hand lookahead.
	Quiescence bool
	// QuiescenceCap bounds the wells one lookahead visits (0: 256).
	QuiescenceCap int
	// Eval ranks wells (nil: the hand-made evaluation, default weights).
	Eval eval.Evaluator
	// Workers is the number of goroutines (0: GOMAXPROCS, at most
	// MaxWorkers). The result does not depend on it.
	Workers int
	// Start and StartScore give the start position (nil: the empty well).
	// The AI's memory starts with the start well seen once.
	Start      *hatetris.Well
	StartScore int
	// StartHistory lists the spawn wells the AI saw before the start
	// (oldest first, repeats included; the start well itself is added as
	// usual): a start taken from the middle of a game keeps the AI's
	// memory, so the loop rule acts as it would have in that game. Nil:
	// the AI remembers only the start well.
	StartHistory []hatetris.Well
	// CheckpointDir, when set, receives a checkpoint after every level
	// (written to a temporary file and renamed), written while the next
	// level is expanded; Run returns after the last one is written.
	CheckpointDir string
	// Resume continues from the checkpoint in CheckpointDir.
	Resume bool
	// Progress receives one event per level.
	Progress progress.Reporter
	// OnLevel, when set, is called after every level (its checkpoint may
	// still be being written: it is complete when Run returns); a non-nil
	// error stops the search with that error.
	OnLevel func(LevelStats) error
	// OnKept, when set, is called after every level that kept wells (before
	// OnLevel) with the level and the kept wells, best first, and their
	// scores (the slices are the callee's); a non-nil error stops the
	// search with that error. Training-data samplers use it.
	OnKept func(level int, wells []hatetris.Well, scores []int) error
}

// LevelStats describes the beam after one level.
type LevelStats struct {
	Level    int   `json:"level"`    // pieces placed by the kept wells
	Expanded int   `json:"expanded"` // wells expanded (the previous beam)
	Children int64 `json:"children"` // children evaluated
	Kept     int   `json:"kept"`     // distinct children kept
	// BestValue and WorstValue are the values of the first and last kept.
	BestValue  float64 `json:"best_value"`
	WorstValue float64 `json:"worst_value"`
	MinScore   int     `json:"min_score"`
	MaxScore   int     `json:"max_score"`
	// ScoreCounts[i] counts the kept wells with score MinScore+i.
	ScoreCounts []int `json:"score_counts"`
	// Families counts the distinct bottom rows among the kept wells (the
	// bottom row is practically never cleared), TopFamily the wells of the
	// most common one.
	Families  int `json:"families"`
	TopFamily int `json:"top_family"`
	// LoopsAvoided counts expansions where the loop rule changed the
	// piece.
	LoopsAvoided int `json:"loops_avoided"`
	// AllRepeat counts expansions where every piece led back to a well of
	// the path (the AI then sends the least repeated one).
	AllRepeat int `json:"all_repeat"`
	// TreeNodes is the ancestry's size after compaction.
	TreeNodes int `json:"tree_nodes"`
	// Bytes estimates the search's memory after the level: the kept wells
	// (36 bytes each), the ancestry (15 bytes a node) and the workers'
	// selection pools (their capacity).
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// Result is the outcome of a search.
type Result struct {
	// Rules and StartScore describe the start; Wells[0] is the start well.
	Rules      *hatetris.Rules `json:"-"`
	StartScore int
	// Score and Pieces are those of the best game, replayed by the
	// real game's rules (they match the search's numbers).
	Score  int
	Pieces int
	// Keys and Replay (Base2048) play the best game from the start
	// position to game over.
	Keys   string
	Replay string
	// Sequence are the pieces of the game; Wells the well after each piece
	// (Wells[0] is the start).
	Sequence []hatetris.Piece
	Wells    []hatetris.Well
	// BestLevel is the level of the best kept well (the game continues
	// with the fastest way to game over after it).
	BestLevel int
	// LoopChanges counts pieces of the game the loop rule decided.
	LoopChanges int
	Seconds     float64
	Children    int64
	Levels      []LevelStats
	// Died tells whether the beam ran out of children (rather than
	// reaching MaxPieces).
	Died bool
}

// StallLevels is how many levels in a row a beam may keep exactly the same
// wells and scores before Run gives up with ErrStalled.
const StallLevels = 64

// ErrStalled is returned when the beam keeps the same wells for StallLevels
// levels: the game cannot end and cannot score.
var ErrStalled = errors.New("beam: stalled")

// keptHash fingerprints the kept wells and scores of the current level
// (the wells by the hashes the ancestry keeps).
func (s *searcher) keptHash() uint64 {
	st := s.st
	hs := s.tr.Levels[st.Level].Hash
	h := uint64(len(st.Wells))
	for i := range st.Wells {
		h = (h^hs[i])*0x9e3779b97f4a7c15 ^ uint64(st.Scores[i])
	}
	return h
}

// MaxWorkers is the most goroutines a search may be given.
const MaxWorkers = 1024

// PoolBytes is the memory of a search's candidate pools at their fullest:
// each worker keeps up to width + width/4 + 64 candidates of 48 bytes,
// besides the kept wells (32 bytes and a 4-byte score each, for the beam
// and the next one). The ancestry tree comes on top. A caller compares it
// with the memory left (internal/memlimit) before it starts a search.
func PoolBytes(width, workers int) uint64 {
	return uint64(max(workers, 1))*uint64(width+width/4+64)*48 + uint64(width)*36*2
}

// MaxWidth is the widest beam a search may keep (a candidate's index
// into the kept wells is 24 bits): BeamWidth is 1 to MaxWidth.
const MaxWidth = 1<<24 - 1

// ErrConfig is returned for an invalid configuration.
var ErrConfig = errors.New("beam: invalid configuration")

// state is everything a checkpoint holds.
type state struct {
	Key        string // configuration fingerprint
	Level      int
	Wells      []pwell
	Scores     []int32
	Tree       []level
	BestScore  int
	BestLevel  int
	BestPath   []uint8
	Children   int64
	Seconds    float64
	Stats      []LevelStats
	StartWell  hatetris.Well
	StartScore int
	Died       bool
}

// Run performs the search.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := setup(&cfg); err != nil {
		return nil, err
	}
	r := cfg.Rules
	if cfg.Resume && cfg.CheckpointDir == "" {
		return nil, fmt.Errorf("%w: resume needs a checkpoint directory", ErrConfig)
	}
	if cfg.CheckpointDir != "" {
		removeTemporaries(cfg.CheckpointDir)
		if !cfg.Resume && hasCheckpoint(cfg.CheckpointDir) {
			return nil, fmt.Errorf("%w: %s holds the checkpoint of an earlier search: resume it, or choose another folder", ErrConfig, cfg.CheckpointDir)
		}
	}
	rep := progress.Or(cfg.Progress)
	s := &searcher{cfg: cfg, r: r, rep: rep}
	s.tr.prefix = newPrefix(cfg.StartHistory)
	st, err := s.initialState()
	if err != nil {
		return nil, err
	}
	s.st = st
	if err := s.loop(ctx); err != nil {
		return nil, err
	}
	return s.finish()
}

type searcher struct {
	cfg     Config
	r       *hatetris.Rules
	rep     progress.Reporter
	st      *state
	tr      tree
	workers []*worker
	ck      ckWriter
	// famCount and famRows count the bottom rows of a level's wells
	// (families).
	famCount []int32
	famRows  []uint16
	// phases adds up the wall time of step's stages (the benchmarks read
	// it): the workers' expansion, their pools' sorting (from the first
	// worker's end of expansion to the last's end of sorting: idle cores
	// included), and the serial merge and keeping of the level.
	phases struct{ expand, compact, serial time.Duration }
}

// key fingerprints what the search's result depends on.
func (s *searcher) key() string {
	start := hatetris.Well{}
	if s.cfg.Start != nil {
		start = *s.cfg.Start
	}
	key := fmt.Sprintf("%s width=%d quiescence=%v cap=%d eval=%s start=%x/%d", s.r, s.cfg.BeamWidth,
		s.cfg.Quiescence, s.cfg.QuiescenceCap, s.cfg.Eval.Name(), hashWell(&start), s.cfg.StartScore)
	if len(s.cfg.StartHistory) > 0 {
		h := uint64(len(s.cfg.StartHistory))
		for i := range s.cfg.StartHistory {
			h = (h ^ hashWell(&s.cfg.StartHistory[i])) * 0x9e3779b97f4a7c15
		}
		key += fmt.Sprintf(" history=%x/%d", h, len(s.cfg.StartHistory))
	}
	return key
}

// loop runs levels until the search ends, then waits for the last
// checkpoint's write.
func (s *searcher) loop(ctx context.Context) error {
	err := s.levels(ctx)
	if werr := s.ck.wait(); err == nil {
		err = werr
	}
	return err
}

func (s *searcher) levels(ctx context.Context) error {
	st := s.st
	s.tr.Levels = st.Tree
	for i := 0; i < s.cfg.Workers; i++ {
		s.workers = append(s.workers, newWorker(s))
	}
	job := fmt.Sprintf("beam w=%d", s.cfg.BeamWidth)
	if s.cfg.Quiescence {
		job += " q"
	}
	var lastHash uint64
	stalled := 0
	for !st.Died && (s.cfg.MaxPieces == 0 || st.Level < s.cfg.MaxPieces) {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		ds, err := s.step(ctx)
		if err != nil {
			return err
		}
		// A beam that keeps exactly the same wells level after level (a
		// piece that spawns onto the blocks of a low bar and locks without
		// changing the well) would run forever: stop it.
		if h := s.keptHash(); h == lastHash {
			if stalled++; stalled >= StallLevels {
				return fmt.Errorf("%w: the kept wells have not changed for %d levels (level %d): the game does not end", ErrStalled, stalled, st.Level)
			}
		} else {
			lastHash, stalled = h, 0
		}
		ds.Seconds = time.Since(t0).Seconds()
		st.Seconds += ds.Seconds
		st.Stats = append(st.Stats, ds)
		st.Tree = s.tr.Levels
		if s.cfg.CheckpointDir != "" {
			if err := s.ck.save(s.cfg.CheckpointDir, st); err != nil {
				return err
			}
		}
		info := fmt.Sprintf("kept %d, score %s, best %d", ds.Kept, progress.IntRange(ds.MinScore, ds.MaxScore), st.BestScore)
		if st.Died {
			info = fmt.Sprintf("beam died, best %d", st.BestScore)
		}
		s.rep.Report(progress.Event{Job: job, Stage: fmt.Sprintf("level %d", ds.Level),
			Done: int64(ds.Level), Total: int64(s.cfg.MaxPieces), Unit: "levels", Info: info})
		if s.cfg.OnKept != nil && !st.Died {
			if err := s.onKept(); err != nil {
				return err
			}
		}
		if s.cfg.OnLevel != nil {
			if err := s.cfg.OnLevel(ds); err != nil {
				return err
			}
		}
	}
	s.rep.Report(progress.Event{Job: job, Stage: "done", Done: int64(st.Level), Total: int64(st.Level),
		Unit: "levels", Info: fmt.Sprintf("best %d", st.BestScore), Finished: true})
	return nil
}

// onKept hands the kept wells to Config.OnKept.
func (s *searcher) onKept() error {
	st := s.st
	wells := make([]hatetris.Well, len(st.Wells))
	scores := make([]int, len(st.Scores))
	for i := range wells {
		unpack(s.r, &st.Wells[i], &wells[i])
		scores[i] = int(st.Scores[i])
	}
	return s.cfg.OnKept(st.Level, wells, scores)
}

// step expands the current beam into the next one. A cancelled context
// stops it between chunks of parents, leaving the state as it was.
func (s *searcher) step(ctx context.Context) (LevelStats, error) {
	st := s.st
	d := st.Level
	n := len(st.Wells)
	var next atomic.Int64
	const chunk = 32
	var wg sync.WaitGroup
	share := poolShare(s.cfg.BeamWidth, len(s.workers))
	var firstDone atomic.Int64 // ns after t0 when the first worker ran out of parents
	t0 := time.Now()
	for _, w := range s.workers {
		w.begin()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n || ctx.Err() != nil {
					break
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					w.expand(d, i)
				}
			}
			firstDone.CompareAndSwap(0, int64(time.Since(t0)))
			w.pool.finish(share)
		}()
	}
	wg.Wait()
	t1 := time.Now()
	s.phases.expand += time.Duration(firstDone.Load())
	s.phases.compact += t1.Sub(t0) - time.Duration(firstDone.Load())
	defer func() { s.phases.serial += time.Since(t1) }()
	if err := ctx.Err(); err != nil {
		return LevelStats{}, err
	}
	ds := LevelStats{Level: d + 1, Expanded: n}
	pools := make([]*pool, len(s.workers))
	for i, w := range s.workers {
		pools[i] = &w.pool
		ds.Children += w.children
		ds.LoopsAvoided += w.loops
		ds.AllRepeat += w.allRepeat
	}
	wells := make([]pwell, 0, min(s.cfg.BeamWidth, n*8+16))
	scores := make([]int32, 0, cap(wells))
	var lv level
	lv.Parent = make([]uint32, 0, cap(wells))
	lv.Move = make([]uint8, 0, cap(wells))
	merge(pools, s.cfg.BeamWidth, func(c *cand) {
		if len(wells) == 0 {
			ds.BestValue = c.value
		}
		ds.WorstValue = c.value
		wells = append(wells, c.well)
		scores = append(scores, c.score)
		lv.Parent = append(lv.Parent, c.parent())
		lv.Move = append(lv.Move, c.move())
	})
	s.wellKeys(&lv, wells)
	for _, w := range s.workers {
		w.pool.c = w.pool.c[:0]
	}
	if s.keepLevel(&ds, lv, wells, scores) {
		for _, w := range s.workers {
			ds.Bytes += int64(cap(w.pool.c)) * int64(unsafe.Sizeof(cand{}))
		}
	}
	return ds, nil
}

// wellKeys fills the hashes and cell counts of lv's nodes from their
// wells, on the workers when there are many.
func (s *searcher) wellKeys(lv *level, wells []pwell) {
	lv.Hash = make([]uint64, len(wells))
	lv.Cells = make([]uint16, len(wells))
	fill := func(lo, hi int) {
		var w hatetris.Well
		for i := lo; i < hi; i++ {
			unpack(s.r, &wells[i], &w)
			lv.Hash[i], lv.Cells[i] = hashWell(&w), uint16(cellsOf(&w))
		}
	}
	const chunk = 4096
	nw := min(len(s.workers), (len(wells)+chunk-1)/chunk)
	if nw <= 1 {
		fill(0, len(wells))
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(wells) {
					return
				}
				fill(lo, min(lo+chunk, len(wells)))
			}
		}()
	}
	wg.Wait()
}

// poolShare is how many of its best children a worker's pool sorts for
// merge at the end of a level: its expected share of the next beam, with
// room (merge sorts the rest of a pool that gives more). A variable, so
// that tests can make merge sort the rest often.
var poolShare = func(width, workers int) int { return 2*width/workers + 1024 }

// initialState returns the search's first state: the checkpoint's when
// Config.Resume is set (refused if another search made it), else the
// start well's level.
func (s *searcher) initialState() (*state, error) {
	cfg, r := s.cfg, s.r
	if cfg.Resume {
		st, err := loadCheckpoint(cfg.CheckpointDir)
		if err != nil {
			return nil, err
		}
		if st.Key != s.key() {
			return nil, fmt.Errorf("%w: checkpoint was made with %s, not %s", ErrConfig, st.Key, s.key())
		}
		return st, nil
	}
	start := hatetris.Well{}
	if cfg.Start != nil {
		start = *cfg.Start
	}
	if r.IsOver(&start) || cfg.StartScore < 0 {
		return nil, fmt.Errorf("%w: start well is not live", ErrConfig)
	}
	st := &state{Key: s.key(), StartWell: start, StartScore: cfg.StartScore, BestScore: cfg.StartScore}
	st.Wells = []pwell{pack(r, &start)}
	st.Scores = []int32{int32(cfg.StartScore)}
	var root level
	root.push(0, 0, hashWell(&start), cellsOf(&start))
	st.Tree = []level{root}
	return st, nil
}

// keepLevel makes the kept wells (best first, with their scores and
// their tree level lv) the beam's next level, ds.Level, and fills ds's
// statistics of it: kept, tree nodes, bytes of the wells and the ancestry,
// scores, families, and the best game so far. It reports false when
// nothing was kept (the beam died).
func (s *searcher) keepLevel(ds *LevelStats, lv level, wells []pwell, scores []int32) bool {
	st := s.st
	st.Children += ds.Children
	ds.Kept = len(wells)
	if len(wells) == 0 {
		st.Died = true
		ds.TreeNodes = s.tr.nodes()
		return false
	}
	s.tr.Levels = append(s.tr.Levels, lv)
	s.tr.compact()
	st.Level = ds.Level
	st.Wells, st.Scores = wells, scores
	ds.TreeNodes = s.tr.nodes()
	ds.Bytes = int64(len(wells))*int64(unsafe.Sizeof(pwell{})+4) + int64(ds.TreeNodes)*15
	// Score distribution, families, best game.
	ds.MinScore, ds.MaxScore = int(scores[0]), int(scores[0])
	bestI := 0
	for i, sc := range scores {
		ds.MinScore = min(ds.MinScore, int(sc))
		if int(sc) > ds.MaxScore {
			ds.MaxScore, bestI = int(sc), i
		}
	}
	ds.ScoreCounts = make([]int, ds.MaxScore-ds.MinScore+1)
	for _, sc := range scores {
		ds.ScoreCounts[int(sc)-ds.MinScore]++
	}
	ds.Families, ds.TopFamily = s.families(wells)
	if ds.MaxScore >= st.BestScore {
		st.BestScore, st.BestLevel = ds.MaxScore, st.Level
		st.BestPath = s.tr.path(st.Level, bestI)
	}
	return true
}

// families counts the distinct bottom rows of wells and the wells of
// the most common one.
func (s *searcher) families(wells []pwell) (families, top int) {
	if s.famCount == nil {
		s.famCount = make([]int32, 1<<16)
	}
	bottom := s.r.Depth - s.r.Bar - 1
	for i := range wells {
		b := wells[i][bottom]
		if s.famCount[b] == 0 {
			s.famRows = append(s.famRows, b)
		}
		s.famCount[b]++
	}
	for _, b := range s.famRows {
		top = max(top, int(s.famCount[b]))
		s.famCount[b] = 0
	}
	families = len(s.famRows)
	s.famRows = s.famRows[:0]
	return families, top
}

// finish rebuilds, completes and checks the best game.
func (s *searcher) finish() (*Result, error) {
	st := s.st
	g, err := RebuildAfter(s.r, &st.StartWell, st.StartScore, s.cfg.StartHistory, st.BestPath)
	if err != nil {
		return nil, err
	}
	if g.Score < st.BestScore {
		return nil, fmt.Errorf("beam: rebuilt game scores %d, the search found %d", g.Score, st.BestScore)
	}
	g.BestLevel = st.BestLevel
	g.Seconds = st.Seconds
	g.Children = st.Children
	g.Levels = st.Stats
	g.Died = st.Died
	return g, nil
}

// Rebuild plays the outcomes path (indices into the real AI's outcomes,
// as the search numbers them) from the start position, then ends the game
// as fast as possible (a game-ending outcome if there is one, else the
// tallest stack), encodes the keys and checks them with the real game.
func Rebuild(r *hatetris.Rules, start *hatetris.Well, startScore int, path []uint8) (*Result, error) {
	return RebuildAfter(r, start, startScore, nil, path)
}

// RebuildAfter is Rebuild for a start whose AI remembers the spawn wells
// of history (Config.StartHistory) before the start well.
func RebuildAfter(r *hatetris.Rules, start *hatetris.Well, startScore int, history []hatetris.Well, path []uint8) (*Result, error) {
	e := expander{g: hatetris.NewGenerator(r)}
	var hashes []uint64
	var cells []int
	for i := range history {
		hashes = append(hashes, hashWell(&history[i]))
		cells = append(cells, cellsOf(&history[i]))
	}
	w := *start
	score := startScore
	res := &Result{Rules: r, StartScore: startScore, Wells: []hatetris.Well{w}}
	var keys []byte
	step := func(pick func([]hatetris.Outcome) int) (bool, error) {
		hashes = append(hashes, hashWell(&w))
		cells = append(cells, cellsOf(&w))
		e.hist.reset(r, cellsOf(&w))
		for i, c := range cells {
			e.hist.add(c, hashes[i])
		}
		sent, mild, out := e.expand(&w)
		m := pick(out)
		if m < 0 || m >= len(out) {
			return false, fmt.Errorf("beam: outcome %d of %d at piece %d", m, len(out), len(res.Sequence))
		}
		k, ok := r.KeysTo(&w, sent, &out[m].Well)
		if !ok {
			return false, fmt.Errorf("beam: no keys for outcome %d at piece %d", m, len(res.Sequence))
		}
		keys = append(keys, k...)
		if sent != mild {
			res.LoopChanges++
		}
		res.Sequence = append(res.Sequence, sent)
		w = out[m].Well
		score += out[m].Lines
		res.Wells = append(res.Wells, w)
		return out[m].GameOver, nil
	}
	for i, m := range path {
		over, err := step(func([]hatetris.Outcome) int { return int(m) })
		if err != nil {
			return nil, err
		}
		if over {
			return nil, fmt.Errorf("beam: game over at piece %d of the path", i)
		}
	}
	for n := 0; ; n++ {
		if n > 100000 {
			return nil, errors.New("beam: the game does not end")
		}
		over, err := step(func(out []hatetris.Outcome) int {
			best, bestPeak := -1, 1<<30
			for i := range out {
				if out[i].GameOver {
					return i
				}
				if p := r.Peak(&out[i].Well); p < bestPeak {
					best, bestPeak = i, p
				}
			}
			return best
		})
		if err != nil {
			return nil, err
		}
		if over {
			break
		}
	}
	res.Keys = string(keys)
	// Check against the real game.
	g := hatetris.NewGameAfter(r, hatetris.HATETRIS, *start, startScore, history)
	if err := g.PressAll(res.Keys); err != nil {
		return nil, err
	}
	if !g.Over || g.Score != score || g.Placed() != len(res.Sequence) || g.Well != w ||
		hatetris.PiecesString(g.Pieces) != hatetris.PiecesString(res.Sequence) {
		return nil, fmt.Errorf("beam: the real game disagrees with the search: score %d/%d, pieces %d/%d, over %v",
			g.Score, score, g.Placed(), len(res.Sequence), g.Over)
	}
	res.Score, res.Pieces = score, len(res.Sequence)
	rep, err := replaycodec.Encode(replaycodec.Base2048, res.Keys)
	if err != nil {
		return nil, err
	}
	res.Replay = rep
	return res, nil
}
