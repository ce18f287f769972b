package beam

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// CheckpointFile is the checkpoint's name inside the checkpoint directory.
const CheckpointFile = "beam.ckpt"

// checkpointVersion 3: the state is followed by nothing and preceded by its
// size and CRC-32C, so that a damaged file is refused (2: the vocabulary
// renames, no checksum).
const checkpointVersion = 3

// maxCheckpoint bounds the state a checkpoint may hold (a beam of 2^24
// wells and its ancestry stay far below it).
const maxCheckpoint = 16 << 30

type checkpointHeader struct {
	Version int
	Size    int64  // bytes of the gob-encoded state that follows
	CRC     uint32 // CRC-32C (Castagnoli) of those bytes
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// saveCheckpoint writes st atomically: to a temporary file in dir, synced,
// then renamed over the previous checkpoint.
func saveCheckpoint(dir string, st *state) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(st); err != nil {
		return fmt.Errorf("beam: checkpoint: %w", err)
	}
	h := checkpointHeader{Version: checkpointVersion, Size: int64(body.Len()), CRC: crc32.Checksum(body.Bytes(), castagnoli)}
	err := atomicfile.Write(filepath.Join(dir, CheckpointFile), 0o644, func(w io.Writer) error {
		if err := gob.NewEncoder(w).Encode(h); err != nil {
			return err
		}
		_, err := w.Write(body.Bytes())
		return err
	})
	if err != nil {
		return fmt.Errorf("beam: checkpoint: %w", err)
	}
	return nil
}

// ckWriter writes a search's checkpoints in the background, one at a
// time, so that a level's checkpoint is encoded and written while the
// next level is expanded (at width 100,000 it takes tens of milliseconds,
// which no worker would share). The state is copied first: its ancestry,
// which the next level compacts in place, in full; the kept wells and
// scores, which the next level replaces rather than changes, by
// reference.
type ckWriter struct {
	done chan error // the write in flight's result; nil when none
	tree []level    // the copy of the ancestry the last write read
}

// save waits for the previous write and starts writing st to dir: an
// error is the previous write's.
func (c *ckWriter) save(dir string, st *state) error {
	if err := c.wait(); err != nil {
		return err
	}
	snap := *st
	c.tree = copyTree(c.tree, st.Tree)
	snap.Tree = c.tree
	done := make(chan error, 1)
	c.done = done
	go func() { done <- saveCheckpoint(dir, &snap) }()
	return nil
}

// wait returns the result of the write in flight, if any.
func (c *ckWriter) wait() error {
	if c.done == nil {
		return nil
	}
	err := <-c.done
	c.done = nil
	return err
}

// copyTree copies the ancestry src into dst's arrays (reused).
func copyTree(dst, src []level) []level {
	dst = dst[:min(len(dst), len(src))]
	for len(dst) < len(src) {
		dst = append(dst, level{})
	}
	for i := range src {
		d, s := &dst[i], &src[i]
		d.Parent = append(d.Parent[:0], s.Parent...)
		d.Move = append(d.Move[:0], s.Move...)
		d.Hash = append(d.Hash[:0], s.Hash...)
		d.Cells = append(d.Cells[:0], s.Cells...)
	}
	return dst
}

// hasCheckpoint reports whether dir holds a checkpoint file.
func hasCheckpoint(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, CheckpointFile))
	return err == nil
}

// removeTemporaries deletes what a killed checkpoint write left in dir (the
// temporary files of internal/atomicfile).
func removeTemporaries(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, "."+CheckpointFile+".tmp-*"))
	for _, f := range left {
		os.Remove(f)
	}
}

func loadCheckpoint(dir string) (*state, error) {
	path := filepath.Join(dir, CheckpointFile)
	// Non-blocking and regular only (a FIFO named like the checkpoint never
	// blocks the resume); the size is bounded again by the header below.
	f, _, err := boundedfile.Open(path, maxCheckpoint+1<<20, "beam checkpoint")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no checkpoint in %s", ErrConfig, dir)
	}
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("%w: %s %v", ErrConfig, path, err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var h checkpointHeader
	if err := gob.NewDecoder(br).Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: %s is not a beam checkpoint: %v", ErrConfig, path, err)
	}
	if h.Version != checkpointVersion {
		return nil, fmt.Errorf("%w: %s: checkpoint version %d (this hatelab reads %d)", ErrConfig, path, h.Version, checkpointVersion)
	}
	if h.Size <= 0 || h.Size > maxCheckpoint {
		return nil, fmt.Errorf("%w: %s: damaged (state of %d bytes)", ErrConfig, path, h.Size)
	}
	body := make([]byte, h.Size)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, fmt.Errorf("%w: %s: damaged (%v)", ErrConfig, path, err)
	}
	if n, _ := br.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("%w: %s: damaged (data after the state)", ErrConfig, path)
	}
	if crc32.Checksum(body, castagnoli) != h.CRC {
		return nil, fmt.Errorf("%w: %s: damaged (checksum mismatch)", ErrConfig, path)
	}
	var st state
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&st); err != nil {
		return nil, fmt.Errorf("%w: %s: damaged (%v)", ErrConfig, path, err)
	}
	if err := st.validate(); err != nil {
		return nil, fmt.Errorf("%w: %s: damaged (%v)", ErrConfig, path, err)
	}
	return &st, nil
}

// validate checks the shapes a search relies on.
func (st *state) validate() error {
	if st.Level < 0 || len(st.Tree) != st.Level+1 {
		return fmt.Errorf("level %d with %d ancestry levels", st.Level, len(st.Tree))
	}
	if len(st.Wells) != len(st.Scores) || len(st.Wells) != st.Tree[st.Level].len() || (len(st.Wells) == 0 && !st.Died) {
		return fmt.Errorf("%d wells, %d scores, %d nodes", len(st.Wells), len(st.Scores), st.Tree[st.Level].len())
	}
	for d, l := range st.Tree {
		if len(l.Move) != len(l.Parent) || len(l.Hash) != len(l.Parent) || len(l.Cells) != len(l.Parent) {
			return fmt.Errorf("level %d: ragged arrays", d)
		}
		if d == 0 {
			if l.len() != 1 {
				return fmt.Errorf("level 0 has %d nodes", l.len())
			}
			continue
		}
		for _, p := range l.Parent {
			if int(p) >= st.Tree[d-1].len() {
				return fmt.Errorf("level %d: parent %d out of range", d, p)
			}
		}
	}
	if len(st.BestPath) > st.Level || st.BestLevel != len(st.BestPath) {
		return fmt.Errorf("best path of %d moves at level %d", len(st.BestPath), st.BestLevel)
	}
	return nil
}
