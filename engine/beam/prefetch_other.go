//go:build !amd64 || purego

package beam

// prefetch is a no-op off amd64 (or with the purego tag).
func prefetch(*qentry) {}

// prefetchSlot is a no-op off amd64 (or with the purego tag).
func prefetchSlot(*uint64) {}
