//go:build unix

package memlimit

import "golang.org/x/sys/unix"

// rlimitAS returns the soft RLIMIT_AS of the process (ok false when it is
// unlimited or cannot be read).
func rlimitAS() (uint64, bool) {
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &r); err != nil || r.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return uint64(r.Cur), true
}
