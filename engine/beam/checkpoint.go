package beam

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckpointFile is the checkpoint's name inside the checkpoint directory.
const CheckpointFile = "beam.ckpt"

const checkpointVersion = 1

type checkpointHeader struct {
	Version int
}

// saveCheckpoint writes st atomically: to a temporary file in dir, synced,
// then renamed over the previous checkpoint.
func saveCheckpoint(dir string, st *state) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, CheckpointFile+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	bw := bufio.NewWriterSize(f, 1<<20)
	enc := gob.NewEncoder(bw)
	err = enc.Encode(checkpointHeader{Version: checkpointVersion})
	if err == nil {
		err = enc.Encode(st)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("beam: checkpoint: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, CheckpointFile))
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
	return &st, nil
}
