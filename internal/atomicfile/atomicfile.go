// Package atomicfile writes files so that a reader, or a run resumed after a
// kill, sees either the old file or the whole new one, never a part: the
// data go to a temporary file in the same folder, which is synced and then
// renamed over the target.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write writes path through a temporary file filled by fill (buffered),
// synced, given mode perm and renamed over path. On any error the temporary
// file is removed and path is left as it was.
func Write(path string, perm os.FileMode, fill func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// WriteBytes writes data to path atomically (see Write).
func WriteBytes(path string, perm os.FileMode, data []byte) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// RemoveStale removes the temporary files that a Write of path killed
// before its rename left behind ("."+name+".tmp-*" beside path). Call it
// only when no other process is writing path.
func RemoveStale(path string) {
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
	for _, f := range stale {
		os.Remove(f)
	}
}
