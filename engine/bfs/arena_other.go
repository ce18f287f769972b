//go:build !linux

package bfs

// mapWords is Linux only; elsewhere arenas are ordinary slices.
func mapWords(n int) ([]uint64, func(), bool) { return nil, nil, false }
