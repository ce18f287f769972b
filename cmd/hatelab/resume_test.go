package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startBFS starts the binary on args and waits until its checkpoint in dir
// is at level depth or more (or the process ended), then sends sig. It
// returns the exit code, stderr, and whether the signal landed.
func startBFS(t *testing.T, dir string, depth int, sig syscall.Signal, args ...string) (int, string, bool) {
	t.Helper()
	cmd := exec.Command(cliBinary(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	landed := false
	deadline := time.Now().Add(60 * time.Second)
	var err error
wait:
	for time.Now().Before(deadline) {
		select {
		case err = <-done:
			break wait
		case <-time.After(5 * time.Millisecond):
		}
		b, rerr := os.ReadFile(filepath.Join(dir, "checkpoint.json"))
		var ck struct{ Depth int }
		if rerr == nil && json.Unmarshal(b, &ck) == nil && ck.Depth >= depth {
			cmd.Process.Signal(sig)
			landed = true
			err = <-done
			break
		}
	}
	if !landed && err == nil && time.Now().After(deadline) {
		cmd.Process.Kill()
		<-done
		t.Fatal("the search neither checkpointed nor ended in 60 s")
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	}
	return code, stderr.String(), landed
}

// TestBFSReplayKillResume: `bfs --replay longest --checkpoint DIR` killed
// (SIGKILL) after a checkpoint resumes, keeping its levels under DIR, and
// prints the same verified game as a run never stopped; the leftovers of
// killed runs (temporary files, orphaned frontier files, spill folders of
// dead processes) are removed by the next run. 7x6 (15 levels): its
// disk mode writes up to 256 partition files a level, the cost here.
func TestBFSReplayKillResume(t *testing.T) {
	args := []string{"bfs", "--well-width", "7", "--height", "6", "--quiet", "--workers", "2", "--replay", "longest"}
	code, want, msg := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("uninterrupted: %d %s", code, msg)
	}
	dir := filepath.Join(t.TempDir(), "ck")
	spill := filepath.Join(t.TempDir(), "spill")
	ckArgs := append(append([]string(nil), args...), "--checkpoint", dir, "--checkpoint-every", "0", "--spill-dir", spill)
	code, msg, landed := startBFS(t, dir, 4, syscall.SIGKILL, ckArgs...)
	if landed && code != 137 || !landed && code != 0 {
		t.Fatalf("killed run: exit %d (kill landed: %v) %s", code, landed, msg)
	}
	t.Logf("kill landed: %v", landed)
	if _, err := os.Stat(filepath.Join(dir, "levels", "level-00000.bin")); err != nil {
		t.Fatalf("levels not kept with the checkpoint: %v", err)
	}
	// Leftovers as kills leave them.
	dead := filepath.Join(spill, "bfs-999999999-1")
	os.MkdirAll(filepath.Join(dead, "L00003"), 0o755)
	os.WriteFile(filepath.Join(dead, "L00003", "part-00001.bin"), []byte("x"), 0o644)
	for _, f := range []string{".checkpoint.json.tmp-123", "frontier-00001.bin", ".frontier-00009.bin.tmp-77"} {
		os.WriteFile(filepath.Join(dir, f), []byte("junk"), 0o644)
	}
	code, got, msg := runCLI(t, ckArgs...)
	if code != 0 {
		t.Fatalf("resumed: exit %d %s", code, msg)
	}
	line := func(s string) string { return s[strings.Index(s, "longest game"):] }
	if line(got) != line(want) {
		t.Fatalf("resumed game %q, want %q", line(got), line(want))
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "checkpoint.json" && e.Name() != "levels" {
			t.Errorf("left in the checkpoint folder: %s", e.Name())
		}
	}
	if ents, _ := os.ReadDir(spill); len(ents) != 0 {
		t.Errorf("left in the spill folder: %v", ents)
	}
	// Run again: the saved result, the game rebuilt from the kept levels.
	if code, again, msg := runCLI(t, ckArgs...); code != 0 || line(again) != line(want) {
		t.Fatalf("finished checkpoint: exit %d %s %s", code, again, msg)
	}
}

// TestBFSInterrupt: Ctrl-C (SIGINT) during bfs exits 130 with the one
// line "hatelab: interrupted", its checkpoint kept and its spill folder
// removed.
func TestBFSInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ck")
	spill := filepath.Join(t.TempDir(), "spill")
	code, msg, landed := startBFS(t, dir, 3, syscall.SIGINT, "bfs", "--well-width", "9", "--height", "6", "--quiet", "--workers", "2",
		"--checkpoint", dir, "--checkpoint-every", "0", "--spill-dir", spill)
	if !landed {
		t.Skip("the search ended before the interrupt")
	}
	if code != 130 || msg != "hatelab: interrupted\n" {
		t.Fatalf("exit %d, stderr %q; want 130 and one line", code, msg)
	}
	if ents, _ := os.ReadDir(spill); len(ents) != 0 {
		t.Errorf("left in the spill folder: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoint.json")); err != nil {
		t.Error(err)
	}
}

// TestInterruptOtherCommands: Ctrl-C during classic sweep and flats count
// exits 130 with one line too. The two run side by side: each waits
// 700 ms for its command to be at work.
func TestInterruptOtherCommands(t *testing.T) {
	dir := t.TempDir()
	for name, args := range map[string][]string{
		"classic sweep": {"classic", "sweep", "--rows", "6", "--seeds", "100000", "--quiet", "--out", filepath.Join(dir, "sweep.csv")},
		"flats count":   {"flats", "count", "--source", "bfs", "--well-width", "10", "--height", "7", "--out", filepath.Join(dir, "flats.json")},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(cliBinary(t), args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
			kill := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
			defer kill.Stop()
			err := cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if code != 130 || lines[len(lines)-1] != "hatelab: interrupted" {
				t.Fatalf("exit %d, stderr %q; want 130 and hatelab: interrupted", code, stderr.String())
			}
		})
	}
}
