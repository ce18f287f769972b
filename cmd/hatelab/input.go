package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hatelab/hatelab/internal/boundedfile"
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
		// A regular file's size says at once whether it fits (a huge
		// sparse file is refused before any read); a FIFO or a device
		// (process substitution, /dev/stdin) is read up to the cap, and
		// a FIFO without a writer reads as empty (the open never waits).
		b, err := boundedfile.ReadStream(path, maxArgInput, "replay argument")
		if boundedfile.IsRefused(err) {
			return "", fmt.Errorf("%s %v", path, err)
		}
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %v", path, unwrapPathError(err))
		}
		return string(b), nil
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
