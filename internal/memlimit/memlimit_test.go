package memlimit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// fake writes files (path relative to root: content) into a temp tree.
func fake(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestLimits(t *testing.T) {
	const gib = 1 << 30
	meminfo := "MemTotal: 67108864 kB\nMemFree: 1000 kB\nMemAvailable: 33554432 kB\n" // 32 GiB
	for _, tc := range []struct {
		name  string
		files map[string]string
		rlim  uint64 // 0: none
		want  []Limit
	}{
		{"meminfo only", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n"}, 0,
			[]Limit{{"MemAvailable", 32 * gib}}},
		{"nothing readable", map[string]string{}, 0, nil},
		{"rlimit less the address space held", map[string]string{"proc/meminfo": meminfo, "proc/self/statm": "262144 1000 0 0 0 0 0\n"}, 3 * gib,
			[]Limit{{"MemAvailable", 32 * gib}, {"RLIMIT_AS", 2 * gib}}}, // 262144 pages of 4 KiB = 1 GiB held
		{"rlimit already spent", map[string]string{"proc/self/statm": "1048576 1 0\n"}, gib,
			[]Limit{{"RLIMIT_AS", 0}}},
		{"cgroup v2 with a limit above", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/cgroup":    "0::/a/b\n",
			"cg/a/b/memory.max":   "max\n",
			"cg/a/memory.max":     "4294967296\n", // 4 GiB
			"cg/a/memory.current": "2147483648\n", // 2 GiB, of which 1 GiB inactive cache
			"cg/a/memory.stat":    "anon 1\ninactive_file 1073741824\nactive_file 5\n",
			"cg/memory.max":       "8589934592\n",
			"cg/memory.current":   "1073741824\n",
		}, 0,
			[]Limit{{"MemAvailable", 32 * gib}, {"cgroup memory.max (CG/a)", 3 * gib}, {"cgroup memory.max (CG)", 7 * gib}}},
		{"cgroup v1 memory controller, unlimited root", map[string]string{
			"proc/self/cgroup":                  "9:name=systemd:/\n4:cpu,memory:/x\n0::/\n",
			"cg/memory/x/memory.limit_in_bytes": "3221225472\n",
			"cg/memory/x/memory.usage_in_bytes": "3758096384\n", // over the limit: 0 left
			"cg/memory/memory.limit_in_bytes":   "9223372036854771712\n",
		}, 0,
			[]Limit{{"cgroup memory.limit_in_bytes (CG/memory/x)", 0}}},
		{"garbage files", map[string]string{
			"proc/meminfo":     "MemAvailable: lots kB\n",
			"proc/self/cgroup": "nonsense\n0::/../../etc\n",
			"cg/memory.max":    "-5\n",
			"proc/self/statm":  "x\n",
		}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fake(t, tc.files)
			s := system{proc: filepath.Join(root, "proc"), cgroup: filepath.Join(root, "cg"), pageSize: 4096,
				rlimitAS: func() (uint64, bool) { return tc.rlim, tc.rlim > 0 }}
			got := s.limits()
			for i := range got {
				got[i].Name = strings.ReplaceAll(got[i].Name, filepath.Join(root, "cg"), "CG")
			}
			if len(got) != len(tc.want) {
				t.Fatalf("limits %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("limit %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestCheck(t *testing.T) {
	old := host
	defer func() { host = old }()
	root := fake(t, map[string]string{"proc/meminfo": "MemAvailable: 2097152 kB\n"}) // 2 GiB
	host = system{proc: filepath.Join(root, "proc"), cgroup: filepath.Join(root, "cg"), pageSize: 4096,
		rlimitAS: func() (uint64, bool) { return 1 << 30, true }} // 1 GiB, nothing held (no statm)
	l, ok := Headroom()
	if !ok || l != (Limit{"RLIMIT_AS", 1 << 30}) {
		t.Fatalf("Headroom() = %v, %v; want RLIMIT_AS 1 GiB", l, ok)
	}
	if err := Check("a search", 1<<29); err != nil {
		t.Fatalf("Check(512 MiB): %v", err)
	}
	err := Check("a search", 3<<29)
	if err == nil || err.Error() != "a search needs about 1.50 GiB of memory, only 1.00 GiB left (RLIMIT_AS)" {
		t.Fatalf("Check(1.5 GiB) = %v", err)
	}
	host = system{proc: filepath.Join(root, "none"), cgroup: root, pageSize: 4096, rlimitAS: func() (uint64, bool) { return 0, false }}
	if err := Check("anything", 1<<62); err != nil {
		t.Fatalf("with no bound known Check refused: %v", err)
	}
}

// TestRealRlimit runs the test binary under prlimit --as and checks that
// RLIMIT_AS is read from the real process, less what it holds.
func TestRealRlimit(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") == "1" {
		b, ok := host.addressSpace()
		fmt.Printf("HEADROOM %v %d\n", ok, b)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("prlimit is Linux's")
	}
	prl, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	const limit = 8 << 30
	cmd := exec.Command(prl, "--as="+strconv.Itoa(limit), os.Args[0], "-test.run=^TestRealRlimit$")
	cmd.Env = append(os.Environ(), "MEMLIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var (
		ok bool
		b  uint64
	)
	i := strings.Index(string(out), "HEADROOM ")
	if i < 0 {
		t.Fatalf("child said %q", out)
	}
	if _, err := fmt.Sscan(string(out[i+9:]), &ok, &b); err != nil || !ok || b == 0 || b >= limit {
		t.Fatalf("headroom under an 8 GiB RLIMIT_AS: %q, want between 0 and 8 GiB", out[i:])
	}
}
