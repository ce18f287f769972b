//go:build !purego

package nnue

// withGoKernels runs f with the AVX2 kernels switched off (the Go loops
// run), restoring the switch after; it reports whether the switch
// changed anything (false where the machine has no AVX2). Tests that
// call it must not run in parallel.
func withGoKernels(f func()) bool {
	saved := hasAVX2
	hasAVX2 = false
	defer func() { hasAVX2 = saved }()
	f()
	return saved
}
