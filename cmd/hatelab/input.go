package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// maxArgInput caps what readArg reads from a file or standard input.
const maxArgInput = 64 << 20

// stdin is where readArg reads "-" from (a variable for tests).
var stdin io.Reader = os.Stdin

// readArg returns the text an argument stands for: the contents of FILE for
// "@FILE", standard input for "-", and the argument itself otherwise. A file
// or stream that cannot be read is reported as bad input (a plain error).
func readArg(arg string) (string, error) {
	var (
		r    io.Reader
		name string
	)
	switch {
	case arg == "-":
		r, name = stdin, "standard input"
	case strings.HasPrefix(arg, "@"):
		path := arg[1:]
		if path == "" {
			return "", fmt.Errorf("%q: missing file name after @", arg)
		}
		f, err := os.Open(path)
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %v", path, unwrapPathError(err))
		}
		defer f.Close()
		// A regular file's size says at once whether it fits (a huge
		// sparse file is refused before any read); a FIFO or a device
		// (process substitution, /dev/stdin) is read up to the cap.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > maxArgInput {
			return "", fmt.Errorf("%s is larger than %d MiB", path, maxArgInput>>20)
		} else if err == nil && st.IsDir() {
			return "", fmt.Errorf("cannot read %s: is a folder", path)
		}
		r, name = f, path
	default:
		return arg, nil
	}
	b, err := io.ReadAll(io.LimitReader(r, maxArgInput+1))
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", name, unwrapPathError(err))
	}
	if len(b) > maxArgInput {
		return "", fmt.Errorf("%s is larger than %d MiB", name, maxArgInput>>20)
	}
	return string(b), nil
}

// unwrapPathError drops the operation and path of an *os.PathError, which
// the callers name themselves.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
