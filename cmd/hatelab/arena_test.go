package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestArenaErrors(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, []byte("keep me\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"no arms", []string{"arena"}, "arms"},
		{"one arm", []string{"arena", "--arms", "hand"}, "at least two"},
		{"unknown arm", []string{"arena", "--arms", "hand,bogus"}, "unknown evaluation"},
		{"missing network", []string{"arena", "--arms", "hand,nnue:" + filepath.Join(dir, "none.hlnn")}, "none.hlnn"},
		{"bad suite", []string{"arena", "--arms", "hand,score", "--suite", "openings:3"}, "--suite"},
		{"beam width", []string{"arena", "--arms", "hand,score", "--beam-width", "0"}, "--beam-width"},
		{"sprt", []string{"arena", "--arms", "hand,score", "--sprt", "--sprt-delta", "0.6"}, "--sprt-delta"},
		{"sprt loss delta", []string{"arena", "--arms", "hand,score", "--sprt", "--sprt-delta", "-0.1"}, "--sprt-delta/--sprt-alpha/--sprt-beta: sprt: H1's win rate 0.4 below H0's 0.5: want a gain"},
		{"sprt loss lines", []string{"arena", "--arms", "hand,score", "--sprt", "--sprt-test", "mean", "--sprt-lines", "-3"}, "--sprt-lines/--sprt-alpha/--sprt-beta: sprt: H1's mean difference -3 lines below H0's +0: want a gain"},
		{"sprt zero lines", []string{"arena", "--arms", "hand,score", "--sprt", "--sprt-test", "mean", "--sprt-lines", "0"}, "--sprt-lines/--sprt-alpha/--sprt-beta: sprt: mean differences 0 and 0"},
		{"sprt NaN lines", []string{"arena", "--arms", "hand,score", "--sprt", "--sprt-test", "mean", "--sprt-lines", "NaN"}, "--sprt-lines/--sprt-alpha/--sprt-beta: sprt: mean differences 0 and NaN"},
		{"foreign out", []string{"arena", "--arms", "hand,score", "--out", foreign}, "not a hatelab-arena/1 file"},
		{"folder out", []string{"arena", "--arms", "hand,score", "--out", dir}, "folder"},
		{"missing folder", []string{"arena", "--arms", "hand,score", "--out", filepath.Join(dir, "no", "m.jsonl")}, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.msg) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line about %q", code, stderr, tc.msg)
			}
		})
	}
	if b, _ := os.ReadFile(foreign); string(b) != "keep me\n" {
		t.Fatalf("the foreign file was changed: %q", b)
	}
}

// arenaGames returns a match file's games without their times, sorted.
func arenaGames(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var out []string
	for _, l := range lines[1:] {
		var g map[string]any
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		delete(g, "seconds")
		b, _ := json.Marshal(g)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// TestArenaKill9 kills a match with SIGKILL at random moments and checks
// that the rerun ends with the games of an uninterrupted match, and that
// one game at a time gives the same games as several.
func TestArenaKill9(t *testing.T) {
	dir := t.TempDir()
	args := func(out, parallel string) []string {
		return []string{"arena", "--arms", "hand,score,hand-holes", "--suite", "openings:8:8:2", "--beam-width", "40",
			"--quiescence", "--quiet", "--parallel", parallel, "--out", out, "--json"}
	}
	whole := filepath.Join(dir, "whole.jsonl")
	code, stdout, stderr := runCLI(t, args(whole, "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Games       int `json:"games"`
		Comparisons []struct {
			Arm string  `json:"arm"`
			N   int     `json:"n"`
			P   float64 `json:"p"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Games != 24 || len(res.Comparisons) != 2 || res.Comparisons[0].N != 8 {
		t.Fatalf("--json: %v %+v", err, res)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 26))
	out := filepath.Join(dir, "killed.jsonl")
	bin := cliBinary(t)
	killRuns(t, bin, args(out, "3"), 4, 20, 320, rng)
	if code, _, stderr := runCLI(t, args(out, "3")...); code != 0 {
		t.Fatalf("final run: exit %d: %s", code, stderr)
	}
	if got, want := arenaGames(t, out), arenaGames(t, whole); !slices.Equal(got, want) {
		t.Fatalf("killed and resumed (3 at once) differs from uninterrupted (1 at once):\n%v\n%v", got, want)
	}
}

// killRuns starts the command n times, each killed with SIGKILL after a
// random delay of lo to hi milliseconds unless it ends first (without an
// error), and returns how many runs were killed.
func killRuns(t *testing.T, bin string, args []string, n, lo, hi int, rng *rand.Rand) int {
	t.Helper()
	killed := 0
	for i := 0; i < n; i++ {
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: %v: %s", i, err, stderr.String())
			}
		case <-time.After(time.Duration(lo+rng.IntN(hi-lo)) * time.Millisecond):
			cmd.Process.Kill()
			<-done
			killed++
		}
	}
	return killed
}
