package bfs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Kept levels (Options.KeepEvery = K). Instead of every level as a level
// file, the search keeps the levels 0, K, 2K, ... in Options.LevelDir as
// compressed runs (level-NNNNN.run, the frontier file format of
// compress.go: about 2.5 bytes a state), and its meta.json (version 3)
// says K. Rebuild then rebuilds a game backward, segment by segment: the
// segment of a kept level k holds the levels k..k+K-1; its levels above k
// are searched again from level k (a search of the same options started
// from the kept level, its levels written as runs to a work folder), each
// recomputed level checked against meta.json's counts, and the game's
// state at the segment's top is walked down to level k, a parent per level
// (the same parent the all-levels rebuild picks: the first in level-file
// order, that is the least (partition, word)), and so on down to the
// start well. Every level is searched at most once more (the kept ones
// not at all): the cost is about one more search up to the target's
// level. Disk: one segment, K-1 levels as runs in the work folder,
// besides the segment search's own needs (RebuildOptions.LowDisk: none,
// the levels searched again two at a time). Several games (RebuildTargets) share the segments.
// After each level every game so far is saved atomically
// (progress-TARGET.json in the work folder): a rebuild killed and run
// again continues from the last level saved and gives the same game.

// keptPath is the file of kept level d in dir.
func keptPath(dir string, d int) string { return filepath.Join(dir, fmt.Sprintf("level-%05d.run", d)) }

// kept reports whether level d is one the writer keeps.
func (lw *levelWriter) kept(d int) bool { return d >= lw.from && d%lw.keep == 0 }

// writeKept writes level d (l, in any store) as a compressed run file,
// atomically.
func (lw *levelWriter) writeKept(d int, l *level) error {
	return atomicfile.Write(keptPath(lw.dir, d), 0o644, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if _, err := writeAnyRun(bw, lw.c, l); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// writeAnyRun writes l as a compressed frontier file whatever its store: a
// run as it is, partitions (the start level, or memory mode) as their plain
// keys sorted.
func writeAnyRun(w io.Writer, c *codec, l *level) (uint32, error) {
	switch st := l.store.(type) {
	case *runLevel:
		return writeRunFile(w, l)
	case *fileRunLevel:
		return writeFileRunFile(w, l)
	case *memLevel:
		r := sortedRun(sortedKeys(c, st))
		return writeRunFile(w, &level{P: l.P, store: &runLevel{r}})
	}
	return 0, fmt.Errorf("bfs: internal error: kept levels of a level in files of partitions")
}

// RebuildOptions configure Rebuild of a folder of kept levels.
type RebuildOptions struct {
	// WorkDir holds the rebuild's progress (a progress-TARGET.json per
	// game) and the levels of the segment being searched again (seg/;
	// mid/ of an earlier version is removed);
	// "": the folder rebuild inside the levels' folder.
	WorkDir string
	// SpillDir and MemoryBudget: search the segments in compressed disk
	// mode (Options.SpillDir); "": in memory (compressed).
	SpillDir     string
	MemoryBudget int64
	// LowDisk: keep no segment; search the levels of a segment again
	// from its kept level, two at a time: the search to level d keeps
	// level d-1 too (in disk mode its file is the search's own copy of it
	// while it is expanded, so the disk holds no more at the search's
	// widest than for level d alone), so K = 5's levels 4 and 3 come
	// from one search from 0 and levels 2 and 1 from another. The disk
	// then holds the kept levels and one search's working set, no more;
	// the levels expanded per segment grow from K-1 to about
	// (K-1)(K+1)/4: 6 at K = 5 (10 searching each level on its own),
	// about (K+1)/4 times the time. Each level found is saved: a kill
	// loses at most one search.
	LowDisk bool
	// Workers: goroutines of the segments' searches (0: all cores).
	Workers int
	// Progress receives progress events (nil: none).
	Progress progress.Reporter
	// stopAfter (tests): stop with errStopped once this many segments
	// are finished and saved (0: never), as a kill would; stopAfterLevels
	// likewise after this many levels saved.
	stopAfter, stopAfterLevels int
	// reads (tests), when set, counts the levels read for a parent.
	reads *int
}

// errStopped is the error of a rebuild stopped by RebuildOptions.stopAfter
// or stopAfterLevels.
var errStopped = errors.New("bfs: rebuild stopped (test)")

// Rebuild rebuilds one game of a search written to dir: from every level
// (level files, as Reconstruct does) or from kept levels (KeepEvery),
// segment by segment, resuming from the work folder's progress. The game
// is the one Reconstruct gives from every level of the same search.
func Rebuild(ctx context.Context, dir string, t Target, ro RebuildOptions) (*Game, error) {
	gs, err := RebuildTargets(ctx, dir, []Target{t}, ro)
	if err != nil {
		return nil, err
	}
	return gs[0], nil
}

// RebuildTargets is Rebuild of several games in one pass: from kept
// levels, a segment searched again serves every game that passes through
// it, so the longest and the highest-scoring games together cost about
// what one does.
func RebuildTargets(ctx context.Context, dir string, ts []Target, ro RebuildOptions) ([]*Game, error) {
	m, rules, c, start, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	if m.KeepEvery == 0 {
		var gs []*Game
		for _, t := range ts {
			g, err := Reconstruct(dir, t)
			if err != nil {
				return nil, err
			}
			gs = append(gs, g)
		}
		return gs, nil
	}
	kb := &keptRebuild{rebuild: rebuild{dir: dir, m: m, rules: rules, c: c, startCells: c.cells(&start), gen: hatetris.NewGenerator(rules)},
		start: start, ro: ro}
	return kb.run(ctx, ts)
}

// keptRebuild is a rebuild from kept levels.
type keptRebuild struct {
	rebuild
	start hatetris.Well
	ro    RebuildOptions
	work  string
}

// keptGame is one game being rebuilt: its target, level and score, and
// the states found so far from its target down (wells[i] at level
// depth-i; pieces[i] made wells[i] from wells[i+1]).
type keptGame struct {
	t            Target
	depth, score int
	wells        []hatetris.Well
	scores       []int
	pieces       []hatetris.Piece
}

// next is the highest level the game still needs: its target's level,
// then the level below the lowest found (-1: complete).
func (g *keptGame) next() int {
	if len(g.wells) == 0 {
		return g.depth
	}
	return g.depth - len(g.wells)
}

// rebuildProgress is progress-TARGET.json: the game found so far, from its
// target (level Depth) down to level Low, for the search of meta.json's
// checksum Meta. Sealed like meta.json.
type rebuildProgress struct {
	Version  int
	Checksum string
	Meta     string
	Target   string
	Depth    int
	Low      int
	// Rows are the wells (all their rows) from level Depth down to Low,
	// Scores their scores, Pieces the pieces (hatetris.Piece numbers)
	// that made them: Pieces[i] turns the well of level Depth-i-1 into
	// Rows[i].
	Rows   [][]int
	Scores []int
	Pieces []int
}

const progressVersion = 1

// progressPath is the progress file of target t in the work folder.
func progressPath(work string, t Target) string {
	return filepath.Join(work, "progress-"+targetName(t)+".json")
}

func targetName(t Target) string {
	if t == HighestScoring {
		return "score"
	}
	return "longest"
}

func (kb *keptRebuild) run(ctx context.Context, ts []Target) ([]*Game, error) {
	m, K := kb.m, kb.m.KeepEvery
	games := make([]*keptGame, len(ts))
	high := 0
	for i, t := range ts {
		g := &keptGame{t: t}
		g.depth, g.score = targetLevel(m, t)
		games[i], high = g, max(high, g.depth)
	}
	// Every kept level the walk needs is there, its header and size
	// right, before any work (its blocks are checked when it is read).
	for d := 0; d <= high; d += K {
		if err := kb.checkKept(d); err != nil {
			return nil, err
		}
	}
	kb.work = kb.ro.WorkDir
	if kb.work == "" {
		kb.work = filepath.Join(kb.dir, "rebuild")
	}
	if err := makeDir("--work-dir", kb.work); err != nil {
		return nil, err
	}
	for _, g := range games {
		if err := kb.load(g); err != nil {
			return nil, err
		}
	}
	segs, levels := 0, 0
	seg := filepath.Join(kb.work, "seg")
	// prev (LowDisk): the level below the one last searched again, kept
	// in seg by that search (0: none). midDir: where an earlier version
	// of LowDisk kept a segment's middle level; removed, as seg is.
	midDir, prev := filepath.Join(kb.work, "mid"), 0
	for {
		// The segment: the levels lo..top, lo kept, the others searched
		// again into seg; top is the highest level a game still needs.
		// What a kill left there is never read (nor kept once done).
		if err := removeDirs(seg, midDir); err != nil {
			return nil, err
		}
		top := -1
		for _, g := range games {
			top = max(top, g.next())
		}
		if top < 0 {
			break
		}
		lo := top / K * K
		prev = 0
		if top > lo && !kb.ro.LowDisk {
			if err := kb.recompute(ctx, lo, top, lo+1, seg); err != nil {
				return nil, err
			}
		}
		for d := top; d >= lo; d-- {
			path := keptPath(kb.dir, d)
			if d > lo {
				path = keptPath(seg, d)
				if kb.ro.LowDisk {
					var err error
					if prev, err = kb.lowDiskLevel(ctx, lo, d, prev, seg); err != nil {
						return nil, err
					}
				}
			}
			for i, g := range games {
				if g.next() != d {
					continue
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if h := sameState(games[:i], g); h != nil {
					// The same state as a game already stepped here: the
					// same parent (the least in level-file order), without
					// reading the level again.
					n := len(h.wells) - 1
					g.wells, g.scores, g.pieces = append(g.wells, h.wells[n]), append(g.scores, h.scores[n]), append(g.pieces, h.pieces[n-1])
					continue
				}
				if err := kb.step(g, d, path); err != nil {
					return nil, err
				}
			}
			if err := kb.saveAll(games); err != nil {
				return nil, err
			}
			if levels++; kb.ro.stopAfterLevels > 0 && levels >= kb.ro.stopAfterLevels {
				return nil, errStopped
			}
		}
		for _, g := range games {
			if len(g.wells) > 0 {
				kb.report(g)
			}
		}
		if err := removeDirs(seg, midDir); err != nil {
			return nil, err
		}
		segs++
		if kb.ro.stopAfter > 0 && segs >= kb.ro.stopAfter {
			return nil, errStopped
		}
	}
	out := make([]*Game, len(games))
	for i, g := range games {
		var err error
		if out[i], err = assemble(m, kb.rules, g.wells, g.scores, g.pieces); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// lowDiskLevel makes level d of the segment of kept level lo (LowDisk)
// as a run file in seg: it is there when the search before kept it (prev,
// the level below the one it searched to, 0: none); else seg is emptied
// and levels d and d-1 (when above lo) are searched again from lo. It
// returns the level kept besides d (0: none).
func (kb *keptRebuild) lowDiskLevel(ctx context.Context, lo, d, prev int, seg string) (int, error) {
	if d == prev {
		return 0, nil
	}
	if err := os.RemoveAll(seg); err != nil {
		return 0, err
	}
	from := max(d-1, lo+1)
	if err := kb.recompute(ctx, lo, d, from, seg); err != nil {
		return 0, err
	}
	if from < d {
		return from, nil
	}
	return 0, nil
}

// sameState returns the game of done (each stepped one level down, to its
// parent) that was where g is now (the same state at the same level, with
// the same score), or nil. Two games share their path below the level
// where they meet (10x8's longest and highest-scoring games from level 25
// down), and finding a parent reads the whole level.
func sameState(done []*keptGame, g *keptGame) *keptGame {
	n := len(g.wells)
	if n == 0 {
		return nil // a target: chosen by the game's own rule
	}
	for _, h := range done {
		m := len(h.wells)
		if m >= 2 && h.depth-m+1 == g.depth-n && h.wells[m-2] == g.wells[n-1] && h.scores[m-2] == g.scores[n-1] {
			return h
		}
	}
	return nil
}

// saveAll saves the progress of every game that has found a state.
func (kb *keptRebuild) saveAll(games []*keptGame) error {
	for _, g := range games {
		if len(g.wells) == 0 {
			continue // its target lies below: nothing found yet
		}
		if err := kb.save(g); err != nil {
			return err
		}
	}
	return nil
}

// removeDirs removes the folders and what they hold.
func removeDirs(dirs ...string) error {
	for _, d := range dirs {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	return nil
}

// step extends g by one level, d (g.next(), in the run file path): its
// target if it has none yet, else the parent of its lowest state.
func (kb *keptRebuild) step(g *keptGame, d int, path string) error {
	if len(g.wells) == 0 {
		w, s, err := kb.targetIn(path, d, g.score)
		if err != nil {
			return err
		}
		g.wells, g.scores = append(g.wells, w), append(g.scores, s)
		return nil
	}
	if kb.ro.reads != nil {
		*kb.ro.reads++
	}
	pw, ps, piece, err := kb.parentIn(path, d, g.wells[len(g.wells)-1], g.scores[len(g.scores)-1])
	if err != nil {
		return err
	}
	g.wells, g.scores, g.pieces = append(g.wells, pw), append(g.scores, ps), append(g.pieces, piece)
	return nil
}

// checkKept checks that kept level d is a regular file with a compressed
// run's header, of this search's partitions, as long as its header says,
// holding the states meta.json counts.
func (kb *keptRebuild) checkKept(d int) error {
	path := keptPath(kb.dir, d)
	f, st, err := boundedfile.Open(path, math.MaxInt64, "kept level file")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return inputErrorf("bfs: %s: kept level %d is missing (%v)", kb.dir, d, unwrapPath(err))
	case boundedfile.IsRefused(err):
		return inputErrorf("bfs: %s %v", path, err)
	case err != nil:
		return inputErrorf("bfs: %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	var hdr [32]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil || string(hdr[:8]) != runFileMagic {
		return inputErrorf("bfs: %s: not a compressed level file", path)
	}
	P, n, size := binary.LittleEndian.Uint64(hdr[8:]), binary.LittleEndian.Uint64(hdr[16:]), binary.LittleEndian.Uint64(hdr[24:])
	switch {
	case P != uint64(kb.c.parts()):
		return inputErrorf("bfs: %s: %d partitions, want %d (damaged, or another search's)", path, P, kb.c.parts())
	case size > 1<<44 || int64(size)+40 != st.Size():
		return inputErrorf("bfs: %s: %d bytes, its header says %d: truncated or damaged", path, st.Size(), size+40)
	case n != uint64(kb.m.Levels[d].States):
		return inputErrorf("bfs: %s: %d states, its meta.json says %d for level %d (damaged, or another search's)", path, n, kb.m.Levels[d].States, d)
	}
	return nil
}

// recompute searches the levels lo+1..top again from kept level lo,
// writing those from level from on as runs into seg, and checks every level against
// meta.json (states, children, best score): a kept level that is damaged
// in a way its checksums miss, or another search's, fails here.
func (kb *keptRebuild) recompute(ctx context.Context, lo, top, from int, seg string) error {
	m := kb.m
	rule, _ := ParseRule(m.Rule)
	opt := Options{Width: m.Width, Height: m.Height, Rule: rule, StartScore: m.StartScore, Workers: kb.ro.Workers,
		Compress: true, SpillDir: kb.ro.SpillDir, MemoryBudget: kb.ro.MemoryBudget, LevelDir: seg, KeepEvery: 1,
		MaxLevels: top, LoopWells: -1, Progress: kb.ro.Progress}
	if m.StartRows != nil {
		w := kb.start
		opt.Start = &w
	}
	s, err := newSearcher(opt)
	if err != nil {
		return err
	}
	defer s.close()
	// As in Search: a lower GC target keeps the heap close to the live
	// levels (and one segment search's buffers from piling on the last's).
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	s.job = fmt.Sprintf("rebuild %dx%d: levels %d..%d", m.Width, m.Height, lo+1, top)
	if err := s.prepare(); err != nil {
		return err
	}
	s.ld.from = from
	l, err := kb.loadKept(lo, opt.SpillDir != "")
	if err != nil {
		return err
	}
	s.cur.release()
	s.cur = l
	s.res.Levels = append([]Level(nil), m.Levels[:lo]...)
	s.children, s.depth0 = m.Levels[lo].Children, lo
	if err := s.run(ctx); err != nil {
		return err
	}
	if len(s.res.Levels) != top+1 {
		return inputErrorf("bfs: %s: the search from kept level %d ended at level %d, before level %d: a damaged or foreign kept level",
			kb.dir, lo, len(s.res.Levels)-1, top)
	}
	for d := lo; d <= top; d++ {
		got, want := s.res.Levels[d], m.Levels[d]
		if got.States != want.States || got.Children != want.Children || d < top && got.BestScore != want.BestScore {
			return inputErrorf("bfs: %s: level %d searched again from kept level %d has %d states (best %d), its meta.json %d (best %d): a damaged or foreign kept level",
				kb.dir, d, lo, got.States, got.BestScore, want.States, want.BestScore)
		}
	}
	return nil
}

// loadKept opens kept level d as the store of a search: a disk run (not
// owned: releasing it keeps the file) or a run in memory. Its file is
// checked all through, and its states against meta.json.
func (kb *keptRebuild) loadKept(d int, disk bool) (*level, error) {
	path, P := keptPath(kb.dir, d), kb.c.parts()
	var l *level
	if disk {
		r, err := openFileRunFile(path, P, nil)
		if err != nil {
			return nil, err
		}
		l = newLevel(P, &fileRunLevel{r})
	} else {
		r, err := readRunFile(path, P, nil)
		if err != nil {
			return nil, err
		}
		l = newLevel(P, &runLevel{r})
	}
	if n := l.size(); n != kb.m.Levels[d].States {
		l.release()
		return nil, inputErrorf("bfs: %s: %d states, its meta.json says %d for level %d (damaged, or another search's)", path, n, kb.m.Levels[d].States, d)
	}
	return l, nil
}

// scan calls f on every state of the run file of level d at path, in key
// order, with its partition and word, after checking the whole file and
// its states against meta.json.
func (kb *keptRebuild) scan(path string, d int, f func(part uint32, word, hi, lo uint64)) error {
	return kb.scanParallel(path, d, 1, func(_ int, p uint32, w, hi, lo uint64) { f(p, w, hi, lo) })
}

// before reports whether the state (p, w) comes before (bp, bw) in a
// level file (partitions in order, words increasing within one).
func before(p uint32, w uint64, bp uint32, bw uint64) bool { return p < bp || p == bp && w < bw }

// targetIn returns the state of level d (its run file path) that
// Reconstruct's target picks: the first in level-file order with the
// score (any when negative), and its score.
func (kb *keptRebuild) targetIn(path string, d, score int) (hatetris.Well, int, error) {
	sc := scorer{kb.c, kb.m.StartScore, kb.startCells, d}
	found := false
	var bp uint32
	var bw, bhi, blo uint64
	err := kb.scan(path, d, func(p uint32, w, hi, lo uint64) {
		if (score < 0 || sc.scoreKey(hi, lo) == score) && (!found || before(p, w, bp, bw)) {
			found, bp, bw, bhi, blo = true, p, w, hi, lo
		}
	})
	if err != nil {
		return hatetris.Well{}, 0, err
	}
	if !found {
		return hatetris.Well{}, 0, inputErrorf("bfs: %s: no state with score %d (damaged level files?)", path, score)
	}
	var well hatetris.Well
	kb.c.unpack(bhi, blo, &well)
	return well, sc.scoreKey(bhi, blo), nil
}

// parentIn returns the parent of cur (score cs) in level d (its run file
// path) that Reconstruct's parent picks: the first in level-file order.
func (kb *keptRebuild) parentIn(path string, d int, cur hatetris.Well, cs int) (hatetris.Well, int, hatetris.Piece, error) {
	sc := scorer{kb.c, kb.m.StartScore, kb.startCells, d}
	ccells := kb.c.cells(&cur)
	// Each worker keeps the first parent of the blocks it read (its own
	// generator for the AI's move); the first of theirs is the level's.
	type parent struct {
		rb    rebuild
		found bool
		p     uint32
		w     uint64
		well  hatetris.Well
		score int
		piece hatetris.Piece
	}
	ws := make([]parent, kb.scanWorkers())
	for k := range ws {
		ws[k].rb = kb.rebuild
		ws[k].rb.gen, ws[k].rb.buf = hatetris.NewGenerator(kb.rules), nil
	}
	err := kb.scanParallel(path, d, len(ws), func(k int, p uint32, w, hi, lo uint64) {
		x := &ws[k]
		if x.found && !before(p, w, x.p, x.w) {
			return
		}
		var pw hatetris.Well
		kb.c.unpack(hi, lo, &pw)
		ps := sc.scoreKey(hi, lo)
		if piece, ok := x.rb.moves(&pw, ps, &cur, cs, ccells); ok {
			x.found, x.p, x.w, x.well, x.score, x.piece = true, p, w, pw, ps, piece
		}
	})
	if err != nil {
		return hatetris.Well{}, 0, 0, err
	}
	best := -1
	for k := range ws {
		if ws[k].found && (best < 0 || before(ws[k].p, ws[k].w, ws[best].p, ws[best].w)) {
			best = k
		}
	}
	if best < 0 {
		return hatetris.Well{}, 0, 0, inputErrorf("bfs: %s: no parent of the level-%d state (damaged level files?)", path, d+1)
	}
	return ws[best].well, ws[best].score, ws[best].piece, nil
}

// scanWorkers is the number of goroutines reading a level for a parent
// (RebuildOptions.Workers; 0: GOMAXPROCS).
func (kb *keptRebuild) scanWorkers() int {
	if kb.ro.Workers > 0 {
		return kb.ro.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// scanParallel is scan with n goroutines, each reading whole blocks in no
// set order: f gets the reading goroutine's index (0..n-1) and must keep
// each one's results apart.
func (kb *keptRebuild) scanParallel(path string, d, n int, f func(k int, part uint32, word, hi, lo uint64)) error {
	r, err := openFileRunFile(path, kb.c.parts(), nil)
	if err != nil {
		return err
	}
	defer r.release()
	if r.n != kb.m.Levels[d].States {
		return inputErrorf("bfs: %s: %d states, its meta.json says %d for level %d (damaged, or another search's)", path, r.n, kb.m.Levels[d].States, d)
	}
	var next atomic.Int64
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var keys []uint64
			var buf []byte
			for {
				i := int(next.Add(1)) - 1
				if i >= len(r.blocks) {
					return
				}
				var err error
				if keys, err = r.readBlock(i, &buf, keys[:0]); err != nil {
					errs[k] = err
					next.Store(int64(len(r.blocks))) // the others stop too
					return
				}
				for j := 0; j < len(keys); j += 2 {
					p, w := kb.c.encodeKey(keys[j], keys[j+1])
					f(k, p, w, keys[j], keys[j+1])
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// load reads g's progress file in the work folder: the game found so far
// (from the target down), or nothing when there is none yet. One of
// another search, target or format is refused.
func (kb *keptRebuild) load(g *keptGame) error {
	path := progressPath(kb.work, g.t)
	atomicfile.RemoveStale(path)
	b, err := readSmallFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	bad := func(format string, a ...any) error {
		return inputErrorf("bfs: %s: %s", path, fmt.Sprintf(format, a...))
	}
	var p rebuildProgress
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&p); err != nil || dec.More() {
		return bad("not a rebuild's progress (damaged?)")
	}
	if p.Version != progressVersion || !checkSealed(&p, &p.Checksum) {
		return bad("version %d or checksum mismatch (damaged or edited)", p.Version)
	}
	if p.Meta != kb.m.Checksum || p.Target != targetName(g.t) || p.Depth != g.depth {
		return bad("the progress of another rebuild (%s game of level %d, meta %s): use another --work-dir, or remove it", p.Target, p.Depth, p.Meta)
	}
	n := len(p.Rows)
	if n == 0 && len(p.Scores) == 0 && len(p.Pieces) == 0 && p.Low == g.depth+1 {
		return nil // nothing found yet (saved so by earlier releases)
	}
	if n == 0 || n > g.depth+1 || len(p.Scores) != n || len(p.Pieces) != n-1 || p.Low != g.depth-n+1 {
		return bad("%d wells, %d scores, %d pieces from level %d down to %d do not agree", n, len(p.Scores), len(p.Pieces), g.depth, p.Low)
	}
	full := int(kb.rules.FullRow())
	var wells []hatetris.Well
	for i, rows := range p.Rows {
		if len(rows) != kb.m.Height+Bar {
			return bad("well %d has %d rows, want %d", i, len(rows), kb.m.Height+Bar)
		}
		var w hatetris.Well
		for r, v := range rows {
			if v < 0 || v >= full || r < Bar && v != 0 {
				return bad("well %d row %d: %d is not a row of this well", i, r, v)
			}
			w[r] = uint16(v)
		}
		wells = append(wells, w)
	}
	var pieces []hatetris.Piece
	for _, pc := range p.Pieces {
		if pc < 0 || pc >= int(hatetris.NumPieces) {
			return bad("piece %d out of range", pc)
		}
		pieces = append(pieces, hatetris.Piece(pc))
	}
	g.wells, g.scores, g.pieces = wells, p.Scores, pieces
	return nil
}

// save writes the game found so far to its progress file, atomically.
func (kb *keptRebuild) save(g *keptGame) error {
	p := rebuildProgress{Version: progressVersion, Meta: kb.m.Checksum, Target: targetName(g.t), Depth: g.depth,
		Low: g.depth - len(g.wells) + 1, Scores: g.scores, Rows: [][]int{}, Pieces: []int{}}
	for _, w := range g.wells {
		rows := make([]int, kb.m.Height+Bar)
		for r := range rows {
			rows[r] = int(w[r])
		}
		p.Rows = append(p.Rows, rows)
	}
	for _, pc := range g.pieces {
		p.Pieces = append(p.Pieces, int(pc))
	}
	b, err := sealJSON(&p, &p.Checksum)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(progressPath(kb.work, g.t), 0o644, b)
}

// report tells the progress: levels of the game found so far.
func (kb *keptRebuild) report(g *keptGame) {
	progress.Or(kb.ro.Progress).Report(progress.Event{Job: fmt.Sprintf("rebuild %dx%d %s", kb.m.Width, kb.m.Height, targetName(g.t)),
		Stage: fmt.Sprintf("down to level %d", g.depth-len(g.wells)+1), Done: int64(len(g.wells)), Total: int64(g.depth + 1), Unit: "levels"})
}
