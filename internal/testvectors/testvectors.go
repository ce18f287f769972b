// Package testvectors reads the test vectors of the repository's testdata
// folders: JSON-lines files, optionally gzipped, made by running the real
// game's code or tetr-ai's binary (each folder says where they come from).
// Any error fails the test at once.
package testvectors

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// EachLine calls f with every line of the file at path (gunzipped when the
// name ends in .gz). The line is only valid during the call.
func EachLine(tb testing.TB, path string, f func(line []byte)) {
	tb.Helper()
	file, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer file.Close()
	var rd io.Reader = file
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(file)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		rd = z
	}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		f(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// ReadJSONL decodes every line of the file at path (see EachLine) as a T.
func ReadJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	var out []T
	n := 0
	EachLine(tb, path, func(line []byte) {
		n++
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	})
	return out
}
