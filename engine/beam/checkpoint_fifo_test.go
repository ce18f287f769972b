//go:build unix

package beam

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestResumeFromFIFO: a FIFO where the checkpoint should be is refused at
// once as a configuration error, never read (a read would block forever).
func TestResumeFromFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, CheckpointFile), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), Config{BeamWidth: 4, MaxPieces: 2, CheckpointDir: dir, Resume: true})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "regular file") {
			t.Fatalf("resume from a FIFO: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("resume from a FIFO blocked")
	}
}
