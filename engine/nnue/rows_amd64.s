//go:build !purego

#include "textflag.h"

// func addRows8AVX2(acc *[8]uint64, w1 *uint64, feats *int32, n int, stride int)
// acc[0..7] += the 8 words at w1 + f*stride bytes, for each f of feats[:n].
TEXT ·addRows8AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ w1+8(FP), SI
	MOVQ feats+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), DX
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	TESTQ CX, CX
	JEQ addDone
addLoop:
	MOVLQSX (BX), AX
	IMULQ DX, AX
	VPADDQ (SI)(AX*1), Y0, Y0
	VPADDQ 32(SI)(AX*1), Y1, Y1
	ADDQ $4, BX
	DECQ CX
	JNE addLoop
addDone:
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VZEROUPPER
	RET

// func swapRows8AVX2(acc *[8]uint64, w1 *uint64, pairs *int32, n int, stride int)
// For each (old, new) of the n pairs: acc += row(new) - row(old), rows of
// 8 words at w1 + f*stride bytes.
TEXT ·swapRows8AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ w1+8(FP), SI
	MOVQ pairs+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ stride+32(FP), DX
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	TESTQ CX, CX
	JEQ swapDone
swapLoop:
	MOVLQSX (BX), AX
	IMULQ DX, AX
	MOVLQSX 4(BX), R8
	IMULQ DX, R8
	VPADDQ (SI)(R8*1), Y0, Y0
	VPADDQ 32(SI)(R8*1), Y1, Y1
	VPSUBQ (SI)(AX*1), Y0, Y0
	VPSUBQ 32(SI)(AX*1), Y1, Y1
	ADDQ $8, BX
	DECQ CX
	JNE swapLoop
swapDone:
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VZEROUPPER
	RET
