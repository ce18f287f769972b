package main

import (
	"strings"
	"testing"
)

// TestEngineFlag: --engine beam in this binary is one line and exit 2,
// --engine native runs the command, anything else is bad input.
func TestEngineFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bfs", "--engine", "beam", "--well-width", "5", "--height", "3"}, 2, "built without Beam"},
		{[]string{"beam", "--engine", "beam", "--beam-width", "10"}, 2, "built without Beam"},
		{[]string{"classic", "sweep", "--engine", "beam"}, 2, "built without Beam"},
		{[]string{"nnue", "cycle", "--engine", "beam"}, 2, "built without Beam"},
		{[]string{"bfs", "--engine", "spark", "--well-width", "5", "--height", "3"}, 2, `--engine "spark"`},
		{[]string{"bfs", "--engine", "native", "--well-width", "5", "--height", "3", "--json"}, 0, `"score":0`},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%v: exit %d, %q %q; want %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
		if code != 0 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: more than one line: %q", tc.args, stderr)
		}
	}
}
