package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBFSCompressKill9: `bfs --compress --checkpoint DIR` killed with
// SIGKILL at random moments (during an expansion, a compression, a
// checkpoint write), then run again each time, ends with the committed
// level file, byte for byte: 8x6 (10x6 with HATELAB_BFS_KILL=10x6, `make
// bfs-kill`), in memory and in disk mode (a 1 MiB budget: many spilled
// runs). The kills come 15 to 250 ms into a run, from the start to about
// the end of an 8x6 search on two idle cores, as 50 to 750 ms did for
// 9x6 (five times the states); 50 to 750 ms for HATELAB_BFS_KILL.
func TestBFSCompressKill9(t *testing.T) {
	for _, disk := range []bool{false, true} {
		t.Run(map[bool]string{false: "memory", true: "disk"}[disk], func(t *testing.T) { testCompressKill9(t, disk) })
	}
}

func testCompressKill9(t *testing.T, disk bool) {
	w, h, kills, lo, hi := "8", "6", 4, 15, 250
	if testing.Short() {
		kills = 3
	}
	if size := os.Getenv("HATELAB_BFS_KILL"); size != "" {
		var ok bool
		if w, h, ok = strings.Cut(size, "x"); !ok {
			t.Fatalf("HATELAB_BFS_KILL=%q: want WxH", size)
		}
		kills, lo, hi = 8, 50, 750
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "datasets", "bfs", "levels", "w"+w+"-h"+h+"-qntm.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ck, out := filepath.Join(dir, "ck"), filepath.Join(dir, "levels.csv")
	args := []string{"bfs", "--well-width", w, "--height", h, "--compress", "--quiet", "--checkpoint", ck, "--checkpoint-every", "0", "--out", out}
	if disk {
		args = append(args, "--spill-dir", filepath.Join(dir, "spill"), "--mem-budget", "1")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 14))
	bin := cliBinary(t)
	killed := killRuns(t, bin, args, kills, lo, hi, rng)
	// The last run goes to the end.
	cmd := exec.Command(bin, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("final run: %v: %s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("after %d kills the levels differ from the committed file:\n%s", killed, got)
	}
	t.Logf("%d kills", killed)
}
