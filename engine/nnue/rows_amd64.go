//go:build !purego

package nnue

import "golang.org/x/sys/cpu"

// hasAVX2 selects the AVX2 kernels of rows_amd64.s (the same 64-bit word
// sums as the Go loops, four words an instruction; and the output's
// integer sum, 32 hidden lanes at a time). The delta kernel counts its
// changed lanes with POPCNT, which every AVX2 processor has but a virtual
// machine may hide: both are required. Build with the purego tag to use
// the Go loops everywhere.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

//go:noescape
func addRows8AVX2(acc *[8]uint64, w1 *uint64, feats *int32, n int, stride int)

//go:noescape
func swapRows8AVX2(acc *[8]uint64, w1 *uint64, pairs *int32, n int, stride int)

//go:noescape
func outputAVX2(words *uint64, w2 *int16, blocks int, lo, hi uint16) int64

//go:noescape
func windows8x8AVX2(out *int32, base *int32, rows *uint16, ws int, step int32)

//go:noescape
func deltaWin8x8AVX2(feats *int32, base *int32, rows *uint16, ws int, step int32, mask int, write int, olds *int32, news *int32, lut *int32) int

//go:noescape
func swapRows8x2AVX2(acc *[8]uint64, w1 *uint64, olds *int32, news *int32, n int, stride int)
