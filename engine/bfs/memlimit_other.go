//go:build !linux

package bfs

// addressSpace: no address-space limit is read outside Linux.
func addressSpace() (limit, mapped int64) { return 0, 0 }
