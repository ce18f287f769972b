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

// func outputAVX2(words *uint64, w2 *int16, blocks int, lo, hi uint16) int64
// The sum over blocks*32 hidden lanes of w2[j] times lane j clamped to
// lo..hi, where lanes and bounds are biased: words plus 2^15 in every
// 16-bit lane holds each lane's value plus 2^15 with no borrow between
// lanes, and lo, hi are the clamp's ends plus 2^15 (Quantized.outputGo).
TEXT ·outputAVX2(SB), NOSPLIT, $0-40
	MOVQ words+0(FP), DI
	MOVQ w2+8(FP), SI
	MOVQ blocks+16(FP), CX
	VPBROADCASTW lo+24(FP), Y5
	VPBROADCASTW hi+26(FP), Y6
	MOVQ $0x8000800080008000, AX
	VMOVQ AX, X7
	VPBROADCASTQ X7, Y7
	VPXOR Y8, Y8, Y8
	TESTQ CX, CX
	JEQ outDone
outLoop:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VPADDQ Y7, Y0, Y0
	VPADDQ Y7, Y1, Y1
	VPMAXUW Y5, Y0, Y0
	VPMAXUW Y5, Y1, Y1
	VPMINUW Y6, Y0, Y0
	VPMINUW Y6, Y1, Y1
	VPXOR Y7, Y0, Y0
	VPXOR Y7, Y1, Y1
	VPMADDWD (SI), Y0, Y0
	VPMADDWD 32(SI), Y1, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMOVSXDQ X0, Y2
	VPMOVSXDQ X1, Y3
	VPADDQ Y2, Y8, Y8
	VPADDQ Y3, Y8, Y8
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNE outLoop
outDone:
	VEXTRACTI128 $1, Y8, X1
	VPADDQ X1, X8, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

// WINPAT(c): the features of window column c for eight top rows into Y10
// (the row values shifted right by c, their 3-bit slices masked in place
// and joined, plus the slots' bases Y8; Y11 is clobbered).
#define WINPAT(c) \
	VPSRLD $c, Y0, Y10; \
	VPAND Y4, Y10, Y10; \
	VPSRLD $c, Y1, Y11; \
	VPAND Y5, Y11, Y11; \
	VPOR Y11, Y10, Y10; \
	VPSRLD $c, Y2, Y11; \
	VPAND Y6, Y11, Y11; \
	VPOR Y11, Y10, Y10; \
	VPSRLD $c, Y3, Y11; \
	VPAND Y7, Y11, Y11; \
	VPOR Y11, Y10, Y10; \
	VPADDD Y8, Y10, Y10

// One column of windows8x8AVX2: the patterns of column c (row values
// shifted right by c, their 3-bit slices masked in place) for eight top
// rows, plus the slots' bases, stored; the bases then step to the next
// column and DI to its slots.
#define WINCOL(c) \
	WINPAT(c); \
	VMOVDQU Y10, (DI); \
	VPADDD Y9, Y8, Y8; \
	ADDQ DX, DI

// WINSETUP loads the window kernels' rows (BX: four rows' words, shifted
// into their window positions in Y0..Y3), the column masks (Y4..Y7) and
// the base offsets (SI into Y8).
#define WINSETUP \
	VPMOVZXWD (BX), Y0; \
	VPMOVZXWD 2(BX), Y1; \
	VPMOVZXWD 4(BX), Y2; \
	VPMOVZXWD 6(BX), Y3; \
	VPSLLD $9, Y0, Y0; \
	VPSLLD $6, Y1, Y1; \
	VPSLLD $3, Y2, Y2; \
	MOVL $0xe00, AX; \
	VMOVD AX, X4; \
	VPBROADCASTD X4, Y4; \
	MOVL $0x1c0, AX; \
	VMOVD AX, X5; \
	VPBROADCASTD X5, Y5; \
	MOVL $0x38, AX; \
	VMOVD AX, X6; \
	VPBROADCASTD X6, Y6; \
	MOVL $7, AX; \
	VMOVD AX, X7; \
	VPBROADCASTD X7, Y7; \
	VMOVDQU (SI), Y8

// func windows8x8AVX2(out *int32, base *int32, rows *uint16, ws int, step int32)
// The window features of eight consecutive top rows and the eight window
// columns of a 10-wide well: out[c*ws+i] = base[i] + c*step + the 12-bit
// pattern of rows[i..i+3] at column c (bits c..c+2 of each row, the top
// row's in the high bits), for i, c = 0..7 (FeatureSet.windows8; it reads
// rows[0..10]).
TEXT ·windows8x8AVX2(SB), NOSPLIT, $0-36
	MOVQ out+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ rows+16(FP), BX
	MOVQ ws+24(FP), DX
	SHLQ $2, DX
	MOVL step+32(FP), AX
	VMOVD AX, X9
	VPBROADCASTD X9, Y9
	WINSETUP
	WINCOL(0)
	WINCOL(1)
	WINCOL(2)
	WINCOL(3)
	WINCOL(4)
	WINCOL(5)
	WINCOL(6)
	WINCOL(7)
	VZEROUPPER
	RET

// One column of deltaWin8x8AVX2: the column's new features (as WINCOL)
// compared with the old ones at DI; the lanes that differ and are in the
// mask R8 have their old and new features packed (VPERMD by the lane
// table at R12) and stored at R10 and R11 plus 4*CX, and CX counts them;
// with R9 all ones the new features are stored over the old ones.
#define DELTACOL(c) \
	WINPAT(c); \
	VMOVDQU (DI), Y11; \
	VPCMPEQD Y10, Y11, Y12; \
	VMOVMSKPS Y12, AX; \
	NOTL AX; \
	ANDL R8, AX; \
	VPMASKMOVD Y10, Y13, (DI); \
	MOVQ AX, R14; \
	SHLQ $5, R14; \
	VMOVDQU (R12)(R14*1), Y12; \
	VPERMD Y11, Y12, Y14; \
	VMOVDQU Y14, (R10)(CX*4); \
	VPERMD Y10, Y12, Y14; \
	VMOVDQU Y14, (R11)(CX*4); \
	POPCNTL AX, AX; \
	ADDQ AX, CX; \
	VPADDD Y9, Y8, Y8; \
	ADDQ DX, DI

// func deltaWin8x8AVX2(feats *int32, base *int32, rows *uint16, ws int, step int32, mask int, write int, olds *int32, news *int32, lut *int32) int
// windows8x8AVX2's window features of eight top rows (lanes) and eight
// columns, compared with the old features at feats (laid out as out
// there): for each lane in mask whose feature changed, the old feature is
// stored at olds[n] and the new one at news[n], n counting from 0 (each
// store writes eight lanes: olds and news need 8 spare entries); with
// write non-zero (all ones) the new features are stored at feats. lut
// holds, for each 8-bit lane mask, the indices of its lanes in order
// (32 bytes a mask). It returns n.
TEXT ·deltaWin8x8AVX2(SB), NOSPLIT, $0-88
	MOVQ feats+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ rows+16(FP), BX
	MOVQ ws+24(FP), DX
	SHLQ $2, DX
	MOVL step+32(FP), AX
	VMOVD AX, X9
	VPBROADCASTD X9, Y9
	MOVQ mask+40(FP), R8
	MOVQ write+48(FP), AX
	VMOVD AX, X13
	VPBROADCASTD X13, Y13
	MOVQ olds+56(FP), R10
	MOVQ news+64(FP), R11
	MOVQ lut+72(FP), R12
	XORQ CX, CX
	WINSETUP
	DELTACOL(0)
	DELTACOL(1)
	DELTACOL(2)
	DELTACOL(3)
	DELTACOL(4)
	DELTACOL(5)
	DELTACOL(6)
	DELTACOL(7)
	MOVQ CX, ret+80(FP)
	VZEROUPPER
	RET

// func swapRows8x2AVX2(acc *[8]uint64, w1 *uint64, olds *int32, news *int32, n int, stride int)
// For i < n: acc += row(news[i]) - row(olds[i]), rows of 8 words at
// w1 + f*stride bytes.
TEXT ·swapRows8x2AVX2(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ w1+8(FP), SI
	MOVQ olds+16(FP), BX
	MOVQ news+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), DX
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	TESTQ CX, CX
	JEQ swap2Done
swap2Loop:
	MOVLQSX (BX), AX
	IMULQ DX, AX
	MOVLQSX (R9), R8
	IMULQ DX, R8
	VPADDQ (SI)(R8*1), Y0, Y0
	VPADDQ 32(SI)(R8*1), Y1, Y1
	VPSUBQ (SI)(AX*1), Y0, Y0
	VPSUBQ 32(SI)(AX*1), Y1, Y1
	ADDQ $4, BX
	ADDQ $4, R9
	DECQ CX
	JNE swap2Loop
swap2Done:
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VZEROUPPER
	RET
