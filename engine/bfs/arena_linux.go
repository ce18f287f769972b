package bfs

import (
	"syscall"
	"unsafe"
)

// hugePage is the transparent huge page size on the platforms Go runs on.
const hugePage = 2 << 20

// mapWords maps n zeroed words of anonymous memory advised for huge pages.
func mapWords(n int) ([]uint64, func(), bool) {
	size := (8*n + hugePage - 1) &^ (hugePage - 1)
	// Map one huge page more, to align the start.
	raw, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, false
	}
	off := int((hugePage - uintptr(unsafe.Pointer(&raw[0]))%hugePage) % hugePage)
	b := raw[off : off+size]
	// Advice only: without transparent huge pages it changes nothing.
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	words := unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
	return words, func() { _ = syscall.Munmap(raw) }, true
}
