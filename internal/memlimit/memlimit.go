// Package memlimit says how much more memory the current process can take
// before something stops it, from every bound the process has, not only
// the machine's: MemAvailable in /proc/meminfo (in a container it is the
// host's), the address-space limit RLIMIT_AS (less the address space the
// process already holds) and the memory.max of its cgroups (v2, or v1's
// memory.limit_in_bytes), less what each cgroup already uses (its
// reclaimable inactive file cache not counted), for the process's cgroup
// and every one above it.
//
// A command that sizes its work from memory asks Headroom, or refuses in
// one line with Check, before it allocates anything large. Where the
// operating system says nothing (not Linux), no bound is known and Check
// accepts.
package memlimit

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Limit is one bound on the memory the process can still take.
type Limit struct {
	// Name says which bound: "MemAvailable", "RLIMIT_AS" or
	// "cgroup memory.max (PATH)".
	Name string
	// Bytes is the memory left under the bound.
	Bytes uint64
}

// system is where the bounds are read from (a variable so that tests can
// point it at a fake tree).
type system struct {
	proc   string // /proc
	cgroup string // /sys/fs/cgroup
	// rlimitAS returns the soft RLIMIT_AS (ok false: none, or unknown).
	rlimitAS func() (uint64, bool)
	// pageSize is the size of a page of /proc/self/statm.
	pageSize uint64
}

var host = system{proc: "/proc", cgroup: "/sys/fs/cgroup", rlimitAS: rlimitAS, pageSize: uint64(os.Getpagesize())}

// Limits returns every bound known on this process's memory, in the order
// MemAvailable, RLIMIT_AS, cgroups (innermost first); empty where none is
// known.
func Limits() []Limit { return host.limits() }

// Headroom returns the tightest bound on the memory the process can
// still take; ok is false when no bound is known.
func Headroom() (l Limit, ok bool) {
	for _, x := range Limits() {
		if !ok || x.Bytes < l.Bytes {
			l, ok = x, true
		}
	}
	return l, ok
}

// Check refuses, in one line, work that needs more than the headroom:
// "WHAT needs about X GiB of memory, only Y GiB left (BOUND)". It accepts
// when no bound is known.
func Check(what string, need uint64) error {
	l, ok := Headroom()
	if !ok || need <= l.Bytes {
		return nil
	}
	return fmt.Errorf("%s needs about %s of memory, only %s left (%s)", what, GiB(need), GiB(l.Bytes), l.Name)
}

// GiB formats a byte count in GiB with two decimals ("1.50 GiB").
func GiB(b uint64) string {
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', 2, 64) + " GiB"
}

// maxProcFile caps what is read of one /proc or cgroup file.
const maxProcFile = 1 << 20

// readSmall reads at most maxProcFile bytes of path.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxProcFile))
}

func (s system) limits() []Limit {
	var out []Limit
	if b, ok := s.memAvailable(); ok {
		out = append(out, Limit{"MemAvailable", b})
	}
	if b, ok := s.addressSpace(); ok {
		out = append(out, Limit{"RLIMIT_AS", b})
	}
	return append(out, s.cgroups()...)
}

// memAvailable reads MemAvailable from /proc/meminfo.
func (s system) memAvailable() (uint64, bool) {
	b, err := readSmall(filepath.Join(s.proc, "meminfo"))
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil || kb > 1<<53 {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// addressSpace is the soft RLIMIT_AS less the process's address space
// now (the first field of /proc/self/statm, in pages).
func (s system) addressSpace() (uint64, bool) {
	lim, ok := s.rlimitAS()
	if !ok {
		return 0, false
	}
	var used uint64
	if b, err := readSmall(filepath.Join(s.proc, "self", "statm")); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if pages, err := strconv.ParseUint(f[0], 10, 64); err == nil && pages < 1<<52/s.pageSize {
				used = pages * s.pageSize
			}
		}
	}
	if used >= lim {
		return 0, true
	}
	return lim - used, true
}

// unlimitedV1 is the smallest cgroup v1 limit read as "no limit" (the
// kernel writes the largest page-aligned int64, 9223372036854771712).
const unlimitedV1 = 1 << 62

// cgroups returns the headroom under the memory limit of the process's
// cgroup and of every cgroup above it that has one, innermost first.
func (s system) cgroups() []Limit {
	b, err := readSmall(filepath.Join(s.proc, "self", "cgroup"))
	if err != nil {
		return nil
	}
	var out []Limit
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var base, maxFile, curFile, inactive string
		switch {
		case parts[0] == "0" && parts[1] == "":
			base, maxFile, curFile, inactive = s.cgroup, "memory.max", "memory.current", "inactive_file"
		case hasController(parts[1], "memory"):
			base, maxFile, curFile, inactive = filepath.Join(s.cgroup, "memory"), "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"
		default:
			continue
		}
		rel := filepath.Clean("/" + parts[2])
		for {
			dir := filepath.Join(base, rel)
			if l, ok := cgroupHeadroom(dir, maxFile, curFile, inactive); ok {
				out = append(out, l)
			}
			if rel == "/" {
				break
			}
			rel = filepath.Dir(rel)
		}
	}
	return out
}

func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cgroupHeadroom is limit - (usage - inactive file cache) of the cgroup in
// dir, when it has a limit.
func cgroupHeadroom(dir, maxFile, curFile, inactive string) (Limit, bool) {
	lim, ok := readUint(filepath.Join(dir, maxFile))
	if !ok || lim >= unlimitedV1 {
		return Limit{}, false // "max", absent or unreadable: no limit here
	}
	used, _ := readUint(filepath.Join(dir, curFile))
	if b, err := readSmall(filepath.Join(dir, "memory.stat")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 2 && f[0] == inactive {
				if v, err := strconv.ParseUint(f[1], 10, 64); err == nil && v <= used {
					used -= v
				}
				break
			}
		}
	}
	name := "cgroup " + maxFile + " (" + dir + ")"
	if used >= lim {
		return Limit{name, 0}, true
	}
	return Limit{name, lim - used}, true
}

// readUint reads a file holding one decimal number ("max" and anything
// else: not ok).
func readUint(path string) (uint64, bool) {
	b, err := readSmall(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}
