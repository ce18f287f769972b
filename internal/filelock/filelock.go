// Package filelock takes an exclusive lock on an open file for as long as
// it is open, so that a second process writing the same store (an arena
// match file, a tuning log) is refused at once instead of interleaving its
// lines with the first one's. The lock is advisory (flock on Unix,
// LockFileEx on Windows) and is released when the file is closed or the
// process dies, so a kill -9 leaves no stale lock behind.
package filelock

import "errors"

// ErrLocked is returned by TryLock when another open file (another
// process, or another open of the same path) holds the lock.
var ErrLocked = errors.New("locked by another writer")
