package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/memlimit"
)

// The rules every writer of hatelab follows for its output file (README,
// "Outputs"), checked before any work:
//   - a path that exists and is not a regular file (a device such as
//     /dev/null, a FIFO, a socket, a folder, a symbolic link to one) is
//     refused: an atomic rename would replace it with a file;
//   - an existing regular file is replaced only when it is the command's
//     own kind of output (its format marker, read from its first bytes)
//     or empty; anything else needs --force.

// outputSink wraps the writer of an output file (a variable so that tests
// can make it fail as a full filesystem does).
var outputSink = func(w io.Writer) io.Writer { return w }

// maxSniff caps what checkOutput reads of an existing file.
const maxSniff = 4 << 10

// checkOutput applies the rules above to path, the value of flag, for an
// output whose JSON object starts with "format": "FORMAT..." (format is
// the marker's prefix). force lets any regular file be replaced.
func checkOutput(flag, path, format string, force bool) error {
	if err := atomicfile.CheckTarget(path); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	f, _, err := boundedfile.Open(path, math.MaxInt64, "file")
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s %s: the folder %s does not exist", flag, path, dir)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, unwrapPathError(err))
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, maxSniff))
	if err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, unwrapPathError(err))
	}
	if force || len(bytes.TrimSpace(head)) == 0 || jsonFormat(head) != "" && strings.HasPrefix(jsonFormat(head), format) {
		return nil
	}
	return fmt.Errorf("%s %s: the file exists and is not a %s file: refusing to replace it (name a new file, or add --force)", flag, path, strings.TrimSuffix(format, "/"))
}

// jsonFormat returns the value of "format" when it is the first member
// of the JSON object that head begins with ("" otherwise).
func jsonFormat(head []byte) string {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	if t, err := dec.Token(); err != nil || t != "format" {
		return ""
	}
	t, err := dec.Token()
	if s, ok := t.(string); ok && err == nil {
		return s
	}
	return ""
}

// readBounded reads the whole of path, the value of flag, when it is a
// regular file of at most max bytes; a device, FIFO or folder (/dev/zero,
// a named pipe that would block) and a larger file (a huge sparse file
// included) are refused in one line before anything is read.
func readBounded(flag, path string, max int64, what string) ([]byte, error) {
	b, err := boundedfile.ReadFile(path, max, what)
	switch {
	case boundedfile.IsRefused(err):
		return nil, fmt.Errorf("%s %s: %v", flag, path, err)
	case err != nil:
		return nil, fmt.Errorf("%s: cannot read %s: %v", flag, path, unwrapPathError(err))
	}
	return b, nil
}

// memoryHeadroom is memlimit.Headroom (a variable for tests).
var memoryHeadroom = memlimit.Headroom

// checkMemory refuses, naming flag, work that needs more memory than the
// process can still take (every limit it has: memlimit).
func checkMemory(flag string, need uint64) error {
	l, ok := memoryHeadroom()
	if !ok || need <= l.Bytes {
		return nil
	}
	return fmt.Errorf("%s: needs about %s of memory, only %s left (%s)", flag, memlimit.GiB(need), memlimit.GiB(l.Bytes), l.Name)
}

// sizedFromMemory returns the largest count of items of perItem bytes
// that fits in the memory the process can still take, at most def (def
// where no limit is known): the default of a budget flag such as
// --max-wells, sized from what is there.
func sizedFromMemory(def int, perItem uint64) int {
	l, ok := memoryHeadroom()
	if !ok {
		return def
	}
	return int(min(uint64(def), max(l.Bytes/perItem, 1)))
}

// checkInputFile refuses an input file (path, the value of flag; "" for
// none) that is not a regular file (a folder, a device, a socket, a FIFO,
// which would block its reader): boundedfile's check, before any work.
func checkInputFile(flag, path string) error {
	if path == "" {
		return nil
	}
	f, _, err := boundedfile.Open(path, math.MaxInt64, "input file")
	if boundedfile.IsRefused(err) {
		return fmt.Errorf("%s %s %v", flag, path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot read %s: %v", flag, path, unwrapPathError(err))
	}
	return f.Close()
}

// budgetNote adds to the error of a search that ran out of its well
// budget, when the budget was sized from memory (--max-wells not given),
// which budget that was.
func budgetNote(err error, set bool, budget int) error {
	if err == nil || set || !strings.Contains(err.Error(), "more than") {
		return err
	}
	return fmt.Errorf("%w (--max-wells %d: the default, sized from the memory left)", err, budget)
}
