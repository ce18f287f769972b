package scripts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuoteCheck runs quotecheck.py on a one-section notebook made in a
// temporary folder (its source and its executed .ipynb): the quotes it must
// accept, and each mismatch it must report, with which message.
func TestQuoteCheck(t *testing.T) {
	py := script(t, "quotecheck.py")
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "notebooks", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The executed notebook: the wiring cell (not in the source), a heading, a code cell printing text and an HTML
	// table, a second heading with no output, then the Markdown cell under test.
	outputs := []any{
		map[string]any{"output_type": "stream", "name": "stdout",
			"text": []string{"master beam: 15 lines in 63 pieces, 1.1 s\n", "110.4 s, 576.6 targets/s; 2603 of 6000 are -1\n", "mean 269.6M, interval 228.5M..310.6M\n"}},
		map[string]any{"output_type": "display_data", "metadata": map[string]any{},
			"data": map[string]any{"text/html": "<table><tr><td>MSE</td><td>0.1747</td><td>&minus;0.281</td><td><span style=\"white-space:nowrap\">920.6</span>k</td></tr></table>"}},
		map[string]any{"output_type": "display_data", "metadata": map[string]any{},
			"data": map[string]any{"text/html": "<svg><text>99.9 s</text></svg>"}},
	}
	write := func(prose string) {
		md := "## The dataset\n\nIntro."
		cells := []any{
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": 0, "source": "!*go mod edit", "outputs": []any{}},
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": md},
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": 1, "source": "x()", "outputs": outputs},
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "## Empty section"},
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": 2, "source": "y()", "outputs": []any{}},
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": prose},
		}
		nb, err := json.Marshal(map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
		if err != nil {
			t.Fatal(err)
		}
		src := "--- md\n" + md + "\n\n--- go\nx()\n\n--- md\n## Empty section\n\n--- go\ny()\n\n--- md\n" + prose + "\n"
		if err := os.WriteFile(filepath.Join(root, "notebooks", "01-x.ipynb"), nb, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "notebooks", "src", "01-x.md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, prose, want string // want "": no problem
	}{
		{"same text", `The beam took 1.1 s. <!-- quotes *The dataset*: "1.1 s" -->`, ""},
		{"commas and minus", `2,603 of 6,000 targets, correlation −0.281. <!-- quotes *The dataset*: "2,603 of 6,000" "−0.281" -->`, ""},
		{"rounded", `MSE 0.175 and 577 targets/s. <!-- quotes *The dataset*: "0.175"="0.1747" "577"="576.6" -->`, ""},
		{"heading prefix, two lines", "In 110.4 s.\n<!-- quotes *The data*:\n  \"110.4 s\" -->", ""},
		{"range ends", `Between 228.5M and 310.6M. <!-- quotes *The dataset*: "310.6M" "228.5M" -->`, ""},
		{"a number whose span stops before its suffix", `About 0.92M. <!-- quotes *The dataset*: "0.92M"="920.6k" -->`, ""},
		{"digits after a point", `In 4 s. <!-- quotes *The dataset*: "4 s" -->`,
			`the prose quotes "4 s" from *The dataset*, whose committed output does not print "4 s"`},
		{"stale prose", `The beam took 1.8 s. <!-- quotes *The dataset*: "1.8 s" -->`,
			`the prose quotes "1.8 s" from *The dataset*, whose committed output does not print "1.8 s"`},
		{"piece of a longer number", `In 10.4 s. <!-- quotes *The dataset*: "10.4 s" -->`,
			`the prose quotes "10.4 s" from *The dataset*, whose committed output does not print "10.4 s"`},
		{"number cut short", `Targets: 576. <!-- quotes *The dataset*: "576" -->`,
			`the prose quotes "576" from *The dataset*, whose committed output does not print "576"`},
		{"prose piece of a longer number", `In 110.4 s. <!-- quotes *The dataset*: "10.4 s" -->`,
			`the prose does not say "10.4 s", which its comment quotes from *The dataset*`},
		{"text of a chart", `It took 99.9 s. <!-- quotes *The dataset*: "99.9 s" -->`,
			`the prose quotes "99.9 s" from *The dataset*, whose committed output does not print "99.9 s"`},
		{"prose lacks it", `The beam was fast. <!-- quotes *The dataset*: "1.1 s" -->`,
			`the prose does not say "1.1 s", which its comment quotes from *The dataset*`},
		{"wrongly rounded", `MSE 0.174. <!-- quotes *The dataset*: "0.174"="0.1747" -->`,
			`the prose says "0.174" where *The dataset* prints 0.1747`},
		{"no such heading", `1.1 s <!-- quotes *Training*: "1.1 s" -->`, "no heading *Training* in 01-x.ipynb"},
		{"no output", `1.1 s <!-- quotes *Empty section*: "1.1 s" -->`, "section *Empty section* of 01-x.ipynb has no text output"},
		{"no heading named", `1.1 s <!-- quotes "1.1 s" -->`, "a quotes comment needs *HEADING*"},
		{"unreadable", `1.1 s <!-- quotes *The dataset*: 1.1 s -->`, "cannot read the quotes from: 1.1 s"},
		{"empty", `1.1 s <!-- quotes *The dataset*: -->`, "a quotes comment for *The dataset* lists nothing"},
	}
	for _, c := range cases {
		write(c.prose)
		out, err := exec.Command("/usr/bin/python3", py, "--root", root).CombinedOutput()
		got := string(out)
		if c.want == "" {
			if err != nil || !strings.Contains(got, "every quoted number printed by its cell") {
				t.Errorf("%s: %v\n%s", c.name, err, got)
			}
			continue
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(got, "notebooks/src/01-x.md:16: "+c.want) {
			t.Errorf("%s: exit %v, want status 1 and %q in\n%s", c.name, err, c.want, got)
		}
	}
	// A source with a cell the executed notebook lacks: the check cannot pair
	// prose and outputs, and says to sync.
	write(`1.1 s <!-- quotes *The dataset*: "1.1 s" -->`)
	src := filepath.Join(root, "notebooks", "src", "01-x.md")
	if f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
		t.Fatal(err)
	} else {
		_, err = f.WriteString("\n--- go\nz()\n")
		if cerr := f.Close(); err != nil || cerr != nil {
			t.Fatal(err, cerr)
		}
	}
	out, err := exec.Command("/usr/bin/python3", py, "--root", root).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "are not the source's (run: make nbsync)") {
		t.Errorf("unsynced notebook: %v\n%s", err, out)
	}
	// Bad usage: status 2, one line naming the problem.
	out, err = exec.Command("/usr/bin/python3", py, "--root", filepath.Join(root, "none")).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--root") {
		t.Errorf("missing root: %v\n%s", err, out)
	}
}
