package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestArenaShow prints a committed match's table and verdicts without
// playing: tuned-03 against lines alone at width 1,000 (+4.75 lines, the
// number datasets/weights/README.md quotes), each comparison's 95 %
// interval and the family's (98.33 % each) beside Holm's p, the verdict
// reading the family's, and refuses what is not a match.
func TestArenaShow(t *testing.T) {
	file := filepath.Join("..", "..", "datasets", "arena", "terms-w1000.jsonl")
	code, out, stderr := runCLI(t, "arena", "show", file, "--baseline", "score")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"suite openings:20:8:1 (ID 9446cda5e497, 20 starts), beam width 1000, quiescence true",
		"95% interval    family interval",
		"[+2.70, +6.60]  [+2.30, +6.95]",
		"weights:datasets/weights/tuned-03.json vs score: +4.75 lines [+2.30, +6.95] (family-wide, 98.33% each) over 20 starts, 17 wins 2 losses 1 ties, Wilcoxon p = 0.00045 (Holm 0.0014): better",
		"p-values are Holm-adjusted over the 3 comparisons with the baseline, and each family interval is at 98.33% so that together they cover at 95%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("arena show: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "the file holds") {
		t.Errorf("a complete file called incomplete:\n%s", out)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"arena", "show", file, "--baseline", "tuned"}, "no game of the baseline tuned"},
		{[]string{"arena", "show", filepath.Join(dir, "none.jsonl")}, "none.jsonl"},
		{[]string{"arena", "show", dir}, "is a folder"},
		{[]string{"arena", "show"}, "accepts 1 arg"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.msg) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want exit 2 and one line about %q", tc.args, code, stderr, tc.msg)
		}
	}
}

// TestArenaSequentialStop: a match the sequential test stopped prints the
// test's verdict, and no fixed-sample p or interval as if its games had
// been fixed in advance.
//
// arena show reads the match file back with the same flags to the same
// verdict line (the file does not record the test), and without them with
// fixed-sample statistics and a line saying the file is short.
func TestArenaSequentialStop(t *testing.T) {
	for _, test := range []string{"sign", "mean"} {
		file := filepath.Join(t.TempDir(), "m.jsonl")
		seq := []string{"--sprt", "--sprt-test", test, "--sprt-delta", "0.45", "--sprt-lines", "3", "--sprt-alpha", "0.2", "--sprt-beta", "0.2"}
		code, out, stderr := runCLI(t, append([]string{"arena", "--arms", "score,hand", "--suite", "openings:60:8:3", "--beam-width", "8",
			"--quiet", "--parallel", "1", "--out", file}, seq...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", test, code, stderr)
		}
		if !strings.Contains(out, "the sequential test stopped the match before every game was played") {
			t.Logf("%s: the test did not stop this match:\n%s", test, out)
			continue
		}
		if strings.Contains(out, "Wilcoxon p =") || !strings.Contains(out, "sequential") || !strings.Contains(out, "accepting") {
			t.Errorf("%s: a stopped match prints fixed-sample statistics:\n%s", test, out)
		}
		verdict := func(s string) string {
			for _, l := range strings.Split(s, "\n") {
				if strings.HasPrefix(l, "hand vs score:") {
					return l
				}
			}
			return ""
		}
		code, shown, stderr := runCLI(t, append([]string{"arena", "show", file}, seq...)...)
		if code != 0 || verdict(shown) == "" || verdict(shown) != verdict(out) {
			t.Errorf("%s: arena show --sprt: exit %d %s\n%q\nwant the match's\n%q", test, code, stderr, verdict(shown), verdict(out))
		}
		_, plain, _ := runCLI(t, "arena", "show", file)
		if !strings.Contains(plain, "Wilcoxon p =") || !strings.Contains(plain, "a match stopped before its end") {
			t.Errorf("%s: arena show without --sprt:\n%s", test, plain)
		}
	}
	if code, _, stderr := runCLI(t, "arena", "show", "x.jsonl", "--sprt", "--sprt-test", "median"); code != 2 || !strings.Contains(stderr, "--sprt-test") {
		t.Errorf("arena show --sprt-test median: exit %d, %q; want 2 naming --sprt-test", code, stderr)
	}
	// A loss as H1 would be read as "better": refused before the file is read.
	if code, _, stderr := runCLI(t, "arena", "show", "x.jsonl", "--sprt", "--sprt-test", "mean", "--sprt-lines", "-3"); code != 2 || !strings.Contains(stderr, "--sprt-lines/--sprt-alpha/--sprt-beta: sprt: H1's mean difference -3 lines below H0's +0: want a gain") {
		t.Errorf("arena show --sprt-lines -3: exit %d, %q; want 2 naming --sprt-lines", code, stderr)
	}
}

// A suite that repeats starts is played with a note saying how many; one
// that does not, without.
func TestArenaDuplicateNote(t *testing.T) {
	for _, tc := range []struct {
		suite string
		note  string
	}{
		{"records:600:4621", "note: 72 of the suite's 600 starts repeat an earlier start"},
		{"openings:20:8:1", ""},
	} {
		code, _, stderr := runCLI(t, "arena", "--arms", "tuned,score", "--suite", tc.suite, "--beam-width", "2", "--max-pieces", "1", "--quiet",
			"--out", filepath.Join(t.TempDir(), "m.jsonl"))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.suite, code, stderr)
		}
		if got := strings.Contains(stderr, "note: "); got != (tc.note != "") || !strings.Contains(stderr, tc.note) {
			t.Errorf("%s: stderr %q, want the note %q", tc.suite, stderr, tc.note)
		}
	}
}
