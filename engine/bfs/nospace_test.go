package bfs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// fullDisk is a writer that takes budget bytes in all (shared by every
// file) and then fails as a full filesystem does.
type fullDisk struct {
	w    io.Writer
	path string
	left *atomic.Int64
}

func (f fullDisk) Write(p []byte) (int, error) {
	if f.left.Add(-int64(len(p))) < 0 {
		return 0, &os.PathError{Op: "write", Path: f.path, Err: syscall.ENOSPC}
	}
	return f.w.Write(p)
}

// TestNoSpace: a disk-mode search (plain or compressed) whose filesystem
// fills up, at any point (while the children are spilled, while they are
// merged into the next level), stops with the error "no space left" and
// no panic, in every mode.
func TestNoSpace(t *testing.T) {
	defer func(old func(*os.File) io.Writer) { spillWriter = old }(spillWriter)
	for _, tc := range []struct {
		name     string
		compress bool
		budget   int64 // bytes the filesystem takes before it is full
	}{
		{"plain, full at once", false, 0},
		{"plain, full later", false, 20 << 10},
		{"compressed, full at once", true, 0},
		{"compressed, full while spilling", true, 4 << 10},
		{"compressed, full while merging", true, 60 << 10},
		{"compressed, full late", true, 400 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			left := &atomic.Int64{}
			left.Store(tc.budget)
			spillWriter = func(f *os.File) io.Writer { return fullDisk{w: f, path: f.Name(), left: left} }
			opt := Options{Width: 8, Height: 6, Workers: 2, Compress: tc.compress, SpillDir: filepath.Join(t.TempDir(), "spill"), MemoryBudget: 1 << 14}
			res, err := Search(context.Background(), opt)
			if err == nil {
				t.Fatalf("a full filesystem gave a result (%d levels)", len(res.Levels))
			}
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %q, want one line saying no space left", err)
			}
			if errors.Is(err, ErrInput) {
				t.Fatalf("%q is marked bad input; a full disk is the machine's failure", err)
			}
		})
	}
}
