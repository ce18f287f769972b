// Package boundedfile reads input files under a size bound, refusing
// what is not a regular file (a FIFO would block, a device never end, a
// folder is no input) before reading it: the one copy of the checks that
// hatelab's and hatelab-beam's readers of named input files share.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Refused is a file refused as input: not a regular file, or larger than
// its bound. Its message begins with "is", for the caller to put the
// file's name (and its flag) before it.
type Refused struct{ Msg string }

func (e *Refused) Error() string { return e.Msg }

// IsRefused reports whether err is a Refused file (and not an error of
// the file system: a missing file, a permission).
func IsRefused(err error) bool {
	var r *Refused
	return errors.As(err, &r)
}

// Check refuses st unless it is a regular file of at most max bytes; what
// names the kind of file in the message ("samples file").
func Check(st fs.FileInfo, max int64, what string) error {
	switch {
	case st.IsDir():
		return &Refused{"is a folder, not a file"}
	case !st.Mode().IsRegular():
		return &Refused{fmt.Sprintf("is not a regular file (%s), not a %s", st.Mode().Type(), what)}
	case st.Size() > max:
		size, bound := Size(st.Size()), Size(max)
		if size == bound {
			size, bound = fmt.Sprintf("%d bytes", st.Size()), fmt.Sprintf("%d bytes", max)
		}
		return &Refused{fmt.Sprintf("is %s, more than the %s a %s may be", size, bound, what)}
	}
	return nil
}

// Open opens path for reading when it is a regular file of at most max
// bytes. It is opened non-blocking (a FIFO, even one swapped in after a
// look, never waits for a writer; see openNonBlocking) and checked once
// open, on the file it holds. The errors are the file system's
// (*fs.PathError) or a *Refused.
func Open(path string, max int64, what string) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	return checked(f, err, max, what)
}

// checked checks an opened file f (err: the open's error): a regular file
// of at most max bytes, else closed and refused.
func checked(f *os.File, err error, max int64, what string) (*os.File, fs.FileInfo, error) {
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = Check(st, max, what)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// ReadAll reads the rest of an open file f (from Open or OpenRW), at
// most max bytes: a file that grew past max is refused.
func ReadAll(f *os.File, max int64, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &Refused{fmt.Sprintf("is larger than the %s a %s may be", Size(max), what)}
	}
	return b, nil
}

// ReadFile reads path whole when it is a regular file of at most max
// bytes (Open); a file that grew past max while it was read is refused
// too.
func ReadFile(path string, max int64, what string) ([]byte, error) {
	f, _, err := Open(path, max, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, max, what)
}

// Size writes a byte count in bytes (under 1 MiB), MiB or GiB.
func Size(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%d bytes", b)
	}
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

// OpenRW opens path for reading and writing, creating it (mode perm) when
// it is missing, for a store a command appends to and resumes from (a
// match file, a log): non-blocking like Open, and refused unless it is a
// regular file of at most max bytes.
func OpenRW(path string, max int64, what string, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlockingRW(path, perm)
	return checked(f, err, max, what)
}

// ReadStream reads path whole, at most max bytes, where a stream is
// welcome (an argument's @FILE: process substitution, /dev/stdin): a
// regular file is refused at once when it is larger than max, a folder
// always; a FIFO or a device is read up to max (a FIFO without a writer
// reads as empty: the open never waits).
func ReadStream(path string, max int64, what string) ([]byte, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() || st.Mode().IsRegular() {
		if err := Check(st, max, what); err != nil {
			return nil, err
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &Refused{fmt.Sprintf("is larger than the %s a %s may be", Size(max), what)}
	}
	return b, nil
}
