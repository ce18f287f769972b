//go:build bfslarge

package bfs

import "testing"

// TestKeptRebuildLarge is TestKeptRebuildTables for the committed tables
// past its bound, up to 10x6's 21 M states expanded, each table every way
// (several minutes on two cores): go test -tags bfslarge ./engine/bfs -run
// KeptRebuildLarge.
func TestKeptRebuildLarge(t *testing.T) {
	keptTables(t, keptLimit, 25_000_000, true)
}
