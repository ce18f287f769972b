package bfs

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"

	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Sealed JSON files (checkpoint.json, meta.json) carry a Checksum field:
// "crc32c:" and the CRC-32C, in hex, of the file as written with that
// field empty. Reading one back, the value is decoded, its checksum
// emptied and the value encoded again: the same bytes, and so the same
// CRC, unless the file was changed (a hand edit, a damaged disk); a field
// that is not the format's is dropped by the decoding, which changes the
// bytes too.

const checksumPrefix = "crc32c:"

// maxJSONFile bounds the size of a checkpoint.json or meta.json read.
const maxJSONFile = 64 << 20

// sealJSON encodes v (indented), with *sum, its Checksum field, set.
func sealJSON(v any, sum *string) ([]byte, error) {
	*sum = ""
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return nil, err
	}
	*sum = fmt.Sprintf("%s%08x", checksumPrefix, crc32.Checksum(b, crcTable))
	return json.MarshalIndent(v, "", " ")
}

// checkSealed reports whether v, decoded from a sealed file, still has
// the checksum *sum it carries (which it leaves in place).
func checkSealed(v any, sum *string) bool {
	got := *sum
	*sum = ""
	b, err := json.MarshalIndent(v, "", " ")
	*sum = got
	return err == nil && got == fmt.Sprintf("%s%08x", checksumPrefix, crc32.Checksum(b, crcTable))
}

// openInput opens a search's file for reading (boundedfile.Open: never
// blocking, a regular file or refused); its errors wrap ErrInput.
func openInput(path string) (*os.File, fs.FileInfo, error) {
	f, st, err := boundedfile.Open(path, math.MaxInt64, "search file")
	switch {
	case boundedfile.IsRefused(err):
		return nil, nil, inputErrorf("bfs: %s %v", path, err)
	case err != nil:
		return nil, nil, inputError{fmt.Errorf("bfs: %w", err)}
	}
	return f, st, nil
}

// readSmallFile reads path, refusing one past maxJSONFile bytes and one
// that is not a regular file (a FIFO would block the open).
func readSmallFile(path string) ([]byte, error) {
	b, err := boundedfile.ReadFile(path, maxJSONFile, "search file")
	if boundedfile.IsRefused(err) {
		return nil, inputErrorf("bfs: %s %v", path, err)
	}
	return b, err
}
