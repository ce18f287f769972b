package boundedfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFile: a regular file within the bound is read whole; a folder,
// a FIFO (made here, never the system's), a symlink to that FIFO and a
// file over the bound (a sparse one, never read) are refused before any
// read, naming what they are; a missing file is the file system's error.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(path("ok"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path("folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := path("fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink(fifo, path("link")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path("sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		name, want string
		max        int64
		refused    bool
		data       string
	}{
		{"ok", "", 5, false, "12345"},
		{"ok", "is 5 bytes, more than the 4 bytes a test file may be", 4, true, ""},
		{"folder", "is a folder, not a file", 100, true, ""},
		{"fifo", "is not a regular file (p---------), not a test file", 100, true, ""},
		{"link", "is not a regular file (p---------), not a test file", 100, true, ""},
		{"sparse", "is 10.0 GiB, more than the 1.0 MiB a test file may be", 1 << 20, true, ""},
		{"missing", "no such file", 100, false, ""},
	} {
		b, err := ReadFile(path(tc.name), tc.max, "test file")
		if tc.want == "" {
			if err != nil || string(b) != tc.data {
				t.Errorf("%s: %q, %v; want %q", tc.name, b, err, tc.data)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || IsRefused(err) != tc.refused {
			t.Errorf("%s (max %d): %v (refused %v); want %q (refused %v)", tc.name, tc.max, err, IsRefused(err), tc.want, tc.refused)
		}
		if !tc.refused && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v is not the file system's", tc.name, err)
		}
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1<<20 - 1, "1048575 bytes"}, {1<<20 + 1, "1.0 MiB"}, {3 << 19, "1.5 MiB"}, {1 << 30, "1.0 GiB"}, {5 << 29, "2.5 GiB"}} {
		if got := Size(tc.n); got != tc.want {
			t.Errorf("Size(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
}
