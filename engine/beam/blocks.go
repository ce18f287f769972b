package beam

import (
	"context"
	"fmt"
	"runtime"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// Building blocks for distributed engines (dist/beamrun). A beam level
// splits into a parallel part, the expansion and evaluation of blocks of
// parents (BlockExpander), and a serial part, kept by a Driver: the beam
// itself (best first), the ancestry that gives each parent its path
// history and rebuilds the best game, and the statistics. Between them,
// the engine keeps the first BeamWidth distinct children in the strict
// order (Order, SameKey), each with its smallest parent: exactly the wells
// Run keeps.

// Parent is a kept well handed to a BlockExpander: its index in the beam
// (best first), its packed well, its score and its path history (the
// hashes of the wells on its path that a child could repeat).
type Parent struct {
	Index uint32
	Well  [rowsMax]uint16
	Score int32
	Hist  []uint64
}

// Cand is a child competing for a place in the next beam: its value,
// score, packed well and From = parent index << 8 | outcome index.
type Cand struct {
	Value float64
	Score int32
	From  uint32
	Well  [rowsMax]uint16
}

func (c *Cand) cand() cand {
	return cand{value: c.Value, score: c.Score, from: c.From, well: pwell(c.Well)}
}

func fromCand(c *cand) Cand {
	return Cand{Value: c.value, Score: c.score, From: c.from, Well: [rowsMax]uint16(c.well)}
}

// Order is the beam's strict total order: higher value first, then higher
// score, then the smaller well (rows from the top), then the smaller
// From. Negative when a comes first.
func Order(a, b *Cand) int {
	x, y := a.cand(), b.cand()
	return order(&x, &y)
}

// SameKey reports whether a and b are the same well with the same score
// (such children have the same value: the beam keeps the first in Order).
func SameKey(a, b *Cand) bool { return a.Score == b.Score && a.Well == b.Well }

// KeyHash hashes a child's (well, score), for partitioning children so
// that copies of one meet.
func KeyHash(c *Cand) uint64 {
	h := uint64(c.Score)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	for i := 0; i < rowsMax; i += 4 {
		v := uint64(c.Well[i]) | uint64(c.Well[i+1])<<16 | uint64(c.Well[i+2])<<32 | uint64(c.Well[i+3])<<48
		h = (h ^ v) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// setup checks cfg and fills its defaults: Run's and the block API's
// (NewBlockExpander, NewDriver) one check.
func setup(cfg *Config) error {
	if cfg.Rules == nil {
		cfg.Rules = hatetris.Standard()
	}
	r := cfg.Rules
	if cfg.BeamWidth < 1 || cfg.BeamWidth > MaxWidth {
		return fmt.Errorf("%w: beam width %d (want 1 to %d)", ErrConfig, cfg.BeamWidth, MaxWidth)
	}
	if r.Depth-r.Bar > rowsMax {
		return fmt.Errorf("%w: %d rows below the bar (at most %d)", ErrConfig, r.Depth-r.Bar, rowsMax)
	}
	if cfg.MaxPieces < 0 {
		return fmt.Errorf("%w: max pieces %d", ErrConfig, cfg.MaxPieces)
	}
	if cfg.Eval == nil {
		cfg.Eval = eval.NewHand(eval.DefaultWeights())
	}
	if c, ok := cfg.Eval.(eval.GeometryChecker); ok {
		if err := c.Check(r); err != nil {
			return fmt.Errorf("%w: %v", ErrConfig, err)
		}
	}
	if cfg.QuiescenceCap <= 0 {
		cfg.QuiescenceCap = 256
	}
	if cfg.Workers < 0 || cfg.Workers > MaxWorkers {
		return fmt.Errorf("%w: %d workers (want 0 for all cores, or 1 to %d)", ErrConfig, cfg.Workers, MaxWorkers)
	}
	if cfg.Workers == 0 {
		cfg.Workers = min(runtime.GOMAXPROCS(0), MaxWorkers)
	}
	return nil
}

// BlockExpander expands blocks of parents and keeps the best BeamWidth
// distinct children of each block, as one of Run's workers does. Not
// safe for concurrent use.
type BlockExpander struct {
	w *worker
}

// NewBlockExpander returns an expander for cfg (only Rules, BeamWidth,
// Quiescence, QuiescenceCap and Eval matter).
func NewBlockExpander(cfg Config) (*BlockExpander, error) {
	if err := setup(&cfg); err != nil {
		return nil, err
	}
	s := &searcher{cfg: cfg, r: cfg.Rules}
	w := newWorker(s)
	w.begin()
	return &BlockExpander{w: w}, nil
}

// Begin starts a block: an empty pool, zero counters.
func (e *BlockExpander) Begin() { e.w.begin() }

// Expand offers the children of p to the block's pool. Parents must come
// in increasing Index order within a block.
func (e *BlockExpander) Expand(p *Parent) {
	w := e.w
	well := &w.well
	pw := pwell(p.Well)
	unpack(w.r, &pw, well)
	if w.pw != nil {
		w.pw.SetParent(well)
	}
	w.exp.hist.reset(w.r, cellsOf(well))
	w.exp.hist.addMixed(p.Hist)
	w.offerChildren(int(p.Index), well, int(p.Score))
}

// Finish ends the block: its best BeamWidth distinct children, best
// first, the children evaluated, the expansions the loop rule changed and
// those where every piece repeated a path well.
func (e *BlockExpander) Finish() (kept []Cand, children int64, loops, allRepeat int) {
	w := e.w
	w.pool.compact()
	kept = make([]Cand, len(w.pool.c))
	for i := range w.pool.c {
		kept[i] = fromCand(&w.pool.c[i])
	}
	w.pool.c = w.pool.c[:0]
	return kept, w.children, w.loops, w.allRepeat
}

// Driver is the serial part of a beam search run by a distributed engine:
// the beam (best first), its ancestry and the statistics, as Run keeps
// them.
type Driver struct {
	s *searcher
}

// NewDriver checks cfg as Run does and starts the search at the start
// position (or, with cfg.Resume, at the checkpoint in cfg.CheckpointDir).
func NewDriver(cfg Config) (*Driver, error) {
	if err := setup(&cfg); err != nil {
		return nil, err
	}
	if cfg.Resume && cfg.CheckpointDir == "" {
		return nil, fmt.Errorf("%w: resume needs a checkpoint directory", ErrConfig)
	}
	if cfg.CheckpointDir != "" {
		removeTemporaries(cfg.CheckpointDir)
		if !cfg.Resume && hasCheckpoint(cfg.CheckpointDir) {
			return nil, fmt.Errorf("%w: %s holds the checkpoint of an earlier search: resume it, or choose another folder", ErrConfig, cfg.CheckpointDir)
		}
	}
	r := cfg.Rules
	s := &searcher{cfg: cfg, r: r}
	st, err := s.initialState()
	if err != nil {
		return nil, err
	}
	s.st = st
	s.tr.Levels = st.Tree
	return &Driver{s: s}, nil
}

// Done reports whether the search is over: the beam died or MaxPieces
// pieces are placed.
func (d *Driver) Done() bool {
	st := d.s.st
	return st.Died || (d.s.cfg.MaxPieces != 0 && st.Level >= d.s.cfg.MaxPieces)
}

// Level is the pieces placed by the current beam; Len its wells.
func (d *Driver) Level() int { return d.s.st.Level }

// Len is the number of wells in the current beam.
func (d *Driver) Len() int { return len(d.s.st.Wells) }

// Parents returns the current beam's wells lo..hi-1 with their path
// histories.
func (d *Driver) Parents(lo, hi int) []Parent {
	s, st := d.s, d.s.st
	out := make([]Parent, 0, hi-lo)
	var h pathHist
	var w hatetris.Well
	for i := lo; i < hi; i++ {
		unpack(s.r, &st.Wells[i], &w)
		h.reset(s.r, cellsOf(&w))
		s.tr.gather(st.Level, i, &h)
		out = append(out, Parent{Index: uint32(i), Well: [rowsMax]uint16(st.Wells[i]), Score: st.Scores[i],
			Hist: append([]uint64(nil), h.hashes...)})
	}
	return out
}

// Advance makes kept (the next beam, best first: the first BeamWidth
// distinct children in Order) the current beam and records the level,
// as Run's step does; children, loops and allRepeat are the totals of the
// level's expansion. It saves a checkpoint when Config.CheckpointDir is
// set. Bytes in the statistics counts the kept wells and the ancestry
// only.
func (d *Driver) Advance(kept []Cand, children int64, loops, allRepeat int, seconds float64) (LevelStats, error) {
	s, st := d.s, d.s.st
	dep := st.Level
	ds := LevelStats{Level: dep + 1, Expanded: len(st.Wells), Children: children, LoopsAvoided: loops, AllRepeat: allRepeat}
	wells := make([]pwell, 0, len(kept))
	scores := make([]int32, 0, len(kept))
	var lv level
	for i := range kept {
		c := kept[i].cand()
		if i == 0 {
			ds.BestValue = c.value
		}
		ds.WorstValue = c.value
		wells = append(wells, c.well)
		scores = append(scores, c.score)
		lv.Parent = append(lv.Parent, c.parent())
		lv.Move = append(lv.Move, c.move())
	}
	s.wellKeys(&lv, wells)
	s.keepLevel(&ds, lv, wells, scores)
	ds.Seconds = seconds
	st.Seconds += seconds
	st.Stats = append(st.Stats, ds)
	st.Tree = s.tr.Levels
	if s.cfg.CheckpointDir != "" {
		if err := saveCheckpoint(s.cfg.CheckpointDir, st); err != nil {
			return ds, err
		}
	}
	return ds, nil
}

// KeptHash fingerprints the current beam's wells and scores (Run stops
// with ErrStalled after StallLevels equal fingerprints in a row).
func (d *Driver) KeptHash() uint64 { return d.s.keptHash() }

// Result rebuilds, completes and checks the best game, as Run does.
func (d *Driver) Result(ctx context.Context) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.s.finish()
}
