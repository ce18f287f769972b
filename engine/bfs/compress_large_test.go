//go:build bfslarge

package bfs

import "testing"

// TestCompressTablesLarge is TestCompressTables for the committed tables
// whose peak level lies past its bound, up to 2 M states (7x8, 6x9, 9x6,
// 5x11: about 20 M states expanded): go test -tags bfslarge ./engine/bfs
// -run CompressTablesLarge.
func TestCompressTablesLarge(t *testing.T) {
	compressTables(t, 200_000, 2_000_000)
}
