//go:build !amd64 || purego

package nnue

// withGoKernels runs f: this build has only the Go loops (false: nothing
// switched).
func withGoKernels(f func()) bool {
	f()
	return false
}
