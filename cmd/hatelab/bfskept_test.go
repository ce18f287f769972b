//go:build unix

package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/bfs"
)

// TestBFSKeptLevels: `hatelab bfs --compress --keep-every K --levels-dir`
// (memory and compressed disk mode) then `hatelab bfs-replay --json`
// give the games of the all-levels rebuild, and they replay under
// `hatelab replay --width W --depth H+4` (the real AI: these tables are finite) to the table's score
// and length; bad flags and damaged folders exit 2 with one line. 9x5
// (134 k states; its compressed disk mode spills past 1 MiB).
func TestBFSKeptLevels(t *testing.T) {
	all := t.TempDir()
	geo := []string{"--well-width", "9", "--height", "5", "--quiet"}
	if code, _, stderr := runCLI(t, append([]string{"bfs", "--levels-dir", all}, geo...)...); code != 0 {
		t.Fatalf("bfs: %d %s", code, stderr)
	}
	want := map[string]bfs.GameRecord{}
	for _, tg := range []string{"longest", "score"} {
		code, out, stderr := runCLI(t, "bfs-replay", "--json", "--replay", tg, all)
		var g bfs.GameRecord
		if code != 0 || json.Unmarshal([]byte(out), &g) != nil {
			t.Fatalf("bfs-replay %s: %d %s", tg, code, stderr)
		}
		want[tg] = g
	}
	for _, tc := range []struct {
		name   string
		search []string
		replay []string
	}{
		{"K=2 in memory", []string{"--keep-every", "2"}, nil},
		{"K=5 compressed disk mode", []string{"--keep-every", "5", "--spill-dir", "SPILL", "--mem-budget", "1"}, []string{"--spill-dir", "SPILL", "--mem-budget", "1"}},
		{"K=30, past the length", []string{"--keep-every", "30"}, []string{"--workers", "1"}},
		{"K=4, low disk", []string{"--keep-every", "4"}, []string{"--low-disk"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, spill := t.TempDir(), t.TempDir()
			sub := func(a []string) []string {
				out := []string{}
				for _, s := range a {
					out = append(out, strings.ReplaceAll(s, "SPILL", spill))
				}
				return out
			}
			args := append(append([]string{"bfs", "--compress", "--levels-dir", dir}, geo...), sub(tc.search)...)
			if code, _, stderr := runCLI(t, args...); code != 0 {
				t.Fatalf("%v: %d %s", args, code, stderr)
			}
			args = append([]string{"bfs-replay", "--json", "--quiet", "--replay", "both"}, append(sub(tc.replay), dir)...)
			code, out, stderr := runCLI(t, args...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != 0 || len(lines) != 2 {
				t.Fatalf("%v: %d %s %s", args, code, out, stderr)
			}
			for i, tg := range []string{"longest", "score"} {
				var g bfs.GameRecord
				if json.Unmarshal([]byte(lines[i]), &g) != nil {
					t.Fatalf("%v: %s", args, lines[i])
				}
				if g != want[tg] {
					t.Fatalf("%s: %+v, all levels give %+v", tg, g, want[tg])
				}
				code, out, stderr = runCLI(t, "replay", "--well-width", "9", "--well-depth", "9", "--json", g.Replay)
				var r struct {
					Score    int  `json:"score"`
					Placed   int  `json:"pieces_placed"`
					GameOver bool `json:"game_over"`
				}
				if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Score != g.Score || r.Placed != g.Length || r.GameOver {
					t.Fatalf("replay %s: %d %s %s", tg, code, out, stderr)
				}
			}
		})
	}
	// 9x5 qntm: score 3, length 15.
	if want["longest"].Length != 15 || want["score"].Score != 3 {
		t.Fatalf("9x5: %+v", want)
	}

	dir := t.TempDir()
	if code, _, stderr := runCLI(t, append([]string{"bfs", "--compress", "--keep-every", "4", "--levels-dir", dir}, geo...)...); code != 0 {
		t.Fatal(stderr)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	damaged := t.TempDir()
	for _, f := range []string{"meta.json", "level-00000.run", "level-00004.run", "level-00012.run"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		os.WriteFile(filepath.Join(damaged, f), b, 0o644)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "level-00008.run"))
	os.WriteFile(filepath.Join(damaged, "level-00008.run"), b[:len(b)-3], 0o644)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"bfs", "--keep-every", "2", "--levels-dir", t.TempDir()}, "needs --compress and --levels-dir"},
		{[]string{"bfs", "--compress", "--keep-every", "2"}, "needs --compress and --levels-dir"},
		{[]string{"bfs", "--compress", "--keep-every", "-2", "--levels-dir", t.TempDir()}, "--keep-every -2"},
		{[]string{"bfs", "--compress", "--keep-every", "x", "--levels-dir", t.TempDir()}, "--keep-every"},
		{[]string{"bfs", "--compress", "--spill-dir", t.TempDir(), "--levels-dir", t.TempDir()}, "--keep-every K"},
		{[]string{"bfs-replay", "--mem-budget", "-1", dir}, "--mem-budget"},
		{[]string{"bfs-replay", "--workers", "-1", dir}, "--workers"},
		{[]string{"bfs-replay", "--replay", "all", dir}, "--replay"},
		{[]string{"bfs-replay", filepath.Join(dir, "level-00004.run")}, "not a folder"},
		{[]string{"bfs-replay", fifo}, "not a folder"},
		{[]string{"bfs-replay", "--quiet", damaged}, "level-00008.run"},
		{[]string{"bfs-replay", "--work-dir", filepath.Join(dir, "meta.json"), dir}, "--work-dir"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.msg) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line with %q", tc.args, code, stderr, tc.msg)
		}
	}
}

// TestBFSKeptKill9: `bfs --compress --keep-every 3 --checkpoint` and then
// `bfs-replay --replay both` (compressed disk mode, a 1 MiB budget), each
// killed with SIGKILL at random moments and run again, end with the games
// of the all-levels rebuild, key for key: 8x6, each kill 15 to 200 ms into
// a run (from the start to about the end of one on two idle cores, as 50
// to 600 ms were for 9x6, five times the states).
func TestBFSKeptKill9(t *testing.T) {
	w, h := "8", "6"
	dir := t.TempDir()
	all, kept := filepath.Join(dir, "all"), filepath.Join(dir, "kept")
	if code, _, stderr := runCLI(t, "bfs", "--well-width", w, "--height", h, "--quiet", "--levels-dir", all); code != 0 {
		t.Fatal(stderr)
	}
	code, want, stderr := runCLI(t, "bfs-replay", "--replay", "both", "--json", all)
	if code != 0 {
		t.Fatal(stderr)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 33))
	bin := cliBinary(t)
	spill := []string{"--spill-dir", filepath.Join(dir, "spill"), "--mem-budget", "1"}
	search := append([]string{"bfs", "--well-width", w, "--height", h, "--compress", "--keep-every", "3", "--levels-dir", kept,
		"--checkpoint", filepath.Join(dir, "ck"), "--checkpoint-every", "0", "--quiet"}, spill...)
	killed := killRuns(t, bin, search, 3, 15, 200, rng)
	if b, err := exec.Command(bin, search...).CombinedOutput(); err != nil {
		t.Fatalf("final search: %v: %s", err, b)
	}
	replay := append([]string{"bfs-replay", "--replay", "both", "--json", "--quiet"}, append(spill, kept)...)
	killed += killRuns(t, bin, replay, 4, 15, 200, rng)
	got, err := exec.Command(bin, replay...).Output()
	if err != nil {
		t.Fatalf("final rebuild: %v", err)
	}
	if string(got) != want {
		t.Fatalf("after %d kills: %s, want %s", killed, got, want)
	}
	t.Logf("%d kills", killed)
}
