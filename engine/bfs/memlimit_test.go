package bfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAvailableMemory: the tightest of MemAvailable, the cgroup's limit
// (v1 and v2, in the process's folder or the namespace's top) and
// RLIMIT_AS, named; nothing known is not ok.
func TestAvailableMemory(t *testing.T) {
	const gib = int64(1) << 30
	meminfo := "MemTotal:       32000000 kB\nMemAvailable:   20971520 kB\n" // 20 GiB
	for _, tc := range []struct {
		name    string
		files   map[string]string
		as, vm  int64
		want    int64
		source  string
		unknown bool
	}{
		{name: "nothing known", unknown: true},
		{name: "MemAvailable only", files: map[string]string{"proc/meminfo": meminfo}, want: 20 * gib, source: "MemAvailable"},
		{name: "cgroup v2 below it", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"sys/fs/cgroup/job/memory.max": "3221225472\n", "sys/fs/cgroup/job/memory.current": "1073741824\n"},
			want: 2 * gib, source: "cgroup memory.max"},
		{name: "cgroup v2 unlimited", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"sys/fs/cgroup/job/memory.max": "max\n"}, want: 20 * gib, source: "MemAvailable"},
		{name: "cgroup v2 namespace top", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/elsewhere\n",
			"sys/fs/cgroup/memory.max": "4294967296\n"}, want: 4 * gib, source: "cgroup memory.max"},
		{name: "cgroup v1", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/a/b\n1:cpu:/\n",
			"sys/fs/cgroup/memory/a/b/memory.limit_in_bytes": "5368709120", "sys/fs/cgroup/memory/a/b/memory.usage_in_bytes": "1073741824"},
			want: 4 * gib, source: "cgroup memory.limit_in_bytes"},
		{name: "cgroup v1 no limit", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712"}, want: 20 * gib, source: "MemAvailable"},
		{name: "cgroup over its limit", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"sys/fs/cgroup/memory.max": "100", "sys/fs/cgroup/memory.current": "200"}, want: 0, source: "cgroup memory.max"},
		{name: "RLIMIT_AS tightest", files: map[string]string{"proc/meminfo": meminfo}, as: 3 * gib, vm: gib, want: 2 * gib, source: "RLIMIT_AS"},
		{name: "a path with ..", files: map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/../x\n",
			"sys/fs/cgroup/x/memory.max": "1"}, want: 20 * gib, source: "MemAvailable"},
		{name: "a damaged meminfo", files: map[string]string{"proc/meminfo": "MemAvailable: lots kB\n"}, unknown: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range tc.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := availableMemory(root, tc.as, tc.vm)
			if ok == tc.unknown {
				t.Fatalf("ok %v, want %v (%+v)", ok, !tc.unknown, got)
			}
			if ok && (got.Bytes != tc.want || got.Source != tc.source) {
				t.Fatalf("got %+v, want %d bytes from %s", got, tc.want, tc.source)
			}
		})
	}
}

// TestValidateFlags: each bad option is refused in one line naming its
// flag, as bad input.
func TestValidateFlags(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		flag string
	}{
		{Options{Width: 3, Height: 4}, "--well-width: "},
		{Options{Width: 10, Height: 0}, "--height: "},
		{Options{Width: 11, Height: 9}, "--well-width/--height: "},
		{Options{Width: 6, Height: 4, Workers: 2000}, "--workers: "},
		{Options{Width: 6, Height: 4, MaxLevels: -1}, "--max-levels: "},
		{Options{Width: 6, Height: 4, MemoryBudget: -1}, "--mem-budget: "},
		{Options{Width: 6, Height: 4, CheckpointEvery: -1}, "--checkpoint-every: "},
		{Options{Width: 6, Height: 4, Compress: true, SpillDir: "s", LevelDir: "l"}, "--compress --spill-dir"},
		{Options{Width: 6, Height: 4}, ""},
	} {
		err := ValidateFlags(tc.opt)
		if tc.flag == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.opt, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.flag) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one line of bad input naming %q", tc.opt, err, tc.flag)
		}
	}
}
