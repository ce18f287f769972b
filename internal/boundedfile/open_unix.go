//go:build unix

package boundedfile

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only with O_NONBLOCK, so that opening a
// FIFO returns at once instead of waiting for a writer (the caller then
// refuses it: not a regular file). On a regular file O_NONBLOCK changes
// nothing.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openNonBlockingRW is openNonBlocking for reading and writing, creating
// a missing file with mode perm.
func openNonBlockingRW(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, perm)
}
