package bfs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestKeptRebuildFIFO: FIFOs made in a temporary folder where a kept
// level, the progress or meta.json should be are refused with one line,
// without blocking on them.
func TestKeptRebuildFIFO(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir, work string)
		want   string
	}{
		{"a FIFO for a level", func(t *testing.T, dir, _ string) {
			os.Remove(keptPath(dir, 6))
			if err := syscall.Mkfifo(keptPath(dir, 6), 0o600); err != nil {
				t.Skip(err)
			}
		}, "not a regular file"},
		{"a FIFO for the progress", func(t *testing.T, dir, work string) {
			if err := syscall.Mkfifo(progressPath(work, Longest), 0o600); err != nil {
				t.Skip(err)
			}
		}, "not a regular file"},
		{"a FIFO for meta.json", func(t *testing.T, dir, _ string) {
			os.Remove(filepath.Join(dir, metaName))
			if err := syscall.Mkfifo(filepath.Join(dir, metaName), 0o600); err != nil {
				t.Skip(err)
			}
		}, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) { hostileKept(t, tc.damage, tc.want) })
	}
}
