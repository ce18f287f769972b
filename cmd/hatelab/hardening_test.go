//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/arena"
)

// runTimed runs the binary with a deadline: a command that blocks (on a
// FIFO's open or read) is killed and reported, not left to hang the test.
func runTimed(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v blocked for 60 s", args[1:])
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// checkTimed runs the cases (args after the binary) and wants each exit
// code, and for a failure one line containing msg.
func checkTimed(t *testing.T, bin string, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := runTimed(t, append([]string{bin}, tc.args...)...)
			if code != tc.code || !strings.Contains(msg, tc.msg) || tc.code != 0 && strings.Count(msg, "\n") != 1 {
				t.Fatalf("exit %d, %.400q; want %d and one line with %q", code, msg, tc.code, tc.msg)
			}
		})
	}
}

// TestFIFOInputs: a FIFO (made in a temp folder, no writer) given where a
// file is read, as a flag, inside a spec or inside a folder, is refused at
// once (exit 2, one line): every input is opened non-blocking and must be
// a regular file (internal/boundedfile).
func TestFIFOInputs(t *testing.T) {
	bin := cliBinary(t)
	fx := makeHostileFixtures(t)
	ckpt := filepath.Join(fx.dir, "ck")
	if err := os.Mkdir(ckpt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ckpt, "evaluations.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(fx.dir, "out.json")
	checkTimed(t, bin, []cliCase{
		{"beam --weights", []string{"beam", "--eval", "hand", "--weights", fx.fifo, "--beam-width", "2"}, 2, "not a regular file"},
		{"beam --weights, a link to a FIFO", []string{"beam", "--eval", "hand", "--weights", fx.link, "--beam-width", "2"}, 2, "not a regular file"},
		{"eval tune --weights", []string{"eval", "tune", "--weights", fx.fifo, "--out", out}, 2, "not a regular file"},
		{"eval tune's log in --checkpoint", []string{"eval", "tune", "--suite", "openings:2:4:1", "--beam-width", "2", "--evals", "1", "--out", out, "--checkpoint", ckpt}, 2, "not a regular file"},
		{"arena weights:FIFO", []string{"arena", "--arms", "hand,weights:" + fx.fifo, "--suite", "openings:2:4:1", "--beam-width", "2", "--quiet"}, 2, "not a regular file"},
		{"arena +g:W:FIFO", []string{"arena", "--arms", "score,score+g:30:" + fx.fifo, "--suite", "openings:2:4:1", "--beam-width", "2", "--quiet"}, 2, "not a regular file"},
		{"arena --out FIFO", []string{"arena", "--arms", "hand,score", "--suite", "openings:2:4:1", "--beam-width", "2", "--quiet", "--out", fx.fifo}, 2, "not a regular file"},
		{"nnue merge of a FIFO", []string{"nnue", "merge", "--out", filepath.Join(fx.dir, "m.hlnn"), fx.fifo, "../../datasets/weights/gen-00.hlnn"}, 2, "not a regular file"},
		{"classic stats FIFO", []string{"classic", "stats", fx.fifo}, 2, "not a regular file"},
	})
}

// TestOutputIsInputAndForce: an output that is one of the command's inputs
// (under any spelling) is refused, and an existing file the command did
// not write is replaced only with --force: eval tune's --out (the starting
// --weights, a committed weights file), replay's record in another well.
func TestOutputIsInputAndForce(t *testing.T) {
	bin := cliBinary(t)
	dir := t.TempDir()
	start := filepath.Join(dir, "start.json")
	b, err := os.ReadFile("../../datasets/weights/dnf86.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(start, b, 0o644)
	os.Symlink(start, filepath.Join(dir, "link.json"))
	checkTimed(t, bin, []cliCase{
		{"tune --out is --weights", []string{"eval", "tune", "--out", start, "--weights", start}, 2, "is the starting --weights"},
		{"tune --out is --weights by a link", []string{"eval", "tune", "--out", filepath.Join(dir, "link.json"), "--weights", start}, 2, "is the starting --weights"},
		{"tune --out a weights file it did not write", []string{"eval", "tune", "--out", start}, 2, "add --force"},
		{"tune --out in a missing folder", []string{"eval", "tune", "--out", filepath.Join(dir, "none", "x.json")}, 2, "does not exist"},
		{"replay a record in another well", []string{"replay", "--record", "86", "--well-width", "8"}, 2, "another game"},
		{"replay a record under another bar", []string{"replay", "--record", "86", "--bar", "1"}, 2, "another game"},
		{"replay a record in its well", []string{"replay", "--record", "86", "--well-width", "10"}, 0, ""},
	})
	if after, _ := os.ReadFile(start); !bytes.Equal(after, b) {
		t.Fatal("a refused run changed the starting weights")
	}
}

// TestSettingsRefused: settings that say nothing or cannot work are
// refused before any game, exit 2: tune's repeated term, a step that moves
// no weight, negative parallelism; a merge whose weights underflow; an
// arena in a well where a game need not end, or on dead starts.
func TestSettingsRefused(t *testing.T) {
	bin := cliBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "t.json")
	net := "../../datasets/weights/gen-00.hlnn"
	checkTimed(t, bin, []cliCase{
		{"tune --terms holes,holes", []string{"eval", "tune", "--out", out, "--terms", "holes,holes"}, 2, "listed twice"},
		{"tune --step 1e-300", []string{"eval", "tune", "--out", out, "--step", "1e-300"}, 2, "step 1e-300"},
		{"tune --parallel -1", []string{"eval", "tune", "--out", out, "--parallel", "-1"}, 2, "-1"},
		{"merge --weights 1e-300,1e-300", []string{"nnue", "merge", "--out", filepath.Join(dir, "m.hlnn"), "--weights", "1e-300,1e-300", net, net}, 2, "weight 1 is 1e-300"},
		{"merge --weights 1e-40,1e-40", []string{"nnue", "merge", "--out", filepath.Join(dir, "m.hlnn"), "--weights", "1e-40,1e-40", net, net}, 2, "weight 1 is 1e-40"},
		{"arena in an endless well", []string{"arena", "--arms", "hand,score", "--suite", "empty:1", "--well-width", "4", "--well-depth", "5", "--bar", "1", "--beam-width", "50", "--quiet"}, 2, "need not end"},
		{"arena on dead starts", []string{"arena", "--arms", "hand,score", "--suite", "openings:50:30:1", "--beam-width", "10", "--quiet"}, 2, "50 of the suite's 50 starts are dead"},
	})
}

// TestMemoryOverLimit: under an address-space limit, settings whose
// memory cannot fit are refused in one line with the estimate and the
// limit before anything is allocated: the arena's and the tuner's
// parallel beams at the widest width, many workers at width 100,000.
func TestMemoryOverLimit(t *testing.T) {
	bin := cliBinary(t)
	prl, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	dir := t.TempDir()
	as := "--as=" + strconv.Itoa(3<<30)
	checkTimed(t, prl, []cliCase{
		{"arena, widest beams six at once", []string{as, bin, "arena", "--arms", "hand,score", "--suite", "openings:6:8:1", "--beam-width", "16777215", "--parallel", "6", "--quiet"}, 2, "RLIMIT_AS"},
		{"arena, 1024 workers at width 100000", []string{as, bin, "arena", "--arms", "hand,score", "--suite", "openings:2:8:1", "--beam-width", "100000", "--workers", "1024", "--quiet"}, 2, "RLIMIT_AS"},
		{"eval tune at the widest width", []string{as, bin, "eval", "tune", "--suite", "openings:2:8:1", "--beam-width", "16777215", "--out", filepath.Join(dir, "t.json")}, 2, "RLIMIT_AS"},
		{"nnue cycle, the widest master beam", []string{as, bin, "nnue", "cycle", "--quiet", "--dir", filepath.Join(dir, "cyc"), "--start", "../../datasets/weights/gen-00.hlnn", "--master-beam-width", "16777215"}, 2, "RLIMIT_AS"},
		{"nnue cycle, the widest target beams", []string{as, bin, "nnue", "cycle", "--quiet", "--dir", filepath.Join(dir, "cyc"), "--start", "../../datasets/weights/gen-00.hlnn", "--target-beam-width", "16777215"}, 2, "RLIMIT_AS"},
		{"a suite of long openings built up front", []string{as, bin, "arena", "--arms", "hand,score", "--suite", "openings:100000:1000:1", "--beam-width", "5", "--quiet"}, 2, "RLIMIT_AS"},
		// Built under the limit (its starts share their games' memory), then refused for its dead starts, not for memory.
		{"a large records suite shares its games' memory", []string{as, bin, "arena", "--arms", "hand,score", "--suite", "records:20000:1", "--beam-width", "1", "--quiet"}, 2, "starts are dead"},
		{"a small arena fits", []string{as, bin, "arena", "--arms", "hand,score", "--suite", "openings:2:4:1", "--beam-width", "5", "--quiet"}, 0, ""},
	})
}

// TestTwoArenaWriters: a second arena run on the --out a first one is
// writing is refused at once (exit 2), and the first run's file stays a
// match file it resumes from.
func TestTwoArenaWriters(t *testing.T) {
	bin := cliBinary(t)
	out := filepath.Join(t.TempDir(), "m.jsonl")
	args := []string{"arena", "--arms", "hand,score", "--suite", "openings:40:8:1", "--beam-width", "300", "--quiescence", "--parallel", "1", "--quiet", "--out", out}
	first := exec.Command(bin, args...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(out); err == nil && bytes.Count(b, []byte{'\n'}) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run wrote no header in 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, msg := runTimed(t, append([]string{bin}, args...)...)
	if code != 2 || !strings.Contains(msg, "being written by another arena run") {
		t.Fatalf("second writer: exit %d, %q", code, msg)
	}
	first.Process.Kill()
	first.Wait()
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.LastIndexByte(data, '\n') + 1
	if _, err := arena.ReadGames(bytes.NewReader(data[:cut]), out, nil, nil); err != nil {
		t.Fatalf("the first run's file after the second writer: %v", err)
	}
}
