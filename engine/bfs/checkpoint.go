package bfs

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/wordbytes"
)

// Checkpoints. With Options.Checkpoint set, Search saves, between levels,
// the level it is about to expand (a level file) and everything it has
// found so far (checkpoint.json), each written to a temporary file and
// renamed into place, so a kill at any moment leaves the last complete
// checkpoint. Search with the same options and folder resumes from it, and
// gives the same result as a run that was never stopped. A finished search
// leaves its result there: running it again returns it at once.

const checkpointName = "checkpoint.json"

// checkpointVersion changes when the format does. Version 1 named
// Result.PeakStates and PeakLevel MaxWidth and MaxWidthDepth, and a level's
// number "depth": loadCheckpoint still reads it.
const checkpointVersion = 2

type checkpoint struct {
	Version       int
	Width, Height int
	Rule          string
	StartRows     []int
	StartScore    int
	Parts         int
	// Depth is the level saved in LevelFile, the next one to expand;
	// Children the children whose deduplication made it.
	Depth     int
	LevelFile string
	Children  int64
	// Done: the search finished and Result is final.
	Done bool
	// Result so far (Levels up to Depth-1); its Seconds and CPUSeconds
	// are the time spent by all runs before this point.
	Result Result
}

// checkpointFor describes the search of opt (everything but the progress).
func checkpointFor(opt Options, c *codec) checkpoint {
	ck := checkpoint{Version: checkpointVersion, Width: opt.Width, Height: opt.Height, Rule: opt.Rule.String(),
		StartScore: opt.StartScore, Parts: c.parts()}
	if opt.Start != nil {
		for r := 0; r < opt.Height+Bar; r++ {
			ck.StartRows = append(ck.StartRows, int(opt.Start[r]))
		}
	}
	return ck
}

// sameSearch reports whether two checkpoints describe the same search.
func (ck *checkpoint) sameSearch(o *checkpoint) bool {
	if ck.Version != o.Version || ck.Width != o.Width || ck.Height != o.Height || ck.Rule != o.Rule ||
		ck.StartScore != o.StartScore || ck.Parts != o.Parts || len(ck.StartRows) != len(o.StartRows) {
		return false
	}
	for i := range ck.StartRows {
		if ck.StartRows[i] != o.StartRows[i] {
			return false
		}
	}
	return true
}

// loadCheckpoint reads dir's checkpoint; nil if there is none yet.
func loadCheckpoint(dir string, want checkpoint) (*checkpoint, error) {
	b, err := os.ReadFile(filepath.Join(dir, checkpointName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bfs: checkpoint: %w", err)
	}
	var ck checkpoint
	if err := json.Unmarshal(b, &ck); err != nil {
		return nil, fmt.Errorf("bfs: checkpoint %s is damaged: %v", filepath.Join(dir, checkpointName), err)
	}
	if ck.Version == 1 {
		// The names before the glossary (Level.UnmarshalJSON reads the
		// levels' old key).
		var v1 struct {
			Result struct {
				MaxWidth      int64
				MaxWidthDepth int
			}
		}
		if err := json.Unmarshal(b, &v1); err != nil {
			return nil, fmt.Errorf("bfs: checkpoint %s is damaged: %v", filepath.Join(dir, checkpointName), err)
		}
		ck.Result.PeakStates, ck.Result.PeakLevel = v1.Result.MaxWidth, v1.Result.MaxWidthDepth
		ck.Version = checkpointVersion
	}
	if !ck.sameSearch(&want) {
		return nil, fmt.Errorf("bfs: checkpoint %s is for a %dx%d %s search from another start, not this %dx%d %s one",
			dir, ck.Width, ck.Height, ck.Rule, want.Width, want.Height, want.Rule)
	}
	if !ck.Done && (ck.LevelFile == "" || filepath.Base(ck.LevelFile) != ck.LevelFile) {
		return nil, fmt.Errorf("bfs: checkpoint %s names no level file", dir)
	}
	return &ck, nil
}

// saveCheckpoint writes level l (unless the search is done) and then the
// checkpoint, both atomically, and removes the level file it replaces.
func saveCheckpoint(dir string, ck *checkpoint, l *level) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old := ""
	if prev, err := os.ReadFile(filepath.Join(dir, checkpointName)); err == nil {
		var p checkpoint
		if json.Unmarshal(prev, &p) == nil {
			old = p.LevelFile
		}
	}
	ck.LevelFile = ""
	if !ck.Done {
		ck.LevelFile = fmt.Sprintf("frontier-%05d.bin", ck.Depth)
		if err := atomicfile.Write(filepath.Join(dir, ck.LevelFile), 0o644, func(w io.Writer) error { return writeLevel(w, l) }); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(ck, "", " ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(filepath.Join(dir, checkpointName), 0o644, b); err != nil {
		return err
	}
	if old != "" && old != ck.LevelFile && filepath.Base(old) == old {
		os.Remove(filepath.Join(dir, old))
	}
	return nil
}

// readLevelFile reads a level file into l, whose partitions are empty:
// into its arena in memory mode, else into its partition files.
func readLevelFile(path string, l *level) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var hdr [16]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != levelMagic {
		return fmt.Errorf("bfs: %s is not a level file", path)
	}
	if P := binary.LittleEndian.Uint64(hdr[8:]); P != uint64(l.parts()) {
		return fmt.Errorf("bfs: %s has %d partitions, want %d", path, P, l.parts())
	}
	counts := make([]int64, l.parts())
	total := int64(0)
	var b [8]byte
	for i := range counts {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return fmt.Errorf("bfs: %s: %w", path, err)
		}
		counts[i] = int64(binary.LittleEndian.Uint64(b[:]))
		if counts[i] < 0 || counts[i] > 1<<40 {
			return fmt.Errorf("bfs: %s: bad partition size", path)
		}
		total += counts[i]
	}
	if st, err := f.Stat(); err == nil && st.Size() != 16+8*int64(len(counts))+8*total {
		return fmt.Errorf("bfs: %s is truncated or too long", path)
	}
	if l.dir == "" && l.arena == nil {
		l.arena = newWordArena(int(total))
	}
	var scratch []uint64
	for p, n := range counts {
		var words []uint64
		if l.dir == "" {
			words = l.arena.alloc(int(n))[:n]
		} else {
			if int64(cap(scratch)) < n {
				scratch = make([]uint64, n)
			}
			words = scratch[:n]
		}
		if n > 0 {
			raw := wordbytes.Bytes(words[:n])
			if _, err := io.ReadFull(br, raw); err != nil {
				return fmt.Errorf("bfs: %s: %w", path, err)
			}
			if !wordbytes.LittleEndian {
				for i := range words {
					words[i] = binary.LittleEndian.Uint64(raw[8*i:])
				}
			}
		}
		if err := l.set(p, words); err != nil {
			return err
		}
	}
	return nil
}

// checkpointClock says when the next checkpoint is due.
type checkpointClock struct {
	every time.Duration
	last  time.Time
}

func (cc *checkpointClock) due(now time.Time) bool { return now.Sub(cc.last) >= cc.every }

// resume loads the checkpoint of Options.Checkpoint, if any: the level it
// saved becomes the one to expand and its results the results so far (or,
// for a finished search, its result is the answer).
func (s *searcher) resume() error {
	opt := &s.opt
	want := checkpointFor(*opt, s.c)
	saved, err := loadCheckpoint(opt.Checkpoint, want)
	if err != nil {
		return err
	}
	if saved != nil && saved.Done {
		r := saved.Result
		s.done = &r
		return nil
	}
	if saved != nil {
		l := newMemLevel(s.c.parts())
		if opt.SpillDir != "" {
			l.dir = filepath.Join(opt.SpillDir, fmt.Sprintf("L%05d", saved.Depth))
			if err := os.MkdirAll(l.dir, 0o755); err != nil {
				return err
			}
		}
		if err := readLevelFile(filepath.Join(opt.Checkpoint, saved.LevelFile), l); err != nil {
			l.release()
			return err
		}
		s.cur.release()
		s.cur = l
		*s.res = saved.Result
		s.res.LevelDir = opt.LevelDir
		s.prevSecond, s.prevCPU = s.res.Seconds, s.res.CPUSeconds
		s.children, s.depth0 = saved.Children, saved.Depth
		s.lg = nil // checkpoints are taken once loop tracking has ended
		s.rep.Report(progress.Event{Job: s.job, Stage: fmt.Sprintf("resumed at level %d", s.depth0), Done: 0, Total: s.cur.size(), Unit: "states"})
	}
	s.ck = &want
	s.clock = checkpointClock{every: opt.CheckpointEvery, last: time.Now()}
	return nil
}

// checkpoint saves the level about to be expanded (depth) and the results
// so far, when one is due. Nothing is saved while a loop is being tracked
// or once one is proven (the loop state is not saved).
func (s *searcher) checkpoint(depth int) error {
	if s.ck == nil || s.lg != nil || s.levelSets != nil || s.cur.size() == 0 || !s.clock.due(time.Now()) {
		return nil
	}
	ck := s.ck
	ck.Depth, ck.Children, ck.Done = depth, s.children, false
	ck.Result = *s.res
	s.stamp(&ck.Result)
	if err := saveCheckpoint(s.opt.Checkpoint, ck, s.cur); err != nil {
		return fmt.Errorf("bfs: checkpoint: %w", err)
	}
	s.clock.last = time.Now()
	return nil
}
