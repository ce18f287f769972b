package scripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNbrunGroups checks how nbrun.py --jobs splits notebooks among its
// processes: every notebook exactly once, the groups' code cells as even as
// largest-first allows, each group in the order given, and no empty group.
func TestNbrunGroups(t *testing.T) {
	nbrun := script(t, "nbrun.py", "nbformat", "nbclient")
	dir := t.TempDir()
	write := func(name string, cells int) string {
		cs := []any{map[string]any{"cell_type": "markdown", "id": "m", "metadata": map[string]any{}, "source": "# x"}}
		for i := 0; i < cells; i++ {
			cs = append(cs, map[string]any{"cell_type": "code", "id": fmt.Sprintf("c%d", i), "metadata": map[string]any{}, "execution_count": nil, "source": "x()", "outputs": []any{}})
		}
		b, err := json.Marshal(map[string]any{"cells": cs, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The six notebooks' code cells today.
	cells := map[string]int{"01": 10, "02": 21, "03": 18, "04": 13, "05": 11, "06": 28}
	var all []string
	for _, n := range []string{"01", "02", "03", "04", "05", "06"} {
		all = append(all, write(n+".ipynb", cells[n]))
	}
	cases := []struct {
		jobs  int
		paths []string
		want  string // groups, by notebook name
	}{
		{1, all, "[[01 02 03 04 05 06]]"},
		{2, all, "[[01 04 06] [02 03 05]]"}, // 51 and 50 cells
		{3, all, "[[01 06] [02 05] [03 04]]"},
		{4, all[:2], "[[02] [01]]"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.jobs, len(c.paths)), func(t *testing.T) {
			prog := "import json, sys; sys.path.insert(0, '.'); import nbrun; print(json.dumps(nbrun.groups(sys.argv[2:], int(sys.argv[1]))))"
			out, err := exec.Command("/usr/bin/python3", append([]string{"-c", prog, fmt.Sprint(c.jobs)}, c.paths...)...).Output()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var groups [][]string
			if err := json.Unmarshal(out, &groups); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var names [][]string
			seen := map[string]int{}
			for _, g := range groups {
				var ns []string
				for _, p := range g {
					n := strings.TrimSuffix(filepath.Base(p), ".ipynb")
					ns = append(ns, n)
					seen[n]++
				}
				names = append(names, ns)
			}
			if got := fmt.Sprint(names); got != c.want {
				t.Errorf("groups %s, want %s", got, c.want)
			}
			if len(seen) != len(c.paths) {
				t.Errorf("%d notebooks in the groups, want %d", len(seen), len(c.paths))
			}
			for n, k := range seen {
				if k != 1 {
					t.Errorf("%s in %d groups", n, k)
				}
			}
		})
	}
	// --jobs 0 is refused before any work, as argparse refuses: exit 2, one line naming the flag.
	cmd := exec.Command("/usr/bin/python3", nbrun, "--jobs", "0", all[0])
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--jobs 0") {
		t.Errorf("nbrun.py --jobs 0: %v, %q; want exit 2 naming --jobs 0", err, out)
	}
}
