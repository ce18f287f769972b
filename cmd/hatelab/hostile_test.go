//go:build linux

package main

// The hostile suite of issue 30 for the commands outside bfs and nnue:
// flats (count, show, floor, experiment), beam, classic, replay, moves,
// encode/decode and --cpuprofile. Each case runs the binary and wants one
// clean line and exit 2 (or success where the input is fine); afterwards
// every fixture must be as it was (no device, FIFO or foreign file
// replaced). Device-like targets are made in a temp dir: a FIFO, a folder,
// a symbolic link to the FIFO, a 10 GiB sparse file; never the system's
// device nodes.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
	"github.com/hatelab/hatelab/internal/memlimit"
	"golang.org/x/sys/unix"
)

// hostileFixtures are the files a hostile case may aim at.
type hostileFixtures struct {
	dir, fifo, folder, link, sparse, sparseResults, foreign, table, results string
	// chardev is a character device like /dev/null (1, 3) made in the temp
	// dir when the test may (root, a file system that allows devices);
	// "" otherwise, and its cases are skipped.
	chardev string
}

func makeHostileFixtures(t *testing.T) hostileFixtures {
	t.Helper()
	dir := t.TempDir()
	fx := hostileFixtures{
		dir:           dir,
		fifo:          filepath.Join(dir, "fifo"),
		folder:        filepath.Join(dir, "folder"),
		link:          filepath.Join(dir, "link-to-fifo"),
		sparse:        filepath.Join(dir, "sparse.json"),
		sparseResults: filepath.Join(dir, "sparse-results.json"),
		foreign:       filepath.Join(dir, "notes.txt"),
		table:         filepath.Join(dir, "table.json"),
		results:       filepath.Join(dir, "results.json"),
	}
	if err := syscall.Mkfifo(fx.fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	if dev := filepath.Join(dir, "null-like"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))) == nil {
		fx.chardev = dev
	}
	must(os.Mkdir(fx.folder, 0o755))
	must(os.Symlink(fx.fifo, fx.link))
	must(os.WriteFile(fx.foreign, []byte("my notes, not a table\n"), 0o644))
	// A 10 GiB sparse file beginning like a table (and like results): a
	// reader that trusts its beginning and reads it whole dies.
	for path, head := range map[string]string{fx.sparse: `{"format":"hatelab-flats/1",`, fx.sparseResults: `{"format":"hatelab-flats-experiment/1",`} {
		f, err := os.Create(path)
		must(err)
		_, err = f.WriteString(head)
		must(err)
		must(f.Truncate(10 << 30))
		must(f.Close())
	}
	committed, err := os.ReadFile("../../datasets/flats/experiment.json")
	must(err)
	must(os.WriteFile(fx.results, committed, 0o644))
	return fx
}

// snapshot records what every fixture is (type, size, content of small
// files), to check afterwards that nothing was replaced or changed.
func (fx hostileFixtures) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{fx.fifo, fx.folder, fx.link, fx.sparse, fx.sparseResults, fx.foreign, fx.chardev} {
		if p == "" {
			continue
		}
		st, err := os.Lstat(p)
		if err != nil {
			out[p] = "missing"
			continue
		}
		s := st.Mode().Type().String() + " " + strconv.FormatInt(st.Size(), 10)
		if st.Mode().IsRegular() && st.Size() < 1<<20 {
			b, _ := os.ReadFile(p)
			s += " " + string(b)
		}
		out[p] = s
	}
	return out
}

// hostileCase is one bad (or edge) input: the class of issue 30 it
// belongs to, the arguments, the exit status wanted and a substring of
// the one error line.
type hostileCase struct {
	class string
	name  string
	args  []string
	code  int
	msg   string
}

func TestHostile(t *testing.T) {
	bin := cliBinary(t)
	fx := makeHostileFixtures(t)
	const huge = "9223372036854775807"
	newOut := func(name string) string { return filepath.Join(fx.dir, name) }
	count := func(a ...string) []string {
		return append([]string{"flats", "count", "--source", "bfs", "--well-width", "4", "--height", "2", "--quiet"}, a...)
	}
	countOut := func(a ...string) []string { return count(append([]string{"--out", newOut("t.json")}, a...)...) }
	exp := func(a ...string) []string {
		return append([]string{"flats", "experiment", "--quiet", "--out", newOut("e.json")}, a...)
	}
	committedExp := []string{"flats", "experiment", "--quiet", "--starts", "20", "--beam-widths", "300", "--resamples", "10"}
	cases := []hostileCase{
		// Data loss: writers never replace a device, FIFO, folder or a
		// file of another kind.
		{"data loss", "count onto a FIFO", count("--out", fx.fifo), 2, "not a regular file"},
		{"data loss", "count onto a symlink to a FIFO", count("--out", fx.link), 2, "not a regular file"},
		{"data loss", "count onto a folder", count("--out", fx.folder), 2, "is a folder"},
		{"data loss", "count onto a foreign file", count("--out", fx.foreign), 2, "not a hatelab-flats file"},
		{"data loss", "count onto a missing folder", count("--out", filepath.Join(fx.dir, "no", "t.json")), 2, "does not exist"},
		{"data loss", "count onto its own table", count("--out", fx.table), 0, ""},
		{"data loss", "count again onto its own table", count("--out", fx.table), 0, ""},
		{"data loss", "experiment results on a FIFO", exp("--out", fx.fifo), 2, "not a regular file"},
		{"data loss", "experiment results on a folder", append(exp(), "--out", fx.folder), 2, "is a folder"},
		{"data loss", "experiment results on a foreign file", append(exp(), "--out", fx.foreign), 2, "not an experiment's results"},
		{"data loss", "experiment results in a missing folder", exp("--out", filepath.Join(fx.dir, "no", "e.json")), 2, "does not exist"},
		{"data loss", "count --force onto a foreign copy", count("--force", "--out", newOut("copy.txt")), 0, ""},
		{"data loss", "experiment checkpoint is a file", exp("--checkpoint", fx.foreign), 2, "--checkpoint " + fx.foreign + ": not a folder"},
		{"data loss", "cpuprofile onto a foreign file", []string{"replay", "--cpuprofile", fx.foreign, "DDD"}, 2, "not a CPU profile"},
		{"data loss", "cpuprofile onto a FIFO", []string{"replay", "--cpuprofile", fx.fifo, "DDD"}, 2, "not a regular file"},
		{"data loss", "cpuprofile onto a symlink to a FIFO", []string{"replay", "--cpuprofile", fx.link, "DDD"}, 2, "not a regular file"},
		{"data loss", "cpuprofile onto a folder", []string{"replay", "--cpuprofile", fx.folder, "DDD"}, 2, "is a folder"},
		{"data loss", "beam checkpoint is a file", []string{"beam", "--beam-width", "2", "--checkpoint", fx.foreign}, 2, "not a folder"},
		// Crashes: huge, negative, NaN and Inf numbers, refused before
		// any work with their flag named.
		{"crash", "count --games huge", []string{"flats", "count", "--source", "random", "--games", huge, "--out", newOut("x.json")}, 2, "--games " + huge + ": want 1..1000000"},
		{"crash", "count --max-pieces huge", []string{"flats", "count", "--source", "random", "--max-pieces", huge, "--out", newOut("x.json")}, 2, "--max-pieces"},
		{"crash", "count --max-pieces negative", []string{"flats", "count", "--source", "random", "--max-pieces", "-1", "--out", newOut("x.json")}, 2, "--max-pieces -1"},
		{"crash", "count --starts huge", []string{"flats", "count", "--source", "beam", "--starts", huge, "--out", newOut("x.json")}, 2, "--starts " + huge},
		{"crash", "count --opening huge", []string{"flats", "count", "--source", "beam", "--opening", huge, "--out", newOut("x.json")}, 2, "--opening"},
		{"crash", "count --beam-widths 2^24", []string{"flats", "count", "--source", "beam", "--beam-widths", "16777216", "--out", newOut("x.json")}, 2, "--beam-widths: beam width 16777216"},
		{"crash", "count --height huge", []string{"flats", "count", "--source", "random", "--height", huge, "--out", newOut("x.json")}, 2, "--height " + huge},
		{"crash", "count --max-wells huge", countOut("--max-wells", huge), 2, "--max-wells " + huge},
		{"crash", "count --max-wells 0", countOut("--max-wells", "0"), 2, "--max-wells 0"},
		{"crash", "count --alpha NaN", countOut("--alpha", "NaN"), 2, "--alpha NaN"},
		{"crash", "count --alpha -Inf", countOut("--alpha", "-Inf"), 2, "--alpha -Inf"},
		{"crash", "experiment --starts 2e9", exp("--starts", "2000000000"), 2, "--starts 2000000000: want 1..10000"},
		{"crash", "experiment --tune-starts huge", exp("--tune-starts", huge), 2, "--tune-starts"},
		{"crash", "experiment --resamples huge", exp("--resamples", huge), 2, "--resamples " + huge},
		{"crash", "experiment --tune-beam-width 2^24", exp("--tune-beam-width", "16777216"), 2, "--tune-beam-width 16777216"},
		{"crash", "experiment --opening negative", exp("--opening", "-1"), 2, "--opening -1"},
		{"crash", "experiment --workers huge", exp("--workers", huge), 2, "--workers"},
		{"crash", "experiment --grid Inf", exp("--grid", "1,Inf"), 2, "--grid: weight +Inf"},
		{"crash", "experiment --beam-widths 17 of them", exp("--beam-widths", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"), 2, "--beam-widths: want 1 to 16"},
		{"crash", "floor --max-wells huge", []string{"flats", "floor", "--row", "0111111110", "--max-wells", huge}, 2, "--max-wells " + huge},
		{"crash", "floor --max-height huge", []string{"flats", "floor", "--row", "0111111110", "--max-height", huge}, 2, "--max-height " + huge},
		{"crash", "floor --min-height negative", []string{"flats", "floor", "--row", "0111111110", "--min-height", "-3"}, 2, "--min-height -3"},
		{"crash", "floor --width huge", []string{"flats", "floor", "--row", "0111111110", "--well-width", huge}, 2, "--well-width " + huge},
		{"crash", "show --top huge", []string{"flats", "show", "--top", huge, fx.table}, 0, ""},
		{"crash", "beam --beam-width huge", []string{"beam", "--beam-width", huge}, 2, "--beam-width " + huge},
		{"crash", "beam --workers huge", []string{"beam", "--workers", huge}, 2, "--workers " + huge},
		{"crash", "beam --max-pieces negative", []string{"beam", "--max-pieces", "-1"}, 2, "--max-pieces -1"},
		{"crash", "beam --well-depth huge", []string{"beam", "--well-depth", huge}, 2, "--well-depth " + huge},
		{"crash", "beam --well-width negative", []string{"beam", "--well-width", "-4"}, 2, "--well-width -4"},
		{"crash", "replay --width huge", []string{"replay", "--well-width", huge, "DDD"}, 2, "--well-width " + huge},
		{"crash", "moves --bar huge", []string{"moves", "--bar", huge, "--well", "0"}, 2, "--bar " + huge},
		{"crash", "classic play --rows huge", []string{"classic", "play", "--rows", huge, "--seed", "1"}, 2, "--rows " + huge},
		{"crash", "classic play --max-pieces negative", []string{"classic", "play", "--rows", "8", "--seed", "1", "--max-pieces", "-1"}, 2, "--max-pieces -1"},
		{"crash", "classic sweep --seeds huge", []string{"classic", "sweep", "--rows", "5", "--seeds", huge, "--out", newOut("s.csv")}, 2, "--seeds " + huge},
		{"crash", "number past int64", []string{"beam", "--beam-width", "99999999999999999999"}, 2, "--beam-width"},
		// Unbounded reads: devices, FIFOs (which would block) and huge
		// sparse files refused from their type and size, before any read.
		{"unbounded read", "show a FIFO", []string{"flats", "show", fx.fifo}, 2, "not a regular file"},
		{"unbounded read", "show a 10 GiB sparse table", []string{"flats", "show", fx.sparse}, 2, "is 10.0 GiB, more than the 256.0 MiB a flats table may be"},
		{"unbounded read", "show a folder", []string{"flats", "show", fx.folder}, 2, "is a folder"},
		{"unbounded read", "experiment --main sparse", exp("--main", fx.sparse), 2, "--main " + fx.sparse + ": is 10.0 GiB"},
		{"unbounded read", "experiment --other FIFO", exp("--other", fx.link), 2, "--other " + fx.link + ": is not a regular file"},
		{"unbounded read", "experiment --out sparse", append(exp(), "--out", fx.sparseResults), 2, "is 10.0 GiB, more than the 512.0 MiB a results file may be"},
		{"unbounded read", "experiment --weights FIFO", exp("--weights", fx.fifo), 2, "--weights " + fx.fifo + ": is not a regular file"},
		{"unbounded read", "replay @sparse", []string{"replay", "@" + fx.sparse}, 2, "more than the 64.0 MiB a replay argument may be"},
		{"unbounded read", "decode @folder", []string{"decode", "@" + fx.folder}, 2, "is a folder"},
		{"unbounded read", "classic stats sparse", []string{"classic", "stats", fx.sparse}, 2, "not a sweep CSV"},
		{"unbounded read", "beam --weights folder", []string{"beam", "--weights", fx.folder}, 2, "is a folder"},
		// Memory and endless work.
		{"memory", "beam 4-wide under a 1-row bar never dies", []string{"beam", "--beam-width", "50", "--well-width", "4", "--well-depth", "5", "--bar", "1"}, 2, "--well-width 4 --bar 1: this game need not end"},
		{"memory", "beam 4-wide under a 1-row bar with a bound", []string{"beam", "--beam-width", "50", "--well-width", "4", "--well-depth", "10", "--bar", "1", "--max-pieces", "30"}, 2, "--well-width 4 --bar 1"},
		{"memory", "beam 4-wide under a 2-row bar ends", []string{"beam", "--beam-width", "50", "--well-width", "4", "--well-depth", "6", "--bar", "2"}, 0, ""},
		{"memory", "beam 4x20 ends", []string{"beam", "--beam-width", "50", "--well-width", "4", "--well-depth", "20", "--bar", "4"}, 0, ""},
		{"memory", "beam 5-wide under a 1-row bar stalls", []string{"beam", "--beam-width", "50", "--well-width", "5", "--well-depth", "6", "--bar", "1"}, 1, "stalled"},
		// Validation late and hand-edited results: a committed experiment
		// resumes; one edited by hand is refused before any run.
		{"validation", "committed results resume", append(committedExp, "--out", fx.results), 0, ""},
		{"validation", "flats count --width 13", []string{"flats", "count", "--source", "random", "--well-width", "13", "--out", newOut("x.json")}, 2, "--well-width 13: want 4..12"},
		{"validation", "flats count --source records --alpha Inf", []string{"flats", "count", "--source", "records", "--alpha", "Inf", "--out", newOut("x.json")}, 2, "--alpha +Inf"},
		{"validation", "flats count --weighting", countOut("--weighting", "most"), 2, "--weighting"},
	}
	if fx.chardev != "" {
		cases = append(cases,
			hostileCase{"data loss", "count onto a character device", count("--out", fx.chardev), 2, "not a regular file"},
			hostileCase{"data loss", "cpuprofile onto a character device", []string{"replay", "--cpuprofile", fx.chardev, "DDD"}, 2, "not a regular file"},
			hostileCase{"data loss", "experiment results on a character device", exp("--out", fx.chardev), 2, "not a regular file"},
			hostileCase{"unbounded read", "show a character device", []string{"flats", "show", fx.chardev}, 2, "not a regular file"},
			hostileCase{"unbounded read", "beam --weights a character device", []string{"beam", "--weights", fx.chardev}, 2, "not a regular file"},
			hostileCase{"unbounded read", "experiment --main a character device", exp("--main", fx.chardev), 2, "not a regular file"},
		)
	} else {
		t.Log("no character device could be made here: its cases are skipped")
	}
	firstTest := firstTestRun(t, fx.results)
	for _, edit := range []struct {
		name, field, msg string
		value            any
	}{
		{"start 999", "start", "start 999: want 0..19", 999},
		{"arm A9", "arm", `arm "A9"`, "A9"},
		{"score 1e15", "score", "score 1000000000000000 out of range", 1e15},
		{"negative pieces", "pieces", "pieces -5", -5},
		{"phase", "phase", `phase "warmup"`, "warmup"},
		{"NaN-like time", "cpu_seconds", "time -1 s", -1},
	} {
		path := filepath.Join(fx.dir, "edited-"+edit.field+".json")
		editResults(t, fx.results, path, firstTest, edit.field, edit.value)
		cases = append(cases, hostileCase{"validation", "hand-edited results: " + edit.name, append(committedExp, "--out", path), 2, edit.msg})
	}
	dup := filepath.Join(fx.dir, "edited-dup.json")
	editResults(t, fx.results, dup, -1, "", nil)
	cases = append(cases, hostileCase{"validation", "hand-edited results: a run twice", append(committedExp, "--out", dup), 2, "listed twice"})

	if err := os.WriteFile(newOut("copy.txt"), []byte("a copy the user means to replace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fx.snapshot(t)
	tally := map[string]int{}
	for _, tc := range cases {
		t.Run(tc.class+"/"+tc.name, func(t *testing.T) {
			code, _, msg := runHostile(t, bin, tc.args...)
			tally["tried"]++
			switch {
			case strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") || code > 2 || code < 0:
				tally["crash"]++
				t.Fatalf("crash: exit %d, %.400q", code, msg)
			case code == 0 && tc.code != 0:
				tally["silent wrong"]++
				t.Fatalf("exit 0, want %d (%s)", tc.code, tc.msg)
			case code != tc.code:
				t.Fatalf("exit %d, want %d (stderr %.300q)", code, tc.code, msg)
			case tc.code == 2 && (strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hatelab: ") || !strings.Contains(msg, tc.msg)):
				t.Fatalf("stderr %.400q, want one line (before any work) containing %q", msg, tc.msg)
			case tc.code == 1 && (!strings.HasPrefix(lastLine(msg), "hatelab: ") || !strings.Contains(lastLine(msg), tc.msg)):
				t.Fatalf("stderr ends %.400q, want an error line containing %q", lastLine(msg), tc.msg)
			case tc.code != 0:
				tally["clean error"]++
			}
		})
	}
	after := fx.snapshot(t)
	for p, s := range before {
		if after[p] != s {
			tally["data lost"]++
			t.Errorf("%s changed: %.80q, was %.80q", p, after[p], s)
		}
	}
	if b, err := os.ReadFile(fx.table); err != nil || jsonFormat(b) != flats.TableFormat {
		t.Errorf("the table written over its own kind: %v, format %q", err, jsonFormat(b))
	}
	if b, _ := os.ReadFile(newOut("copy.txt")); jsonFormat(b) != flats.TableFormat || strings.Contains(string(b), "--force") {
		t.Errorf("--force did not replace the file with a table (or --force is in its provenance): %.200q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(fx.dir, ".*tmp-*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	t.Logf("hostile: %d cases tried, %d clean errors, %d crashes, %d silent wrongs, %d fixtures changed",
		tally["tried"], tally["clean error"], tally["crash"], tally["silent wrong"], tally["data lost"])
}

// lastLine is the last line of s (progress lines may come before an error).
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// runHostile runs the binary with no standard input.
func runHostile(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// firstTestRun is the index of the first test-phase run in the results
// file path.
func firstTestRun(t *testing.T, path string) int {
	t.Helper()
	e, err := loadExperiment(path)
	if err != nil || e == nil {
		t.Fatalf("results %s: %v", path, err)
	}
	for i, r := range e.Runs {
		if r.Phase == experiment.PhaseTest {
			return i
		}
	}
	t.Fatalf("no test run in %s", path)
	return -1
}

// editResults writes a copy of the results in src to dst with field of
// run i set to value; i < 0 appends a copy of the first run instead.
func editResults(t *testing.T, src, dst string, i int, field string, value any) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	runs := e["runs"].([]any)
	if i < 0 {
		e["runs"] = append(runs, runs[0])
	} else {
		runs[i].(map[string]any)[field] = value
	}
	b, err = json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// enospcWriter accepts a few bytes, then fails as a full filesystem does.
type enospcWriter struct {
	w    io.Writer
	left int
}

func (e *enospcWriter) Write(p []byte) (int, error) {
	if len(p) > e.left {
		n, _ := e.w.Write(p[:e.left])
		e.left = 0
		return n, &os.PathError{Op: "write", Path: "table", Err: syscall.ENOSPC}
	}
	e.left -= len(p)
	return e.w.Write(p)
}

// TestFullFilesystem: a table write that fails with ENOSPC midway is a
// one-line runtime failure (exit 1), the old table stays whole and no
// temporary file is left.
func TestFullFilesystem(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.json")
	args := []string{"count", "--source", "bfs", "--well-width", "4", "--height", "2", "--quiet", "--out", out}
	if _, err := run(t, newFlatsCmd(), args...); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(out)
	defer func(w func(io.Writer) io.Writer) { outputSink = w }(outputSink)
	outputSink = func(w io.Writer) io.Writer { return &enospcWriter{w: w, left: 100} }
	_, err := run(t, newFlatsCmd(), append(args, "--alpha", "7")...)
	var rt runtimeError
	if !errors.As(err, &rt) || !errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v, want a one-line runtime failure carrying ENOSPC", err)
	}
	if now, _ := os.ReadFile(out); !bytes.Equal(now, old) {
		t.Fatalf("the old table changed after a failed write")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d entries in the folder, want the table alone", len(ents))
	}
}

// TestMemorySizedBudgets: with little memory left, the default --max-wells
// shrinks to what fits and an explicit one that does not fit is refused
// in one line naming the flag and the limit.
func TestMemorySizedBudgets(t *testing.T) {
	defer func(h func() (memlimit.Limit, bool)) { memoryHeadroom = h }(memoryHeadroom)
	memoryHeadroom = func() (memlimit.Limit, bool) { return memlimit.Limit{Name: "RLIMIT_AS", Bytes: 64 << 20}, true }
	for _, tc := range []struct {
		name string
		cmd  []string
		msg  string // "" for success
	}{
		{"floor, default budget sized", []string{"floor", "--well-width", "6", "--row", "011110", "--min-height", "2", "--max-height", "3"}, ""},
		{"floor, explicit budget too big", []string{"floor", "--row", "0111111110", "--max-wells", "5000000"}, "--max-wells 5000000: needs about 1.49 GiB of memory, only 0.06 GiB left (RLIMIT_AS)"},
		{"count, explicit budget too big", []string{"count", "--source", "bfs", "--well-width", "4", "--height", "2", "--max-wells", "5000000", "--out", filepath.Join(t.TempDir(), "t.json")}, "--max-wells 5000000: needs about 2.38 GiB"},
		{"count, default budget sized", []string{"count", "--source", "bfs", "--well-width", "4", "--height", "2", "--quiet", "--out", filepath.Join(t.TempDir(), "t.json")}, ""},
		{"count, beam widths too wide", []string{"count", "--source", "beam", "--beam-widths", "10,16000000", "--out", filepath.Join(t.TempDir(), "t.json")}, "--beam-widths 16000000: needs about"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, newFlatsCmd(), tc.cmd...)
			switch {
			case tc.msg == "" && err != nil:
				t.Fatal(err)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
				t.Fatalf("error %v, want %q", err, tc.msg)
			case err != nil && errors.As(err, new(runtimeError)):
				t.Fatalf("%v is a runtime failure, want bad input (exit 2)", err)
			}
		})
	}
	// A search past the sized budget says which budget it had (exit 1).
	_, err := run(t, newFlatsCmd(), "floor", "--row", "0111111110", "--min-height", "6", "--max-height", "6")
	if !errors.As(err, new(runtimeError)) || !strings.Contains(err.Error(), "--max-wells 209715: the default, sized from the memory left") {
		t.Fatalf("floor past its sized budget: %v", err)
	}
	if got := sizedFromMemory(5_000_000, floorWellBytes); got != 64<<20/floorWellBytes {
		t.Fatalf("sizedFromMemory = %d, want %d", got, 64<<20/floorWellBytes)
	}
	memoryHeadroom = func() (memlimit.Limit, bool) { return memlimit.Limit{}, false }
	if got := sizedFromMemory(5_000_000, floorWellBytes); got != 5_000_000 {
		t.Fatalf("with no limit known sizedFromMemory = %d, want the default", got)
	}
}

// TestAddressSpaceLimit runs the binary under prlimit --as (RLIMIT_AS) and
// wants the memory checks to refuse work that cannot fit (a beam's pools,
// a floor search's wells), naming the limit, before any allocation; the
// binary holds about 1.6 GiB of address space from its start (threads'
// stacks, reservations), so the limit leaves about 1.4 GiB.
func TestAddressSpaceLimit(t *testing.T) {
	bin := cliBinary(t)
	prl, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"beam", "--beam-width", "16777215", "--workers", "1"}, 2, "RLIMIT_AS"},
		{[]string{"flats", "floor", "--row", "0111111110", "--max-wells", "8000000"}, 2, "RLIMIT_AS"},
		{[]string{"flats", "floor", "--well-width", "6", "--row", "011110", "--min-height", "2", "--max-height", "3"}, 0, ""},
	} {
		code, _, msg := runHostile(t, prl, append([]string{"--as=" + strconv.Itoa(3<<30), bin}, tc.args...)...)
		if code != tc.code || !strings.Contains(msg, tc.msg) || tc.code != 0 && strings.Count(msg, "\n") != 1 {
			t.Errorf("%v under a 3 GiB RLIMIT_AS: exit %d, %.300q; want %d and %q", tc.args, code, msg, tc.code, tc.msg)
		}
	}
}

// TestCheckResults: the checks of a resumed experiment's results, run by
// run (the committed results pass).
func TestCheckResults(t *testing.T) {
	e, err := loadExperiment("../../datasets/flats/experiment.json")
	if err != nil || e == nil {
		t.Fatalf("committed results: %v", err)
	}
	if err := checkResults(e, e.Config); err != nil {
		t.Fatalf("committed results refused: %v", err)
	}
	c := e.Config
	good := e.Runs[len(e.Runs)-1]
	for _, tc := range []struct {
		name string
		edit func(r *experiment.Search)
		msg  string
	}{
		{"as committed", func(*experiment.Search) {}, ""},
		{"start past the test starts", func(r *experiment.Search) { r.Start = c.Starts }, "start 20: want 0..19"},
		{"unknown arm", func(r *experiment.Search) { r.Arm = "A9" }, `arm "A9"`},
		{"score beyond its cells", func(r *experiment.Search) { r.Score = 4*(r.Pieces+c.Opening)/10 + 1 }, "out of range"},
		{"weight Inf", func(r *experiment.Search) { r.Weight = math.Inf(1) }, "weight +Inf"},
		{"seconds NaN", func(r *experiment.Search) { r.Seconds = math.NaN() }, "time NaN s"},
		{"beam width 0", func(r *experiment.Search) { r.BeamWidth = 0 }, "beam width 0"},
		{"negative children", func(r *experiment.Search) { r.Children = -1 }, "-1 children"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := good
			tc.edit(&r)
			err := checkRun(&r, c)
			if tc.msg == "" && err != nil || tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)) {
				t.Fatalf("checkRun: %v, want %q", err, tc.msg)
			}
		})
	}
	delete(e.Tuned, experiment.ArmGScore)
	e.Tuned["A3"] = 1
	if err := checkResults(e, c); err == nil || !strings.Contains(err.Error(), `arm "A3"`) {
		t.Fatalf("a tuned A3 accepted: %v", err)
	}
}
