package bfs

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestAvailableMemoryRlimit: a process whose RLIMIT_AS is 3 GB (set in a
// subprocess) sees at most that, named RLIMIT_AS.
func TestAvailableMemoryRlimit(t *testing.T) {
	if os.Getenv("HATELAB_TEST_RLIMIT") == "1" {
		lim := uint64(3 << 30)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			t.Fatal(err)
		}
		m, ok := AvailableMemory()
		os.Stdout.WriteString("\nRESULT " + strconv.FormatBool(ok) + " " + strconv.FormatInt(m.Bytes, 10) + " " + m.Source + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAvailableMemoryRlimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HATELAB_TEST_RLIMIT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	i := strings.Index(string(out), "RESULT ")
	if i < 0 {
		t.Fatalf("no result: %s", out)
	}
	f := strings.Fields(string(out[i:]))
	n, _ := strconv.ParseInt(f[2], 10, 64)
	if f[1] != "true" || n <= 0 || n >= 3<<30 {
		t.Fatalf("under a 3 GiB RLIMIT_AS: %s", out[i:])
	}
	if f[3] != "RLIMIT_AS" {
		t.Fatalf("under a 3 GiB RLIMIT_AS: %s", out[i:])
	}
}
