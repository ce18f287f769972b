package bfs

import (
	"strconv"
	"strings"
	"syscall"
)

// addressSpace returns the process's RLIMIT_AS (0: none) and the address
// space it has mapped (VmSize, bytes).
func addressSpace() (limit, mapped int64) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= 1<<62 {
		return 0, 0
	}
	s, err := readSmall("/proc/self/status")
	if err != nil {
		return int64(rl.Cur), 0
	}
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmSize:" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb >= 0 {
				return int64(rl.Cur), kb << 10
			}
		}
	}
	return int64(rl.Cur), 0
}
