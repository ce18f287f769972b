package procstat

import (
	"runtime"
	"testing"
)

func TestProcessFigures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("figures are read on Linux only")
	}
	buf := make([]byte, 8<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	if cur, peak := CurrentRSS(), PeakRSS(); cur <= 0 || peak < 8<<20 || cur > peak+(1<<20) {
		t.Fatalf("rss current %d, peak %d", cur, peak)
	}
	s := 0
	for i := 0; i < 50_000_000; i++ {
		s += i ^ int(buf[i&(1<<20-1)])
	}
	if c := CPUSeconds(); c <= 0 {
		t.Fatalf("cpu seconds %v (sum %d)", c, s)
	}
	runtime.KeepAlive(buf)
}
