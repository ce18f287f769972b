//go:build !unix

package boundedfile

import "os"

// openNonBlocking opens path read-only: outside Unix no open of a named
// file waits for a writer.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// openNonBlockingRW opens path for reading and writing, creating it with
// mode perm.
func openNonBlockingRW(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, perm)
}
