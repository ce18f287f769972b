package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// build returns the binary: $HATELAB_BEAM_BIN where set (make beamtest
// sets it to the bin/hatelab-beam it has just built: linking the Beam SDK
// again costs about as much as the tests), else one built once per run.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if b := os.Getenv("HATELAB_BEAM_BIN"); b != "" {
			buildBin = b
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "hatelab-beam-test")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "hatelab-beam")
		if out, err := exec.Command("go", "build", "-o", buildBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return buildBin
}

func run(bin, dir string, args ...string) (int, string, string) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		code = -1
	}
	return code, o.String(), e.String()
}

func TestCLI(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	// A port nothing listens on (taken, then given back).
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	for name, body := range map[string]string{"empty.json": "{}", "null.json": "null", "targets.json": `{"targets":[0.5]}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Bad input: one line on standard error, exit 2.
	for _, args := range [][]string{
		{"bfs", "--well-width", "3", "--height", "5", "--work", "w"},
		{"bfs", "--well-width", "5", "--height", "5"},
		{"bfs", "--engine", "spark"},
		{"bfs", "--runner", "universal", "--work", "w"},
		{"bfs", "--runner", "storm", "--work", "w"},
		{"bfs", "--rule", "nope"},
		{"beam", "--beam-width", "0", "--work", "w"},
		{"beam", "--beam-width", "10", "--eval", "nope", "--work", "w"},
		{"classic", "sweep", "--rows", "5-", "--out", "x.csv", "--work", "w"},
		{"nnue", "targets", "--samples", "missing.json", "--out", "t.json", "--work", "w"},
		// Issue 30: these panicked, waited 120 s without a cause, or
		// read nothing and exited 0.
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--environment-type", "EXTERNAL"},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--environment-type", "EXTERNAL", "--environment-config", closed},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--environment-type", "bogus"},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--runner", "universal", "--endpoint", closed},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--endpoint", "::nonsense"},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--endpoint", "localhost:0"},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--block-states", "-1"},
		{"bfs", "--well-width", "5", "--height", "5", "--work", "w", "--out", "folder"},
		{"prism", "--job-port", "-1"},
		{"prism", "--job-port", "99999"},
		{"worker-pool", "--port", "70000"},
		{"nnue", "targets", "--samples", "empty.json", "--out", "t.json", "--work", "w"},
		{"nnue", "targets", "--samples", "null.json", "--out", "t.json", "--work", "w"},
		{"nnue", "targets", "--samples", "targets.json", "--out", "t.json", "--work", "w"},
		{"nnue", "targets", "--samples", "folder", "--out", "t.json", "--work", "w"},
		{"nnue", "targets", "--samples", "empty.json", "--out", "folder", "--work", "w"},
		{"nnue", "targets", "--samples", "empty.json", "--out", "t.json", "--target-beam-width", "0", "--work", "w"},
		{"beam", "--beam-width", "16777216", "--work", "w"},
		{"beam", "--beam-width", "10", "--block-parents", "-1", "--work", "w"},
		{"beam", "--beam-width", "10", "--parts", "-1", "--work", "w"},
		{"beam", "--beam-width", "10", "--well-width", "3", "--work", "w"},
		{"classic", "sweep", "--rows", "5", "--seeds", "1", "--block-jobs", "-1", "--out", "s.csv", "--work", "w"},
		{"classic", "sweep", "--rows", "5", "--seeds", "1", "--out", "folder", "--work", "w"},
		{"bfs", "--well-width", "5", "--height", "5", "--max-levels", "-1", "--work", "w"},
	} {
		code, _, stderr := run(bin, dir, args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hatelab-beam: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "w")); err == nil {
		t.Errorf("bad input left a work folder: the checks came after the work")
	}
	// Beam and native give the same levels table.
	if code, _, stderr := run(bin, dir, "bfs", "--well-width", "6", "--height", "5", "--work", "w", "--out", "beam.csv"); code != 0 {
		t.Fatalf("beam bfs: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(bin, dir, "bfs", "--engine", "native", "--well-width", "6", "--height", "5", "--out", "native.csv"); code != 0 {
		t.Fatalf("native bfs: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "beam.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "native.csv"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("levels differ:\n%s\nwant\n%s", a, b)
	}
}

// TestOneLine: an error's first line, and its cause (the last line) when
// the first only announces a failure, as Beam's "job … failed:" does.
func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"first\nsecond", "first"},
		{"beamrun: level 8: job job-001 failed:\nbundle inst001 failed:\n\tcaused by:\nDoFn failed:\nlevel 8 partitions 0..12: 8 bytes, want 16",
			"beamrun: level 8: job job-001 failed: level 8 partitions 0..12: 8 bytes, want 16"},
		{"job failed:\n", "job failed:"},
	} {
		if got := oneLine(errors.New(tc.in)); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSharedFlags: the flags hatelab-beam shares with hatelab
// (internal/flags) parse as hatelab parses them (cmd/hatelab's
// TestSharedFlags): a leading zero is refused in one line naming the flag,
// before any work (010 was octal 8 here), and the renamed flags' old names
// still work as deprecated aliases.
func TestSharedFlags(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string // a substring of standard error
	}{
		{"beam --beam-width 010", []string{"beam", "--beam-width", "010", "--work", "w"}, 2, `invalid argument "010" for "--beam-width" flag: leading zeros`},
		{"beam --beam-width 0x10", []string{"beam", "--beam-width", "0x10", "--work", "w"}, 2, `"--beam-width" flag: not a decimal integer`},
		{"beam --well-width 010", []string{"beam", "--well-width", "010", "--work", "w"}, 2, `"--well-width" flag: leading zeros`},
		{"beam --bar 04", []string{"beam", "--bar", "04", "--work", "w"}, 2, `"--bar" flag: leading zeros`},
		{"bfs --well-width 06", []string{"bfs", "--well-width", "06", "--height", "3", "--work", "w"}, 2, `"--well-width" flag: leading zeros`},
		{"bfs --width 06 (old name)", []string{"bfs", "--width", "06", "--height", "3", "--work", "w"}, 2, `"--width" flag: leading zeros`},
		{"targets --target-beam-width 010", []string{"nnue", "targets", "--samples", "s.json", "--out", "t.json", "--target-beam-width", "010", "--work", "w"}, 2, `"--target-beam-width" flag: leading zeros`},
		{"targets --target-width 010 (old name)", []string{"nnue", "targets", "--samples", "s.json", "--out", "t.json", "--target-width", "010", "--work", "w"}, 2, `"--target-width" flag: leading zeros`},
		{"targets --target-beam-width 0", []string{"nnue", "targets", "--samples", "s.json", "--out", "t.json", "--target-beam-width", "0", "--work", "w"}, 2, "--target-beam-width 0: want 1 to 16777215"},
		{"sweep --seeds 010", []string{"classic", "sweep", "--rows", "5", "--seeds", "010", "--out", "s.csv", "--work", "w"}, 2, `"--seeds" flag: leading zeros`},
		{"sweep --rows 05", []string{"classic", "sweep", "--rows", "05", "--seeds", "1", "--out", "s.csv", "--work", "w"}, 2, `--rows "05": want 5-12`},
		{"prism --job-port 08073", []string{"prism", "--job-port", "08073"}, 2, `"--job-port" flag: leading zeros`},
		{"bfs --width (old name)", []string{"bfs", "--engine", "native", "--width", "5", "--height", "3"}, 0, "Flag --width has been deprecated, use --well-width"},
		{"targets --target-width (old name)", []string{"nnue", "targets", "--engine", "native", "--samples", "s.json", "--out", "t.json", "--target-width", "4", "--target-pieces", "2"}, 0, "Flag --target-width has been deprecated, use --target-beam-width"},
		{"arena --workers 010", []string{"arena", "--arms", "hand,tuned", "--workers", "010", "--work", "w"}, 2, `"--workers" flag: leading zeros`},
		{"arena --beam-workers (old name of --workers)", []string{"arena", "--engine", "native", "--arms", "hand,score", "--suite", "empty:1", "--beam-width", "5", "--max-pieces", "5", "--beam-workers", "2", "--json"}, 0, "Flag --beam-workers has been deprecated, use --workers"},
		{"beam --beam-width 10 --well-width 8", []string{"beam", "--engine", "native", "--beam-width", "10", "--well-width", "8", "--max-pieces", "5", "--json"}, 0, ""},
		// An output that is an input, or a file of another kind, is not replaced.
		{"targets --out is --samples", []string{"nnue", "targets", "--engine", "native", "--samples", "s.json", "--out", "s.json", "--target-beam-width", "4", "--target-pieces", "2"}, 2, "--out s.json is the input s.json"},
		{"targets --out a file of another kind", []string{"nnue", "targets", "--engine", "native", "--samples", "s.json", "--out", "notes.txt", "--target-beam-width", "4", "--target-pieces", "2"}, 2, "is not a targets file"},
		{"targets --out a file of another kind, --force", []string{"nnue", "targets", "--engine", "native", "--samples", "s.json", "--out", "notes.txt", "--force", "--target-beam-width", "4", "--target-pieces", "2"}, 0, ""},
		{"targets --out in a missing folder", []string{"nnue", "targets", "--engine", "native", "--samples", "s.json", "--out", "none/t.json", "--target-beam-width", "4", "--target-pieces", "2"}, 2, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(bin, dir, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d, stderr %.400q; want exit %d and %q", code, stderr, tc.code, tc.msg)
			}
			if tc.code == 2 && (strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hatelab-beam: ")) {
				t.Fatalf("stderr %.400q: not one line", stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "w")); err == nil {
		t.Errorf("bad input left a work folder")
	}
}

// TestBeamDefaultEval: beam's default evaluation is tuned, as hatelab
// beam's (the same game as --eval tuned and as --weights tuned-03.json
// alone), and --eval hand is D&F's weights, another game.
func TestBeamDefaultEval(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	weights := func(name string) string {
		p, err := filepath.Abs(filepath.Join("..", "..", "..", "datasets", "weights", name))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	game := func(args ...string) string {
		t.Helper()
		code, out, stderr := run(bin, dir, append([]string{"beam", "--engine", "native", "--beam-width", "20", "--max-pieces", "12", "--json"}, args...)...)
		var g struct {
			Score  int    `json:"score"`
			Replay string `json:"replay"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &g) != nil || g.Replay == "" {
			t.Fatalf("%v: exit %d: %s%s", args, code, out, stderr)
		}
		return fmt.Sprint(g.Score, " ", g.Replay)
	}
	def, hand := game(), game("--eval", "hand")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--eval", "tuned"}, def},
		{[]string{"--weights", weights("tuned-03.json")}, def},
		{[]string{"--weights", weights("dnf86.json")}, hand},
	} {
		if got := game(tc.args...); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.args, got, tc.want)
		}
	}
	if def == hand {
		t.Error("tuned and hand play the same game: the test cannot tell them apart")
	}
}
