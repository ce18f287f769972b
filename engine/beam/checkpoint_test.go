package beam

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointRoundTrip saves and loads a checkpoint and rejects damaged
// ones.
func TestCheckpointRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{BeamWidth: 30, MaxPieces: 15, CheckpointDir: dir}); err != nil {
		t.Fatal(err)
	}
	st, err := loadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Level != 15 || len(st.Wells) == 0 {
		t.Fatalf("depth %d, %d wells", st.Level, len(st.Wells))
	}
	path := filepath.Join(dir, CheckpointFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCheckpoint(dir); err == nil {
		t.Fatal("truncated checkpoint accepted")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// FuzzCheckpoint: damaged checkpoints are errors, never panics.
func FuzzCheckpoint(f *testing.F) {
	dir := f.TempDir()
	if _, err := Run(context.Background(), Config{BeamWidth: 5, MaxPieces: 4, CheckpointDir: dir}); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, CheckpointFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, CheckpointFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := loadCheckpoint(d)
		if err == nil && st.validate() != nil {
			t.Fatal("invalid state accepted")
		}
	})
}

// TestCheckpointIntegrity: a flipped byte anywhere in the state is refused
// (checksum), an existing checkpoint is never overwritten by a search that
// does not resume it, and what a killed write left behind is removed.
func TestCheckpointIntegrity(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{BeamWidth: 20, MaxPieces: 10, CheckpointDir: dir}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, CheckpointFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{len(good) / 3, len(good) / 2, len(good) - 1} {
		bad := append([]byte(nil), good...)
		bad[at] ^= 0x40
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := loadCheckpoint(dir); err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "damaged") && !strings.Contains(err.Error(), "not a beam checkpoint") {
			t.Fatalf("byte %d flipped: %v", at, err)
		}
	}
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "."+CheckpointFile+".tmp-123"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg); err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "earlier search") {
		t.Fatalf("a search over an existing checkpoint: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, good) {
		t.Fatal("the existing checkpoint was changed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	cfg.Resume, cfg.MaxPieces = true, 12
	res, err := Run(context.Background(), cfg)
	if err != nil || len(res.Levels) != 12 {
		t.Fatalf("resume: %v", err)
	}
	for _, w := range []int{-1, MaxWorkers + 1} {
		if _, err := Run(context.Background(), Config{BeamWidth: 5, MaxPieces: 2, Workers: w}); !errors.Is(err, ErrConfig) {
			t.Errorf("%d workers: %v", w, err)
		}
	}
}
