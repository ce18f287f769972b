package bfs

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The memory a search may use is the least of what the system has
// available (MemAvailable in /proc/meminfo, which in a container is the
// host's) and what the process's own limits leave: its cgroup's
// (v2 memory.max less memory.current, v1 memory.limit_in_bytes less
// memory.usage_in_bytes) and its address space (RLIMIT_AS less what is
// already mapped). (A small helper of this package's own: no shared
// internal/memlimit existed when it was written.)

// MemoryLimit is one bound on the memory a process may still take.
type MemoryLimit struct {
	// Bytes is the memory left under the bound; Source names the bound
	// ("MemAvailable", "cgroup memory.max", "cgroup
	// memory.limit_in_bytes", "RLIMIT_AS").
	Bytes  int64
	Source string
}

// AvailableMemory returns the tightest bound on the memory this process may
// still take, and ok false when none is known (not Linux, no /proc).
func AvailableMemory() (MemoryLimit, bool) {
	as, vm := addressSpace()
	return availableMemory("/", as, vm)
}

// maxFileRead bounds every limit file read (they are a line each).
const maxFileRead = 1 << 20

// readSmall reads at most maxFileRead bytes of path.
func readSmall(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileRead))
	return string(b), err
}

// readNumber reads a file holding one number ("max" and absurd values,
// as cgroups write no limit: ok false).
func readNumber(path string) (int64, bool) {
	s, err := readSmall(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0, false
	}
	return v, true
}

// availableMemory is AvailableMemory with the files under root, the
// address-space limit as (0: none) and the address space mapped vm.
func availableMemory(root string, as, vm int64) (MemoryLimit, bool) {
	var best MemoryLimit
	ok := false
	take := func(b int64, src string) {
		b = max(b, 0)
		if !ok || b < best.Bytes {
			best, ok = MemoryLimit{Bytes: b, Source: src}, true
		}
	}
	if b, found := memAvailable(filepath.Join(root, "proc/meminfo")); found {
		take(b, "MemAvailable")
	}
	for _, cg := range cgroupPaths(filepath.Join(root, "proc/self/cgroup")) {
		base := filepath.Join(root, "sys/fs/cgroup")
		if cg.v1 {
			base = filepath.Join(base, "memory")
		}
		// The process's own folder, else (a cgroup namespace shows
		// its root) the mount's top.
		for _, dir := range []string{filepath.Join(base, cg.path), base} {
			limit, use := "memory.max", "memory.current"
			if cg.v1 {
				limit, use = "memory.limit_in_bytes", "memory.usage_in_bytes"
			}
			if _, err := os.Stat(filepath.Join(dir, limit)); err != nil {
				continue
			}
			if lim, found := readNumber(filepath.Join(dir, limit)); found {
				cur, _ := readNumber(filepath.Join(dir, use))
				take(lim-cur, "cgroup "+limit)
			}
			break
		}
	}
	if as > 0 {
		take(as-vm, "RLIMIT_AS")
	}
	return best, ok
}

// memAvailable reads MemAvailable (bytes) from a meminfo file.
func memAvailable(path string) (int64, bool) {
	s, err := readSmall(path)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil && kb >= 0 && kb < 1<<52 {
				return kb << 10, true
			}
		}
	}
	return 0, false
}

// cgroupPath is a process's memory cgroup: v1 (the "memory" hierarchy)
// or v2 (the unified one), and its path.
type cgroupPath struct {
	v1   bool
	path string
}

// cgroupPaths reads a /proc/PID/cgroup file: the memory controller's
// cgroup (v1) and the unified one (v2), those that are there.
func cgroupPaths(path string) []cgroupPath {
	s, err := readSmall(path)
	if err != nil {
		return nil
	}
	var out []cgroupPath
	for _, line := range strings.Split(s, "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || strings.Contains(f[2], "..") {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			out = append(out, cgroupPath{path: f[2]})
		case strings.Contains(","+f[1]+",", ",memory,"):
			out = append(out, cgroupPath{v1: true, path: f[2]})
		}
	}
	return out
}
