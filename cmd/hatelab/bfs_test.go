package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

// TestBFSCommand runs `hatelab bfs` on small wells: the JSON fields, the
// CSV levels, the unbounded width-4 case, a verified replay and bad input.
func TestBFSCommand(t *testing.T) {
	out, err := runJSON(t, newBFSCmd(), "max_width", "--well-width", "10", "--height", "4", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"score", "length", "peak_states", "peak_level", "levels", "seconds", "peak_rss_bytes"} {
		if _, ok := j[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if j["truncated"] != false {
		t.Errorf("a complete search: truncated %v", j["truncated"])
	}
	if j["score"].(float64) != 1 || j["length"].(float64) != 11 || j["peak_states"].(float64) != 9094 {
		t.Errorf("10x4: %v", out)
	}
	// The deprecated keys stay for one release, equal to the new ones.
	for old, key := range map[string]string{"max_width": "peak_states", "max_width_depth": "peak_level"} {
		if v, ok := j[old]; !ok || v != j[key] {
			t.Errorf("deprecated key %q: %v, want %v (%q)", old, v, j[key], key)
		}
	}
	lv := j["levels"].([]any)
	if len(lv) != 12 {
		t.Fatalf("%d levels", len(lv))
	}
	for _, k := range []string{"level", "states", "children", "best_score", "depth"} {
		if _, ok := lv[6].(map[string]any)[k]; !ok {
			t.Errorf("level lacks %q", k)
		}
	}
	if l6 := lv[6].(map[string]any); l6["level"] != 6.0 || l6["depth"] != 6.0 {
		t.Errorf("level 6: %v", l6)
	}

	// --max-levels: the values are lower bounds, and say so.
	out, err = runJSON(t, newBFSCmd(), "max_width", "--well-width", "10", "--height", "4", "--max-levels", "3", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var jt struct {
		Truncated bool `json:"truncated"`
		Length    int  `json:"length"`
	}
	if err := json.Unmarshal([]byte(out), &jt); err != nil || !jt.Truncated || jt.Length != 2 {
		t.Errorf("--max-levels 3 --json: %v %+v: want truncated, length 2", err, jt)
	}
	out, err = run(t, newBFSCmd(), "--well-width", "10", "--height", "4", "--max-levels", "3", "--quiet")
	if err != nil || !strings.Contains(out, "score >= 0, length >= 2") {
		t.Errorf("--max-levels 3: %v %s", err, out)
	}

	csvPath := filepath.Join(t.TempDir(), "levels.csv")
	sumPath := filepath.Join(t.TempDir(), "summary.csv")
	out, err = run(t, newBFSCmd(), "--well-width", "10", "--height", "4", "--rule", "clear-above-bar", "--out", csvPath,
		"--append-summary", sumPath, "--quiet")
	if err != nil || !strings.Contains(out, "peak 9095 states") {
		t.Fatalf("old rule: %v %s", err, out)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil || !strings.HasPrefix(string(b), "depth,states,children,best_score\n0,1,0,0\n") {
		t.Errorf("csv: %v %q", err, b)
	}
	if b, err := os.ReadFile(sumPath); err != nil || !strings.Contains(string(b), "10,4,clear-above-bar,1,11,9095,") {
		t.Errorf("summary: %v %q", err, b)
	}

	out, err = run(t, newBFSCmd(), "--well-width", "4", "--height", "4", "--quiet")
	if err != nil || !strings.Contains(out, "unbounded") || !strings.Contains(out, "peak 16 states") {
		t.Errorf("4x4: %v %s", err, out)
	}
	out, err = run(t, newBFSCmd(), "--well-width", "4", "--height", "6", "--history")
	if err != nil || !strings.Contains(out, "score 3, length 7 (exact") {
		t.Errorf("history: %v %s", err, out)
	}
	out, err = run(t, newBFSCmd(), "--well-width", "5", "--height", "6", "--replay", "longest", "--quiet")
	if err != nil || !strings.Contains(out, "longest game (score") || !strings.Contains(out, "verified") {
		t.Errorf("replay: %v %s", err, out)
	}

	dir := t.TempDir()
	if _, err := run(t, newBFSCmd(), "--well-width", "6", "--height", "6", "--levels-dir", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	out, err = run(t, newBFSReplayCmd(), "--replay", "score", "--json", dir)
	var g bfs.GameRecord
	if err != nil || json.Unmarshal([]byte(out), &g) != nil || g.Score != 4 || g.Replay == "" || g.Target != "score" {
		t.Errorf("bfs-replay: %v %s", err, out)
	}
	if _, err := run(t, newBFSReplayCmd(), filepath.Join(dir, "missing")); err == nil {
		t.Error("bfs-replay of a missing folder: want an error")
	}

	for _, bad := range [][]string{
		{"--well-width", "3", "--height", "4"},
		{"--well-width", "10", "--height", "0"},
		{"--well-width", "10", "--height", "30"},
		{"--rule", "nope"},
		{"--replay", "best"},
		{"extra"},
		{"--well-width", "10", "--height", "7", "--history"},
	} {
		if _, err := run(t, newBFSCmd(), append(bad, "--quiet")...); err == nil {
			t.Errorf("%v: want an error", bad)
		} else if _, rt := err.(runtimeError); rt {
			t.Errorf("%v: bad input reported as a runtime failure: %v", bad, err)
		}
	}
}

// TestBFSCheckpoint: a search stopped part way (--max-levels, as a kill
// between levels would) resumes from --checkpoint to the same levels.
func TestBFSCheckpoint(t *testing.T) {
	levels := func(out string) string {
		var j map[string]any
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		b, _ := json.Marshal([]any{j["score"], j["length"], j["peak_states"], j["peak_level"], j["levels"]})
		return string(b)
	}
	want, err := runJSON(t, newBFSCmd(), "max_width", "--well-width", "10", "--height", "5", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ck")
	args := []string{"--well-width", "10", "--height", "5", "--json", "--quiet", "--checkpoint", dir, "--checkpoint-every", "0"}
	if _, err := run(t, newBFSCmd(), append(args, "--max-levels", "9")...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "frontier-00009.bin")); err != nil {
		t.Fatalf("no level-9 checkpoint: %v", err)
	}
	got, err := runJSON(t, newBFSCmd(), "max_width", args...)
	if err != nil || levels(got) != levels(want) {
		t.Fatalf("resumed: %v\n%s\nwant\n%s", err, levels(got), levels(want))
	}
	if _, err := run(t, newBFSCmd(), "--well-width", "10", "--height", "6", "--checkpoint", dir, "--quiet"); err == nil ||
		!strings.Contains(err.Error(), "10x5") {
		t.Fatalf("another search's checkpoint: %v", err)
	}
	if _, err := run(t, newBFSCmd(), "--well-width", "10", "--height", "5", "--checkpoint-every", "-1s"); err == nil {
		t.Fatal("a negative --checkpoint-every must be refused")
	}
}

// TestBFSMemoryLimit: under an address-space limit (prlimit --as, in a
// subprocess) a search that needs more is refused in one line naming
// RLIMIT_AS, exit 2, before any work; the system's MemAvailable alone
// would let it start and die.
func TestBFSMemoryLimit(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	bin := cliBinary(t)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bfs", "--well-width", "10", "--height", "7", "--quiet"}, 2, "available (RLIMIT_AS): use disk mode"},
		{[]string{"bfs", "--well-width", "10", "--height", "8", "--spill-dir", t.TempDir(), "--mem-budget", "4096", "--quiet"}, 2, "--mem-budget 4096 MiB is more than"},
		{[]string{"bfs", "--well-width", "6", "--height", "4", "--quiet"}, 0, ""},
	} {
		cmd := exec.Command(prlimit, append([]string{"--as=3000000000", bin}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		msg := strings.TrimSpace(stderr.String())
		if code != tc.code || !strings.Contains(msg, tc.msg) || strings.Count(msg, "\n") > 0 {
			t.Errorf("%v under 3 GB RLIMIT_AS: exit %d %q, want %d and one line with %q", tc.args, code, msg, tc.code, tc.msg)
		}
	}
}

// TestBFSMemoryFromWork: the memory of a search follows its states, not
// its well's geometry: the first levels of wells of a million partitions
// and more (7x12: 2^20, 5x17: 2^21, 11x8: 2^24) took 0.95 to 9.1 GB when
// arrays were sized per partition; they now fit in 256 MB, under a 3 GB
// RLIMIT_AS (so no large reservation either).
func TestBFSMemoryFromWork(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	bin := cliBinary(t)
	for _, tc := range []struct {
		w, h int
		peak int64
	}{{11, 8, 248}, {7, 12, 106}, {5, 17, 49}} {
		for _, mode := range [][]string{nil, {"--compress"}} {
			args := append([]string{"--as=3000000000", bin, "bfs", "--well-width", strconv.Itoa(tc.w), "--height", strconv.Itoa(tc.h),
				"--max-levels", "3", "--workers", "2", "--json", "--quiet"}, mode...)
			out, err := exec.Command(prlimit, args...).Output()
			if err != nil {
				t.Fatalf("%dx%d %v: %v", tc.w, tc.h, mode, err)
			}
			var j struct {
				PeakStates int64 `json:"peak_states"`
				PeakRSS    int64 `json:"peak_rss_bytes"`
				Truncated  bool  `json:"truncated"`
			}
			if err := json.Unmarshal(out, &j); err != nil {
				t.Fatal(err)
			}
			if j.PeakStates != tc.peak || !j.Truncated || j.PeakRSS <= 0 || j.PeakRSS > 256<<20 {
				t.Errorf("%dx%d %v, 3 levels: peak %d states (want %d), truncated %v, %d MiB RSS (want under 256)",
					tc.w, tc.h, mode, j.PeakStates, tc.peak, j.Truncated, j.PeakRSS>>20)
			}
		}
	}
}
