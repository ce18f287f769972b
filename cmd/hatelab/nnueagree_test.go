package main

import (
	"strings"
	"testing"
)

// TestNNUEAgree: tuned against itself keeps its own beam; D&F's weights
// keep part of it; bad flags, suites and evaluations are refused in one
// line, exit 2, before any beam runs.
func TestNNUEAgree(t *testing.T) {
	code, stdout, stderr := runCLI(t, "nnue", "agree", "--reference", "tuned", "--suite", "openings:2:8:1", "--beam-width", "30",
		"--pieces", "3", "--quiescence", "tuned", "hand")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "reference tuned, suite openings:2:8:1") || !strings.HasPrefix(lines[1], "evaluation") {
		t.Fatalf("want a title, a header and two rows:\n%s", stdout)
	}
	if f := strings.Fields(lines[2]); len(f) != 7 || f[0] != "tuned" || f[1] != "6" || f[3] != "1.000" || f[4] != "1.000" || f[5] != "0.000" || f[6] != "1.000" {
		t.Errorf("tuned against itself: %q, want 6 levels, kept and best 1.000, far 0.000, Spearman 1.000", lines[2])
	}
	if f := strings.Fields(lines[3]); len(f) != 7 || f[0] != "hand" || f[3] == "1.000" || f[5] == "0.000" {
		t.Errorf("hand: %q, want less than all of tuned's beam kept, some of it far", lines[3])
	}
	base := []string{"nnue", "agree", "--reference", "tuned", "--suite", "openings:2:8:1", "--beam-width", "30", "--pieces", "3"}
	with := func(flag, value string) []string {
		out := append([]string{}, base...)
		for i := range out {
			if out[i] == flag {
				out[i+1] = value
				return append(out, "tuned")
			}
		}
		return append(out, flag, value, "tuned")
	}
	checkCLI(t, []cliCase{
		{"no evaluation", base, 2, "requires at least 1 arg"},
		{"no --reference", with("--reference", ""), 2, "--reference EVAL is required"},
		{"no --suite", with("--suite", ""), 2, "--suite SUITE is required"},
		{"--beam-width 0", with("--beam-width", "0"), 2, "--beam-width 0: want 1 to 100000"},
		{"--beam-width too wide", with("--beam-width", "100001"), 2, "--beam-width 100001"},
		{"--pieces 0", with("--pieces", "0"), 2, "--pieces 0: want 1 to 1000"},
		{"--pieces -1", with("--pieces", "-1"), 2, "--pieces -1"},
		{"bad suite", with("--suite", "bogus:1"), 2, "--suite:"},
		{"bad reference", with("--reference", "bogus"), 2, `--reference "bogus"`},
		{"bad evaluation", append(append([]string{}, base...), "bogus"), 2, `evaluation "bogus"`},
		{"too many evaluations", append(append([]string{}, base...), strings.Split(strings.Repeat("tuned ", 65), " ")[:65]...), 2, "65 evaluations: at most 64"},
		{"no --beam-width", []string{"nnue", "agree", "--reference", "tuned", "--suite", "openings:2:8:1", "--pieces", "3", "tuned"}, 2, "--beam-width is required"},
		{"no --pieces", []string{"nnue", "agree", "--reference", "tuned", "--suite", "openings:2:8:1", "--beam-width", "3", "tuned"}, 2, "--pieces is required"},
		{"tie-seed starts", with("--suite", "empty:2"), 2, "has a tie seed"},
		{"levels no wider than twice the beam", with("--beam-width", "100000"), 1, "nothing to compare"},
		{"missing network", append(append([]string{}, base...), "nnue:"+t.TempDir()+"/none.hlnn"), 2, "none.hlnn"},
	})
}
