package bfs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
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
// number "depth"; version 3 added Checksum (the file is sealed, see
// sealJSON: a hand edit such as "Done": true is refused) and LevelCRC (the
// checksum of the frontier file, which a version-2 level file also carries
// in its trailer). Checkpoints of versions 1 and 2, written before there
// were checksums, are still resumed, unchecked (nothing to check them
// against): refusing them would lose the searches they hold.
const checkpointVersion = 3

type checkpoint struct {
	Version       int
	Checksum      string
	Width, Height int
	Rule          string
	StartRows     []int
	StartScore    int
	Parts         int
	// Depth is the level saved in LevelFile, the next one to expand;
	// Children the children whose deduplication made it.
	Depth     int
	LevelFile string
	LevelCRC  uint32
	Children  int64
	// Done: the search finished and Result is final.
	Done bool
	// Compressed: LevelFile is a compressed run (Options.Compress,
	// frontier-NNNNN.run), not a level file.
	Compressed bool `json:",omitempty"`
	// Result so far (Levels up to Depth-1); its Seconds and CPUSeconds
	// are the time spent by all runs before this point.
	Result Result
	// legacy: read from a version before checksums (not saved).
	legacy bool
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

// loadCheckpoint reads dir's checkpoint; nil if there is none yet. Its
// errors about the file (damaged, edited, another search's) wrap ErrInput.
func loadCheckpoint(dir string, want checkpoint) (*checkpoint, error) {
	path := filepath.Join(dir, checkpointName)
	b, err := readSmallFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bfs: checkpoint: %w", err)
	}
	return parseCheckpoint(path, b, want)
}

// parseCheckpoint decodes and checks the checkpoint file path holding b.
func parseCheckpoint(path string, b []byte, want checkpoint) (*checkpoint, error) {
	var ck checkpoint
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&ck); err != nil {
		return nil, inputErrorf("bfs: checkpoint %s is damaged: %v", path, err)
	}
	if dec.More() {
		return nil, inputErrorf("bfs: checkpoint %s is damaged: data after the checkpoint", path)
	}
	switch ck.Version {
	case checkpointVersion:
		if !checkSealed(&ck, &ck.Checksum) {
			return nil, inputErrorf("bfs: checkpoint %s is damaged or was edited: checksum mismatch", path)
		}
	case 2:
		ck.Version, ck.legacy = checkpointVersion, true
	case 1:
		// The names before the glossary (Level.UnmarshalJSON reads the
		// levels' old key).
		var v1 struct {
			Result struct {
				MaxWidth      int64
				MaxWidthDepth int
			}
		}
		if err := json.Unmarshal(b, &v1); err != nil {
			return nil, inputErrorf("bfs: checkpoint %s is damaged: %v", path, err)
		}
		ck.Result.PeakStates, ck.Result.PeakLevel = v1.Result.MaxWidth, v1.Result.MaxWidthDepth
		ck.Version, ck.legacy = checkpointVersion, true
	default:
		return nil, inputErrorf("bfs: checkpoint %s has version %d; this hatelab reads 1..%d", path, ck.Version, checkpointVersion)
	}
	if !ck.sameSearch(&want) {
		return nil, inputErrorf("bfs: checkpoint %s is for a %dx%d %s search from another start, not this %dx%d %s one",
			path, ck.Width, ck.Height, ck.Rule, want.Width, want.Height, want.Rule)
	}
	// Cross-checks, for the unsealed versions too.
	r := &ck.Result
	if r.Width != ck.Width || r.Height != ck.Height || r.Rule.String() != ck.Rule || ck.Depth < 0 || ck.Children < 0 ||
		len(r.Levels) > maxLevelsSaved || ck.Depth > maxLevelsSaved {
		return nil, inputErrorf("bfs: checkpoint %s is damaged: its result does not match its search", path)
	}
	// A finished search's checkpoint names no level file (every version
	// wrote it so): "Done": true beside a frontier is an edit.
	if ck.Done && (ck.LevelFile != "" || ck.LevelCRC != 0 || r.Truncated || len(r.Levels) == 0 || !r.Unbounded && r.Length != len(r.Levels)-1) {
		return nil, inputErrorf("bfs: checkpoint %s is damaged: a finished search without its levels (or an edit)", path)
	}
	if !ck.Done && (ck.LevelFile == "" || filepath.Base(ck.LevelFile) != ck.LevelFile ||
		ck.LevelFile != frontierName(ck.Depth, ck.Compressed) || len(r.Levels) != ck.Depth) {
		return nil, inputErrorf("bfs: checkpoint %s is damaged: no level file for level %d", path, ck.Depth)
	}
	return &ck, nil
}

// frontierName is the name of the frontier file of level depth.
func frontierName(depth int, compressed bool) string {
	if compressed {
		return fmt.Sprintf("frontier-%05d.run", depth)
	}
	return fmt.Sprintf("frontier-%05d.bin", depth)
}

// maxLevelsSaved bounds the levels a checkpoint may claim.
const maxLevelsSaved = 1 << 24

// saveCheckpoint writes level l (unless the search is done) and then the
// checkpoint, both atomically, and removes the level file it replaces.
func saveCheckpoint(dir string, ck *checkpoint, l *level) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old := ""
	if prev, err := readSmallFile(filepath.Join(dir, checkpointName)); err == nil {
		var p checkpoint
		if json.Unmarshal(prev, &p) == nil {
			old = p.LevelFile
		}
	}
	ck.LevelFile, ck.LevelCRC, ck.Compressed = "", 0, false
	if !ck.Done {
		write := writeLevel
		switch l.store.(type) {
		case *runLevel:
			write, ck.Compressed = writeRunFile, true
		case *fileRunLevel:
			write, ck.Compressed = writeFileRunFile, true
		}
		ck.LevelFile = frontierName(ck.Depth, ck.Compressed)
		err := atomicfile.Write(filepath.Join(dir, ck.LevelFile), 0o644, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<20)
			crc, err := write(bw, l)
			if err != nil {
				return err
			}
			ck.LevelCRC = crc
			return bw.Flush()
		})
		if err != nil {
			return err
		}
	}
	b, err := sealJSON(ck, &ck.Checksum)
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

// readLevelFile reads a level file into l, a partitioned level whose
// partitions are empty: into its arena in memory mode, else into its
// partition files. It checks the file as verifyLevelFile does and, when
// wantCRC is not nil, that its checksum is *wantCRC (the one the
// checkpoint recorded).
func readLevelFile(path string, l *level, wantCRC *uint32) error {
	ps, ok := l.partitioned()
	if !ok {
		return fmt.Errorf("bfs: internal error: reading a level file into a compressed level")
	}
	m, inMemory := ps.(*memLevel)
	f, br, h, err := openLevelFile(path, l.parts())
	if err != nil {
		return err
	}
	defer f.Close()
	if h.version < 2 && wantCRC != nil {
		return inputErrorf("bfs: %s: a version-1 level file where the checkpoint expects a checksummed one", path)
	}
	if inMemory && m.arena == nil {
		m.arena = newWordArena(int(h.total))
	}
	crc := h.headerCRC()
	var scratch []uint64
	for p, n := range h.counts {
		var words []uint64
		if inMemory {
			words = m.arena.alloc(int(n))[:n]
		} else {
			if uint64(cap(scratch)) < n {
				scratch = make([]uint64, n)
			}
			words = scratch[:n]
		}
		if n > 0 {
			raw := wordbytes.Bytes(words[:n])
			if _, err := io.ReadFull(br, raw); err != nil {
				return inputErrorf("bfs: %s: truncated in partition %d", path, p)
			}
			crc = crc32.Update(crc, crcTable, raw)
			if !wordbytes.LittleEndian {
				for i := range words {
					words[i] = binary.LittleEndian.Uint64(raw[8*i:])
				}
			}
			for i := 1; i < len(words); i++ {
				if words[i] <= words[i-1] {
					return inputErrorf("bfs: %s: partition %d out of order (the file is damaged)", path, p)
				}
			}
		}
		if err := ps.set(p, words); err != nil {
			return err
		}
	}
	if err := h.checkTrailer(br, path, crc); err != nil {
		return err
	}
	if wantCRC != nil && crc != *wantCRC {
		return inputErrorf("bfs: %s is not the level file the checkpoint saved (checksum %08x, want %08x)", path, crc, *wantCRC)
	}
	return nil
}

// cleanCheckpointDir removes what killed runs of this search left in its
// checkpoint folder: the temporary files of atomic writes and the frontier
// files that saved (the checkpoint just loaded, nil if none) does not name.
func cleanCheckpointDir(dir string, saved *checkpoint) {
	atomicfile.RemoveStale(filepath.Join(dir, checkpointName))
	keep := ""
	if saved != nil && !saved.Done {
		keep = saved.LevelFile
	}
	fronts, _ := filepath.Glob(filepath.Join(dir, "frontier-*.bin"))
	runs, _ := filepath.Glob(filepath.Join(dir, "frontier-*.run"))
	for _, f := range append(fronts, runs...) {
		atomicfile.RemoveStale(f)
		if filepath.Base(f) != keep {
			os.Remove(f)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, ".frontier-*.bin.tmp-*"))
	rtmps, _ := filepath.Glob(filepath.Join(dir, ".frontier-*.run.tmp-*"))
	for _, f := range append(tmps, rtmps...) {
		os.Remove(f)
	}
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
	cleanCheckpointDir(opt.Checkpoint, saved)
	if saved != nil && !saved.Done && opt.LevelDir != "" {
		for d := 0; d < saved.Depth; d++ {
			path := levelPath(opt.LevelDir, d)
			if opt.KeepEvery > 0 {
				if d%opt.KeepEvery != 0 {
					continue
				}
				path = keptPath(opt.LevelDir, d)
			}
			if _, err := os.Stat(path); err != nil {
				return inputErrorf("bfs: the checkpoint in %s is at level %d, but %s lacks level %d (its levels were written elsewhere, or not at all): run it with the same --levels-dir, or remove the checkpoint",
					opt.Checkpoint, saved.Depth, opt.LevelDir, d)
			}
		}
	}
	if saved != nil && saved.Done {
		r := saved.Result
		s.done = &r
		return nil
	}
	if saved != nil && saved.Compressed != opt.Compress {
		how := map[bool]string{false: "without", true: "with"}
		return inputErrorf("bfs: the checkpoint in %s was saved by a search %s compressed levels: resume it %s --compress",
			opt.Checkpoint, how[saved.Compressed], how[saved.Compressed])
	}
	if saved != nil {
		l, err := s.loadLevel(saved)
		if err != nil {
			return err
		}
		s.cur.release()
		s.cur = l
		*s.res = saved.Result
		s.res.LevelDir = opt.LevelDir
		s.prevSecond, s.prevCPU, s.prevRSS = s.res.Seconds, s.res.CPUSeconds, s.res.PeakRSS
		s.children, s.depth0 = saved.Children, saved.Depth
		s.lg = nil // checkpoints are taken once loop tracking has ended
		s.rep.Report(progress.Event{Job: s.job, Stage: fmt.Sprintf("resumed at level %d", s.depth0), Done: 0, Total: s.cur.size(), Unit: "states"})
	}
	s.ck = &want
	s.clock = checkpointClock{every: opt.CheckpointEvery, last: time.Now()}
	return nil
}

// loadLevel reads the level a checkpoint saved, in the store of the
// search's mode: a compressed run in files (compressed disk mode) or in
// memory (compressed), else partitions in memory or in files (disk mode).
// Its file's checksum must be the one the checkpoint recorded.
func (s *searcher) loadLevel(saved *checkpoint) (*level, error) {
	opt := &s.opt
	P := s.c.parts()
	path := filepath.Join(opt.Checkpoint, saved.LevelFile)
	var wantCRC *uint32
	if !saved.legacy {
		wantCRC = &saved.LevelCRC
	}
	switch {
	case saved.Compressed && opt.SpillDir != "":
		r, err := openFileRunFile(path, P, wantCRC)
		if err != nil {
			return nil, err
		}
		l := newLevel(P, &fileRunLevel{r})
		if l.hash, err = fileRunHash(s.c, r); err != nil {
			l.release()
			return nil, err
		}
		l.hashed = true
		return l, nil
	case saved.Compressed:
		r, err := readRunFile(path, P, wantCRC)
		if err != nil {
			return nil, err
		}
		l := newLevel(P, &runLevel{r})
		l.hash, l.hashed = runHash(s.c, r), true
		return l, nil
	}
	l := newMemLevel(P)
	if opt.SpillDir != "" {
		dl := &dirLevel{dir: filepath.Join(opt.SpillDir, fmt.Sprintf("L%05d", saved.Depth)), count: newPartArray[int64](P)}
		if err := os.MkdirAll(dl.dir, 0o755); err != nil {
			return nil, err
		}
		l = newLevel(P, dl)
	}
	if err := readLevelFile(path, l, wantCRC); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
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
	if fl, ok := s.cur.store.(*fileRunLevel); ok {
		// Compressed disk mode: the frontier file holds the level now;
		// its segment files go.
		r, err := fileRunAt(filepath.Join(s.opt.Checkpoint, ck.LevelFile), fl.r)
		if err != nil {
			return fmt.Errorf("bfs: checkpoint: %w", err)
		}
		fl.r.release()
		fl.r = r
	}
	s.clock.last = time.Now()
	return nil
}
