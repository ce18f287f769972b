//go:build !linux

package nnue

import "time"

// threadCPU is not measured outside Linux (the per-CPU metrics are left
// out).
func threadCPU() time.Duration { return 0 }
