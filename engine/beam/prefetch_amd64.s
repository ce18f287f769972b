//go:build !purego

#include "textflag.h"

// func prefetch(e *qentry)
// Prefetches the first and the last byte of a 48-byte memo entry (an
// entry spans two cache lines at half the indices).
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ e+0(FP), AX
	PREFETCHT0 (AX)
	PREFETCHT0 47(AX)
	RET

// func prefetchSlot(s *uint64)
TEXT ·prefetchSlot(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ s+0(FP), AX
	PREFETCHT0 (AX)
	RET
