//go:build !linux

package nnue

import (
	"errors"
	"time"
)

// threadCPU is not measured outside Linux (the per-CPU metrics are left
// out).
func threadCPU() time.Duration { return 0 }

func mkfifo(string) error { return errors.New("no FIFOs here") }
