package bfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/internal/procstat"
)

// level expands level depth (s.cur) into the next one, in stages: start
// writing it to the level files, expand its states into the workers'
// buffers, record its numbers, look for a loop, deduplicate the children
// into the next level, and save a checkpoint when one is due. stop is set
// when the search ends here (level limit, or the levels repeat).
func (s *searcher) level(ctx context.Context, depth int) (stop bool, err error) {
	n := s.cur.size()
	// Write this level while it is being expanded.
	wait := s.writeLevel(depth)
	if s.opt.MaxLevels > 0 && depth >= s.opt.MaxLevels {
		s.res.Levels = append(s.res.Levels, Level{Level: depth, States: n, Children: s.children, BestScore: -1})
		s.res.Truncated = true
		return true, wait()
	}
	track := s.lg != nil
	childDir, err := s.prepareChildren(depth, n)
	if err != nil {
		wait()
		return false, err
	}
	if childDir != "" {
		defer os.RemoveAll(childDir)
	}
	best, err := s.expand(ctx, depth, n, track)
	if err != nil {
		wait()
		return false, err
	}
	s.record(depth, n, best)
	if s.repeats(depth, track) {
		return true, wait()
	}
	var next *level
	if s.opt.Compress && s.opt.SpillDir != "" {
		next, err = s.mergeLevel(depth)
	} else {
		next, err = s.nextLevel(depth)
		if err == nil {
			err = dedupLevel(s.c, s.workers, next)
		}
	}
	if err == nil && s.opt.Compress && s.opt.SpillDir == "" {
		// The level files keep their format: written here, from the
		// partitions, before they are compressed.
		if s.ld != nil && s.ld.keep == 0 && next.size() > 0 {
			err = s.ld.write(depth+1, next)
		}
		if err == nil {
			next, err = s.compressLevel(next)
		}
	}
	if werr := wait(); err == nil {
		err = werr
	}
	if err != nil {
		next.release() // nil when the step failed before making it
		return false, err
	}
	s.cur.release()
	s.cur = next
	disk := ""
	if _, ok := next.store.(*fileRunLevel); ok {
		disk = fmt.Sprintf(", its children's runs took %s of disk", formatBytes(s.spillBytes))
	}
	s.rep.Report(progress.Event{Job: s.job, Stage: fmt.Sprintf("level %d", depth), Done: n, Total: n, Unit: "states",
		Info: fmt.Sprintf("best %d, next %s states (%s stored, %.2f B/state%s), %s RSS", s.res.Score, humanize.Int(next.size()),
			formatBytes(next.storedBytes()), float64(next.storedBytes())/float64(max(next.size(), 1)), disk, formatBytes(procstat.CurrentRSS()))})
	return false, s.checkpoint(depth + 1)
}

// writeLevel starts writing level depth to Options.LevelDir (if set) and
// returns the function that waits for the write and gives its error.
func (s *searcher) writeLevel(depth int) (wait func() error) {
	if s.ld != nil && s.ld.keep > 0 {
		if !s.ld.kept(depth) {
			return func() error { return nil }
		}
		if fl, ok := s.cur.store.(*fileRunLevel); ok {
			// Compressed disk mode: written now, and the kept file
			// holds the level from here on (its segment files go), so
			// the disk does not hold it twice while it is expanded.
			err := s.ld.writeKept(depth, s.cur)
			if err == nil {
				var r *fileRun
				if r, err = fileRunAt(keptPath(s.ld.dir, depth), fl.r); err == nil {
					fl.r.release()
					fl.r = r
				}
			}
			return func() error { return err }
		}
		errc := make(chan error, 1)
		go func(l *level) { errc <- s.ld.writeKept(depth, l) }(s.cur)
		return func() error { return <-errc }
	}
	if _, ok := s.cur.partitioned(); s.ld == nil || !ok {
		// A compressed level was written when it was made.
		return func() error { return nil }
	}
	errc := make(chan error, 1)
	go func(l *level) { errc <- s.ld.write(depth, l) }(s.cur)
	return func() error { return <-errc }
}

// prepareChildren readies the workers' buffers for the children of level
// depth (n states): in disk mode a folder for their spill files (returned),
// in memory mode room for as many children per state as the last level had.
func (s *searcher) prepareChildren(depth int, n int64) (childDir string, err error) {
	if s.opt.SpillDir != "" {
		childDir = filepath.Join(s.opt.SpillDir, fmt.Sprintf("C%05d", depth+1))
		if err := os.MkdirAll(childDir, 0o755); err != nil {
			return "", err
		}
	}
	for _, w := range s.workers {
		w.spillDir = childDir
	}
	if s.opt.SpillDir == "" && depth > 0 {
		// Size the buffers for the children expected (the last
		// level's children per state), so appends do not copy.
		ratio := float64(s.children) / float64(s.res.Levels[depth-1].States)
		reserve(s.workers, float64(n)*ratio)
	}
	return childDir, nil
}

// expand expands the n states of level depth into the workers' buffers,
// reporting progress, and returns the level's best score.
func (s *searcher) expand(ctx context.Context, depth int, n int64, track bool) (int, error) {
	sc := scorer{c: s.c, s0: s.opt.StartScore, cells0: s.cells0, d: depth}
	best, err := expandLevel(ctx, s.c, sc, s.cur, s.workers, track, func(done int64) {
		s.rep.Report(progress.Event{Job: s.job, Stage: fmt.Sprintf("level %d", depth), Done: done, Total: n, Unit: "states",
			Info: fmt.Sprintf("best %d, %s RSS", s.res.Score, formatBytes(procstat.CurrentRSS()))})
	})
	if err != nil {
		if ctx.Err() != nil {
			return 0, s.stopped(depth, err)
		}
		return 0, err
	}
	return best, nil
}

// record adds level depth (n states, best score best) to the result: its
// row, the totals, the best score, the length and the largest level.
func (s *searcher) record(depth int, n int64, best int) {
	res := s.res
	res.Levels = append(res.Levels, Level{Level: depth, States: n, Children: s.children, BestScore: best})
	res.Expanded += n
	if best > res.Score || depth == 0 {
		res.Score = best
	}
	res.Length = depth
	if n > res.PeakStates {
		res.PeakStates, res.PeakLevel = n, depth
		res.PeakStoredBytes = s.cur.storedBytes()
	}
	s.children = 0
	for _, w := range s.workers {
		s.children += w.children
	}
	res.Children += s.children
}

// repeats runs the loop detection after level depth and reports whether
// the search ends there. While the graph of wells is small (track), a
// cycle in it means a game can repeat a well forever, each lap clearing
// lines: the result is then unbounded, and the search goes on until the
// sequence of levels (as sets of wells) repeats, so that the largest level
// is exact. Past the graph's bound, a level equal to an earlier one proves
// the same.
func (s *searcher) repeats(depth int, track bool) bool {
	res := s.res
	if track {
		for _, w := range s.workers {
			if s.lg.size() <= s.loopMax {
				s.lg.merge(w.parents, w.edges, s.loopMax)
			}
			w.parents, w.edges = w.parents[:0], w.edges[:0]
		}
		if s.lg.size() > s.loopMax {
			s.lg = nil
		} else if pieces, lines, ok := s.lg.findCycle(); ok {
			res.Unbounded, res.LoopDepth, res.LoopPieces, res.LoopLines = true, depth, pieces, lines
			s.lg = nil
			s.levelSets = map[[2]uint64]int{}
		}
	}
	if s.levelSets == nil && s.allSets != nil {
		// A level equal to an earlier one: the levels repeat forever.
		h := s.cur.setHash()
		if d0, ok := s.allSets[h]; ok {
			res.Unbounded, res.LoopDepth = true, depth
			res.PeriodStart, res.Period = d0, depth-d0
			return true
		}
		s.allSets[h] = depth
	}
	if s.levelSets != nil {
		h := s.cur.setHash()
		if d0, ok := s.levelSets[h]; ok {
			res.PeriodStart, res.Period = d0, depth-d0
			return true
		}
		s.levelSets[h] = depth
	}
	return false
}

// mergeLevel, in compressed disk mode, spills what the workers still
// buffer and merges all their runs into level depth+1.
func (s *searcher) mergeLevel(depth int) (*level, error) {
	errs := make([]error, len(s.workers))
	var wg sync.WaitGroup
	for i, w := range s.workers {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = w.spillRun(s.c) }()
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	dir := filepath.Join(s.opt.SpillDir, fmt.Sprintf("L%05d", depth+1))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return s.mergeSpills(dir)
}

// nextLevel makes the empty level depth+1: in memory mode in the arena of
// level depth-1 (released by now), in disk mode in a folder of its own.
func (s *searcher) nextLevel(depth int) (*level, error) {
	P := s.c.parts()
	if s.opt.SpillDir == "" {
		a := &s.arenas[(depth+1)&1]
		if s.opt.Compress {
			// The partitions live only until compressLevel, which
			// takes arenas[1] as scratch.
			a = &s.arenas[0]
		}
		*a = (*a).reuse(int(s.children))
		next := newMemLevel(P)
		m := next.store.(*memLevel)
		m.arena, m.shared = *a, true
		return next, nil
	}
	dl := &dirLevel{dir: filepath.Join(s.opt.SpillDir, fmt.Sprintf("L%05d", depth+1)), count: newPartArray[int64](P)}
	next := newLevel(P, dl)
	if err := os.MkdirAll(dl.dir, 0o755); err != nil {
		return next, err
	}
	return next, nil
}
