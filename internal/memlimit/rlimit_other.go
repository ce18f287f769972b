//go:build !unix

package memlimit

func rlimitAS() (uint64, bool) { return 0, false }
