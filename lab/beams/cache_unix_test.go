//go:build unix

package beams

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSweepCacheRefusals: a cache path that is a folder, a FIFO or a file
// of another kind is refused before any search and left as it is.
func TestSweepCacheRefusals(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(foreign, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	cases := []struct{ name, path, msg string }{
		{"folder", dir, "is a folder"},
		{"foreign file", foreign, "is not a sweep cache"},
	}
	if syscall.Mkfifo(fifo, 0o600) == nil {
		cases = append(cases, struct{ name, path, msg string }{"fifo", fifo, "not a regular file"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Sweep([]int{10}, []bool{false}, 0, tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
		})
	}
	if b, _ := os.ReadFile(foreign); string(b) != "my notes\n" {
		t.Fatalf("the foreign file changed: %q", b)
	}
}
