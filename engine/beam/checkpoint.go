package beam

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/internal/atomicfile"
)

// CheckpointFile is the checkpoint's name inside the checkpoint directory.
const CheckpointFile = "beam.ckpt"

// checkpointVersion 2: the vocabulary renames (Level, BestLevel, LevelStats).
const checkpointVersion = 2

type checkpointHeader struct {
	Version int
}

// saveCheckpoint writes st atomically: to a temporary file in dir, synced,
// then renamed over the previous checkpoint.
func saveCheckpoint(dir string, st *state) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := atomicfile.Write(filepath.Join(dir, CheckpointFile), 0o644, func(w io.Writer) error {
		enc := gob.NewEncoder(w)
		if err := enc.Encode(checkpointHeader{Version: checkpointVersion}); err != nil {
			return err
		}
		return enc.Encode(st)
	})
	if err != nil {
		return fmt.Errorf("beam: checkpoint: %w", err)
	}
	return nil
}

func loadCheckpoint(dir string) (*state, error) {
	f, err := os.Open(filepath.Join(dir, CheckpointFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no checkpoint in %s", ErrConfig, dir)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	var h checkpointHeader
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("beam: checkpoint: %w", err)
	}
	if h.Version != checkpointVersion {
		return nil, fmt.Errorf("beam: checkpoint version %d (want %d)", h.Version, checkpointVersion)
	}
	var st state
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("beam: checkpoint: %w", err)
	}
	if err := st.validate(); err != nil {
		return nil, fmt.Errorf("beam: checkpoint: %w", err)
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
