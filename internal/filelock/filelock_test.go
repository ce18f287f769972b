package filelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestTryLock: a second open of a locked file is refused, and the lock
// goes with the first file's close.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := open(), open()
	defer b.Close()
	if err := TryLock(a); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	err := TryLock(b)
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly", "windows":
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("second lock while the first is held: %v, want ErrLocked", err)
		}
	}
	a.Close()
	if err := TryLock(b); err != nil {
		t.Fatalf("lock after the first file closed: %v", err)
	}
}

func ExampleTryLock() {
	dir, err := os.MkdirTemp("", "filelock")
	if err != nil {
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "match.jsonl")
	first, _ := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	defer first.Close()
	second, _ := os.OpenFile(path, os.O_RDWR, 0o644)
	defer second.Close()
	fmt.Println(TryLock(first))
	fmt.Println(TryLock(second))
	// Output:
	// <nil>
	// locked by another writer
}
