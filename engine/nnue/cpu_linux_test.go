package nnue

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread, so that per-core
// rates do not depend on other load on the machine.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
