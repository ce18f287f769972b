// Package atomicfile writes files so that a reader, or a run resumed after a
// kill, sees either the old file or the whole new one, never a part: the
// data go to a temporary file in the same folder, which is synced and then
// renamed over the target.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// CheckTarget reports, in one line, why path cannot be an output: it
// exists and is not a regular file (a device, a FIFO, a socket, a folder;
// a symbolic link is judged by what it points to). A path that does not
// exist yet is a valid target. Write checks it too, so that an atomic
// rename never replaces a device node such as /dev/null with a file.
func CheckTarget(path string) error {
	st, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s is a folder, not a file", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): refusing to replace it", path, st.Mode().Type())
	}
	return nil
}

// CheckWritable reports, in one line, why Write could not write path: it
// is no valid target (CheckTarget), its folder is missing, or a file
// cannot be created there (a read-only folder, a permission): checked by
// creating and removing a temporary file, so that a long run finds out
// before its work and not after it.
func CheckWritable(path string) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: the folder %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return fmt.Errorf("%s cannot be written: %v", path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// SameFile returns the first of inputs that is the file out names (under
// any spelling: a symlink, a hard link, another path; os.SameFile), or ""
// when none is: an output that is an input would replace what the command
// reads. Inputs that do not exist (or "") are skipped.
func SameFile(out string, inputs ...string) string {
	ost, err := os.Stat(out)
	if err != nil {
		return ""
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if ist, err := os.Stat(in); err == nil && os.SameFile(ost, ist) {
			return in
		}
	}
	return ""
}

// Write writes path through a temporary file filled by fill (buffered),
// synced, given mode perm and renamed over path. A path that exists and is
// not a regular file is refused before anything is written (CheckTarget).
// On any error the temporary
// file is removed and path is left as it was.
func Write(path string, perm os.FileMode, fill func(io.Writer) error) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
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
