package boundedfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestNeverBlocks: Open, OpenRW and ReadStream return at once on a FIFO
// without a writer (made here): Open and OpenRW refuse it, ReadStream
// (where a stream is welcome) reads it as empty; a regular file is read
// and appended to by OpenRW, which creates a missing one.
func TestNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan string, 1)
	go func() {
		var out []string
		_, _, err := Open(fifo, 100, "test file")
		out = append(out, fmt.Sprint(IsRefused(err)))
		_, _, err = OpenRW(fifo, 100, "test file", 0o644)
		out = append(out, fmt.Sprint(IsRefused(err)))
		b, err := ReadStream(fifo, 100, "test file")
		out = append(out, fmt.Sprintf("%q %v", b, err))
		done <- strings.Join(out, ", ")
	}()
	select {
	case got := <-done:
		if want := `true, true, "" <nil>`; got != want {
			t.Fatalf("on a FIFO: %s, want %s", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO without a writer")
	}
	store := filepath.Join(dir, "store")
	f, st, err := OpenRW(store, 100, "test file", 0o644)
	if err != nil || st.Size() != 0 {
		t.Fatalf("OpenRW of a new file: %v", err)
	}
	f.WriteString("line\n")
	f.Close()
	f, _, err = OpenRW(store, 100, "test file", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadAll(f, 100, "test file")
	f.Close()
	if string(b) != "line\n" || err != nil {
		t.Fatalf("read back %q, %v", b, err)
	}
	if _, err := ReadStream(dir, 100, "test file"); !IsRefused(err) {
		t.Fatalf("ReadStream of a folder: %v", err)
	}
}
