//go:build !amd64 || purego

package nnue

// hasAVX2 is false off amd64 (or with the purego tag): the Go loops run.
const hasAVX2 = false

func addRows8AVX2(acc *[8]uint64, w1 *uint64, feats *int32, n int, stride int) {
	panic("nnue: no AVX2 kernels in this build")
}

func swapRows8AVX2(acc *[8]uint64, w1 *uint64, pairs *int32, n int, stride int) {
	panic("nnue: no AVX2 kernels in this build")
}

func outputAVX2(words *uint64, w2 *int16, blocks int, lo, hi uint16) int64 {
	panic("nnue: no AVX2 kernels in this build")
}

func windows8x8AVX2(out *int32, base *int32, rows *uint16, ws int, step int32) {
	panic("nnue: no AVX2 kernels in this build")
}

func deltaWin8x8AVX2(feats *int32, base *int32, rows *uint16, ws int, step int32, mask int, write int, olds *int32, news *int32, lut *int32) int {
	panic("nnue: no AVX2 kernels in this build")
}

func swapRows8x2AVX2(acc *[8]uint64, w1 *uint64, olds *int32, news *int32, n int, stride int) {
	panic("nnue: no AVX2 kernels in this build")
}
