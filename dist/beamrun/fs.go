package beamrun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/wordbytes"
)

// join joins a folder (a local path or a URL such as gs://b/dir) and a
// name with a slash.
func join(dir, name string) string { return strings.TrimSuffix(dir, "/") + "/" + name }

// readFile reads a whole file through Beam's filesystems.
func readFile(ctx context.Context, path string) ([]byte, error) {
	if !strings.Contains(path, "://") {
		// A local file: opened non-blocking and refused unless regular
		// (a FIFO put in a work folder never blocks), read in one
		// allocation of its size.
		f, st, err := boundedfile.Open(path, math.MaxInt64, "work file")
		if boundedfile.IsRefused(err) {
			return nil, inputErrorf("beamrun: %s %v", path, err)
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b := make([]byte, st.Size())
		if _, err := io.ReadFull(f, b); err != nil {
			return nil, fmt.Errorf("beamrun: reading %s: %w", path, err)
		}
		return b, nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if n, err := fs.Size(ctx, path); err == nil && n >= 0 {
		// One allocation of the right size (ReadAll grows and copies).
		b := make([]byte, n+1)
		k, err := io.ReadFull(r, b)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return b[:k], nil
		}
		if err != nil {
			return nil, err
		}
		rest, err := io.ReadAll(r) // the file grew
		return append(b, rest...), err
	}
	return io.ReadAll(r)
}

// writeFile writes a whole file through Beam's filesystems; a local one
// atomically (a kill leaves the old file or the whole new one: a bucket's
// object appears whole when closed).
func writeFile(ctx context.Context, path string, b []byte) error {
	if !strings.Contains(path, "://") {
		// Its folder made first, as Beam's local filesystem does.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return atomicfile.WriteBytes(path, 0o644, b)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// list returns the files matching glob (none: nil).
func list(ctx context.Context, glob string) ([]string, error) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return fs.List(ctx, glob)
}

// removeGlob removes the files matching glob, where the filesystem can.
func removeGlob(ctx context.Context, glob string) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	names, err := fs.List(ctx, glob)
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		errs = append(errs, rm.Remove(ctx, n))
	}
	return errors.Join(errs...)
}

// wordsBytes returns words little-endian.
func wordsBytes(words []uint64) []byte {
	if wordbytes.LittleEndian {
		return append([]byte(nil), wordbytes.Bytes(words)...)
	}
	b := make([]byte, 0, 8*len(words))
	for _, x := range words {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// bytesWords appends the little-endian words of b to dst.
func bytesWords(dst []uint64, b []byte) ([]uint64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("a block of %d bytes is not whole words", len(b))
	}
	for i := 0; i < len(b); i += 8 {
		dst = append(dst, binary.LittleEndian.Uint64(b[i:]))
	}
	return dst, nil
}
