package main

import (
	"strings"
	"testing"
)

// TestNNUERanks: the committed distill run's generation 2 is ranked by
// its own network as its report says (valid Spearman 0.905 on 6,002
// wells) and by tuned on the same wells; bad flags, a missing folder and a
// bad evaluation are refused in one line, exit 2.
func TestNNUERanks(t *testing.T) {
	const dir = "../../datasets/weights/distill"
	code, stdout, stderr := runCLI(t, "nnue", "ranks", "--dir", dir, "--generation", "2", "nnue:"+dir+"/gen-02.hlnn", "tuned")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "evaluation") {
		t.Fatalf("want a header and two rows:\n%s", stdout)
	}
	if f := strings.Fields(lines[1]); len(f) != 7 || f[1] != "6002" || f[2] != "0.905" {
		t.Errorf("the generation's network: %q, want 6002 held-out wells and Spearman 0.905 (its report)", lines[1])
	}
	if f := strings.Fields(lines[2]); len(f) != 7 || f[0] != "tuned" || f[1] != "6002" {
		t.Errorf("tuned: %q, want the same 6002 wells", lines[2])
	}
	missing := t.TempDir() + "/none"
	checkCLI(t, []cliCase{
		{"no evaluation", []string{"nnue", "ranks", "--dir", dir, "--generation", "2"}, 2, "requires at least 1 arg"},
		{"no --dir", []string{"nnue", "ranks", "--generation", "2", "tuned"}, 2, "--dir DIR is required"},
		{"--generation 0", []string{"nnue", "ranks", "--dir", dir, "tuned"}, 2, "--generation 0"},
		{"--generation 100", []string{"nnue", "ranks", "--dir", dir, "--generation", "100", "tuned"}, 2, "--generation 100"},
		{"--generation 3", []string{"nnue", "ranks", "--dir", dir, "--generation", "3", "tuned"}, 2, "generation 3: open " + dir + "/gen-03.hlnn"},
		{"missing folder", []string{"nnue", "ranks", "--dir", missing, "--generation", "1", "tuned"}, 2, "gen-01.hlnn: no such file"},
		{"too many evaluations", append([]string{"nnue", "ranks", "--dir", dir, "--generation", "2"}, strings.Split(strings.Repeat("tuned ", 65), " ")[:65]...), 2, "65 evaluations: at most 64"},
		{"bad evaluation", []string{"nnue", "ranks", "--dir", dir, "--generation", "2", "bogus"}, 2, `evaluation "bogus"`},
	})
}
