package beam

import (
	"context"
	"os"
	"path/filepath"
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
