package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

// cliEnv, set in the environment, makes this test binary run as the
// hatelab command itself (TestMain): the tests that run hatelab as a
// process run the test binary, and nothing links hatelab a second time.
const cliEnv = "HATELAB_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Setenv(cliEnv, "1") // for the processes the tests start
	os.Exit(m.Run())
}

// cliBinary returns the program the tests run as hatelab: this test binary.
func cliBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the command as a process")
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatalf("the test binary: %v", err)
	}
	return bin
}

// cliCase is one run of the binary: its exit code and, for a failure, a
// substring of its one-line error ("" for success: no error line).
type cliCase struct {
	name string
	args []string
	code int
	msg  string
}

// runCLI runs the binary and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLIInput(t, "", args...)
}

// runCLIInput is runCLI with stdin as standard input.
func runCLIInput(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(cliBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// checkCLI runs the cases: exit code, and one short error line.
func checkCLI(t *testing.T, cases []cliCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, msg := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %.300q)", code, tc.code, msg)
			}
			if tc.msg == "" {
				if tc.code == 0 && strings.Contains(msg, "hatelab: ") {
					t.Fatalf("unexpected error %.300q", msg)
				}
				return
			}
			if !strings.Contains(msg, tc.msg) || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hatelab: ") || len(msg) > 500 {
				t.Fatalf("stderr %.600q; want one short line containing %q", msg, tc.msg)
			}
		})
	}
}

// TestBFSInputErrors: every input problem of bfs, bfs-replay, replay,
// moves and flats exits 2 with one line.
func TestBFSInputErrors(t *testing.T) {
	checkCLI(t, []cliCase{
		{"10x9 does not pack", []string{"bfs", "--well-width", "10", "--height", "9", "--quiet"}, 2, "needs 90 key bits"},
		{"8x11 cannot fit", []string{"bfs", "--well-width", "8", "--height", "11", "--quiet"}, 2, "use disk mode (--spill-dir"},
		{"a million workers", []string{"bfs", "--well-width", "5", "--height", "3", "--workers", "1000000", "--quiet"}, 2, "1000000 workers: want 1..1024"},
		{"negative workers", []string{"bfs", "--well-width", "5", "--height", "3", "--workers", "-1", "--quiet"}, 2, "-1 workers"},
		{"negative max-levels", []string{"bfs", "--well-width", "5", "--height", "3", "--max-levels", "-1", "--quiet"}, 2, "max levels -1"},
		{"negative mem-budget", []string{"bfs", "--well-width", "5", "--height", "3", "--mem-budget", "-1", "--quiet"}, 2, "--mem-budget -1"},
		{"huge mem-budget", []string{"bfs", "--well-width", "5", "--height", "3", "--mem-budget", "99999999999", "--quiet"}, 2, "--mem-budget 99999999999"},
		{"octal width", []string{"bfs", "--well-width", "010", "--height", "3", "--quiet"}, 2, "leading zeros"},
		{"hex height", []string{"bfs", "--well-width", "5", "--height", "0x3", "--quiet"}, 2, "not a decimal integer"},
		{"moves octal depth", []string{"moves", "--well-width", "8", "--well-depth", "010"}, 2, "leading zeros"},
		{"replay octal width", []string{"replay", "--well-width", "010", "DD"}, 2, "leading zeros"},
		{"flats octal width", []string{"flats", "count", "--well-width", "010"}, 2, "leading zeros"},
		{"small search runs", []string{"bfs", "--well-width", "5", "--height", "3", "--workers", "1024", "--quiet"}, 0, ""},
		{"checkpoint on a file", []string{"bfs", "--well-width", "5", "--height", "3", "--quiet", "--checkpoint", "/dev/null"}, 2, "--checkpoint /dev/null: not a directory"},
		{"levels-dir on a file", []string{"bfs", "--well-width", "5", "--height", "3", "--quiet", "--levels-dir", "/dev/null"}, 2, "--levels-dir /dev/null: not a directory"},
		{"spill-dir on a file", []string{"bfs", "--well-width", "5", "--height", "3", "--quiet", "--spill-dir", "/dev/null"}, 2, "--spill-dir /dev/null: not a directory"},
	})
	// A checkpoint of another search: exit 2, like every input problem.
	ck := t.TempDir()
	checkCLI(t, []cliCase{
		{"checkpoint 5x3", []string{"bfs", "--well-width", "5", "--height", "3", "--quiet", "--checkpoint", ck}, 0, ""},
		{"foreign checkpoint", []string{"bfs", "--well-width", "5", "--height", "4", "--quiet", "--checkpoint", ck}, 2, "is for a 5x3 qntm search"},
	})
}

// TestMemoryCheck: the estimate refuses what cannot fit and passes what
// can, in both modes.
func TestMemoryCheck(t *testing.T) {
	const gb = 1 << 30
	for _, tc := range []struct {
		w, h  int
		spill string
		mib   int64
		avail float64
		ok    bool
	}{
		{10, 7, "", 0, 4 * gb, false},    // measured 5.4 GiB
		{10, 7, "", 0, 8 * gb, true},     // fits
		{10, 8, "", 0, 64 * gb, false},   // extrapolated ~170 GiB (its row is disk mode's: not used)
		{5, 16, "", 0, 24 * gb, false},   // extrapolated ~36 GiB (its row, 8.4 GiB, is disk mode's)
		{4, 22, "", 0, 16 * gb, false},   // extrapolated ~61 GiB
		{8, 11, "", 0, 1000 * gb, false}, // terabytes
		{10, 8, "/tmp/x", 1024, 8 * gb, true},
		{10, 8, "/tmp/x", 16 << 10, 8 * gb, false}, // the budget itself does not fit
		{10, 5, "", 0, 0, true},                    // unknown memory: no check
	} {
		opt := optionsFor(tc.w, tc.h, tc.spill, tc.mib)
		err := memoryCheck(opt, tc.avail)
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), " GiB")) {
			t.Errorf("%dx%d spill %q budget %d MiB, %.0f GiB available: %v", tc.w, tc.h, tc.spill, tc.mib, tc.avail/gb, err)
		}
	}
	// The sizes searched in (compressed) disk mode are estimated, not
	// taken from their rows.
	for _, wh := range [][2]int{{10, 8}, {5, 16}, {7, 11}} {
		if _, measured := estimateRSS(wh[0], wh[1], bfs.RuleQntm); measured {
			t.Errorf("%dx%d: its disk-mode row was taken as a memory-mode measurement", wh[0], wh[1])
		}
	}
}

// TestLowBarMoves: the spawn box below a bar of 1 (issue 16): the S that
// spawns onto blocks locks where it is.
func TestLowBarMoves(t *testing.T) {
	out, err := run(t, newMovesCmd(), "--well-width", "8", "--well-depth", "3", "--bar", "1", "--well", "0,187,95")
	if err != nil || !strings.Contains(out, "piece S: 1 distinct results") || !strings.Contains(out, "0,191,95") {
		t.Fatalf("%v: %s", err, out)
	}
}

// optionsFor is the bfs options of a width x height search (tests).
func optionsFor(width, height int, spill string, budgetMiB int64) bfs.Options {
	return bfs.Options{Width: width, Height: height, SpillDir: spill, MemoryBudget: budgetMiB << 20}
}

// TestBFSReplayDamaged: bfs-replay on a damaged meta.json or level file:
// one line naming the file, exit 2 (never a panic or a bare EOF).
func TestBFSReplayDamaged(t *testing.T) {
	dir := t.TempDir()
	if code, _, msg := runCLI(t, "bfs", "--well-width", "5", "--height", "4", "--levels-dir", dir, "--quiet"); code != 0 {
		t.Fatalf("bfs: %d %s", code, msg)
	}
	meta := filepath.Join(dir, "meta.json")
	good, _ := os.ReadFile(meta)
	var m map[string]any
	json.Unmarshal(good, &m)
	m["StartRows"] = make([]int, 40)
	long, _ := json.Marshal(m)
	m["Version"] = 0
	longV1, _ := json.Marshal(m)
	os.WriteFile(meta, longV1, 0o644)
	checkCLI(t, []cliCase{{"StartRows too long", []string{"bfs-replay", dir}, 2, "StartRows has 40 rows, want 8"}})
	os.WriteFile(meta, long, 0o644)
	checkCLI(t, []cliCase{{"edited meta", []string{"bfs-replay", dir}, 2, "meta.json: checksum mismatch"}})
	os.WriteFile(meta, good, 0o644)
	lf := filepath.Join(dir, "level-00002.bin")
	lb, _ := os.ReadFile(lf)
	os.WriteFile(lf, lb[:len(lb)-3], 0o644)
	checkCLI(t, []cliCase{{"truncated level", []string{"bfs-replay", dir}, 2, "level-00002.bin: "}})
	lb[len(lb)-20] ^= 1
	os.WriteFile(lf, lb, 0o644)
	checkCLI(t, []cliCase{{"flipped level", []string{"bfs-replay", dir}, 2, "level-00002.bin: "}})
}

// TestBFSOutputChecks: --out and --append-summary are checked before the
// search (a foreign CSV, a device, a missing folder: exit 2, the file left
// as it is), and a good summary gets one row per run, written atomically.
func TestBFSOutputChecks(t *testing.T) {
	cliBinary(t) // skips in -short mode, before the checks below depend on its runs
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign.csv")
	os.WriteFile(foreign, []byte("name,score\nann,3\n"), 0o644)
	noNewline := filepath.Join(dir, "cut.csv")
	os.WriteFile(noNewline, []byte("width,height"), 0o644)
	sum := filepath.Join(dir, "summary.csv")
	small := []string{"bfs", "--well-width", "5", "--height", "3", "--quiet"}
	with := func(a ...string) []string { return append(append([]string(nil), small...), a...) }
	checkCLI(t, []cliCase{
		{"summary onto a foreign CSV", with("--append-summary", foreign), 2, "foreign.csv is not a summary CSV (left as it is)"},
		{"summary onto a cut file", with("--append-summary", noNewline), 2, "cut.csv is not a summary CSV (left as it is)"},
		{"summary to /dev/full", with("--append-summary", "/dev/full"), 2, "/dev/full is not a regular file"},
		{"out to /dev/full", with("--out", "/dev/full"), 2, "/dev/full is not a regular file"},
		{"out to a folder", with("--out", dir), 2, "is a folder, not a file"},
		{"out to a missing folder", with("--out", filepath.Join(dir, "no", "x.csv")), 2, "cannot write"},
		{"summary with max-levels", with("--append-summary", sum, "--max-levels", "2"), 2, "truncated search has no summary row"},
		{"summary, new file", with("--append-summary", sum), 0, ""},
		{"summary, second row", with("--append-summary", sum), 0, ""},
	})
	if b, _ := os.ReadFile(foreign); string(b) != "name,score\nann,3\n" {
		t.Errorf("foreign CSV changed: %q", b)
	}
	if b, _ := os.ReadFile(sum); strings.Count(string(b), "\n") != 3 || !strings.HasPrefix(string(b), "width,height,") {
		t.Errorf("summary: %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".hatelab-check-*")); len(m) != 0 {
		t.Errorf("left %v", m)
	}
}

// TestCPUProfile: --cpuprofile writes a profile that go tool pprof reads
// (a gzipped protocol buffer), and a path that cannot be created is one
// line and exit 2.
func TestCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	checkCLI(t, []cliCase{
		{"profile written", []string{"bfs", "--well-width", "5", "--height", "5", "--quiet", "--cpuprofile", prof}, 0, ""},
		{"profile path missing", []string{"decode", "--cpuprofile", filepath.Join(t.TempDir(), "no", "cpu.prof"), "x"}, 2, "--cpuprofile: open"},
	})
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile is %d bytes, not gzip", len(b))
	}
}

// TestSharedFlags: the flags hatelab shares with hatelab-beam
// (internal/flags) parse alike in every command that has them: a leading
// zero is refused in one line naming the flag (never octal, never
// silently decimal), and the renamed flags' old names still work as
// deprecated aliases, with a note on standard error.
func TestSharedFlags(t *testing.T) {
	nnueDir := filepath.Join(t.TempDir(), "c")
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string // a substring of standard error
	}{
		{"beam --beam-width 010", []string{"beam", "--beam-width", "010"}, 2, `invalid argument "010" for "--beam-width" flag: leading zeros`},
		{"beam --width 010 (old name)", []string{"beam", "--width", "010"}, 2, `invalid argument "010" for "--width" flag: leading zeros`},
		{"beam --well-width 010", []string{"beam", "--well-width", "010"}, 2, `"--well-width" flag: leading zeros`},
		{"beam --bar 04", []string{"beam", "--bar", "04"}, 2, `"--bar" flag: leading zeros`},
		{"beam --workers 0x2", []string{"beam", "--workers", "0x2"}, 2, `"--workers" flag: not a decimal integer`},
		{"arena --beam-width 010", []string{"arena", "--arms", "hand,score", "--beam-width", "010"}, 2, `"--beam-width" flag: leading zeros`},
		{"arena --well-depth 020", []string{"arena", "--arms", "hand,score", "--well-depth", "020"}, 2, `"--well-depth" flag: leading zeros`},
		{"bfs --well-width 05", []string{"bfs", "--well-width", "05", "--height", "3"}, 2, `"--well-width" flag: leading zeros`},
		{"nnue cycle --master-beam-width 010", []string{"nnue", "cycle", "--dir", nnueDir, "--master-beam-width", "010"}, 2, `"--master-beam-width" flag: leading zeros`},
		{"nnue cycle --target-width 010 (old name)", []string{"nnue", "cycle", "--dir", nnueDir, "--target-width", "010"}, 2, `"--target-width" flag: leading zeros`},
		{"nnue cycle --seed 07", []string{"nnue", "cycle", "--dir", nnueDir, "--seed", "07"}, 2, `"--seed" flag: leading zeros`},
		{"flats experiment --tune-beam-width 010", []string{"flats", "experiment", "--tune-beam-width", "010"}, 2, `"--tune-beam-width" flag: leading zeros`},
		{"bfs --width (old name)", []string{"bfs", "--width", "5", "--height", "3", "--quiet"}, 0, "Flag --width has been deprecated, use --well-width"},
		{"moves --depth (old name)", []string{"moves", "--width", "6", "--depth", "9", "--json", "--well", "0,0,0,0,0,0,0,0,0"}, 0, "Flag --depth has been deprecated, use --well-depth"},
		{"flats floor --width (old name)", []string{"flats", "floor", "--width", "6", "--row", "011110", "--min-height", "2", "--max-height", "3"}, 0, "Flag --width has been deprecated, use --well-width"},
		{"beam --width (old name of --beam-width)", []string{"beam", "--width", "5", "--max-pieces", "5", "--json"}, 0, "Flag --width has been deprecated, use --beam-width"},
		{"beam --well-width 010 is not 8", []string{"beam", "--beam-width", "5", "--max-pieces", "5", "--well-width", "8", "--json"}, 0, ""},
		// One meaning a word: --workers is the goroutines of a search
		// (arena: of each game's beam), --parallel the games at once.
		{"arena --workers 010", []string{"arena", "--arms", "hand,score", "--workers", "010"}, 2, `"--workers" flag: leading zeros`},
		{"arena --workers 1025", []string{"arena", "--arms", "hand,score", "--suite", "empty:1", "--workers", "1025"}, 2, "arena: 1025 workers (goroutines of each game's beam search): want 0 to 1024"},
		{"arena --beam-workers (old name of --workers)", []string{"arena", "--arms", "hand,score", "--suite", "empty:1", "--beam-width", "5", "--max-pieces", "5", "--beam-workers", "2", "--quiet", "--json"}, 0, "Flag --beam-workers has been deprecated, use --workers"},
		{"classic sweep --workers (old name of --parallel)", []string{"classic", "sweep", "--rows", "5", "--seeds", "1", "--quiet", "--workers", "1", "--out", filepath.Join(t.TempDir(), "s.csv")}, 0, "Flag --workers has been deprecated, use --parallel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, msg := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(msg, tc.msg) {
				t.Fatalf("exit %d, stderr %.400q; want exit %d and %q", code, msg, tc.code, tc.msg)
			}
			if tc.code == 2 && strings.Count(msg, "\n") != 1 {
				t.Fatalf("stderr %.400q: not one line", msg)
			}
		})
	}
}
