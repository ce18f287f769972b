// Package procstat reads the current process's resource use: peak and
// current resident memory and CPU time. Where the operating system does not
// say (anything but Linux and macOS), the functions return 0.
package procstat

import (
	"os"
	"strconv"
	"strings"
)

// CurrentRSS returns the resident set size in bytes (0 when unknown; it is
// read from /proc, so only Linux knows it).
func CurrentRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
