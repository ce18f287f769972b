//go:build linux

package scripts

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNotebookCompletion asks GoNB's gopls for a completion and for help,
// as Tab and Shift-Tab in a notebook do (scripts/nbcomplete.py). It starts
// a kernel and waits for gopls to load the lab packages (a minute or more
// on a fresh clone), so it runs only when asked: HATELAB_NBCOMPLETE=1 go
// test ./scripts -run NotebookCompletion, or make nbcomplete.
func TestNotebookCompletion(t *testing.T) {
	if os.Getenv("HATELAB_NBCOMPLETE") != "1" {
		t.Skip("starts a GoNB kernel and gopls: HATELAB_NBCOMPLETE=1 (make nbcomplete)")
	}
	needTools(t)
	if _, err := os.Stat("../bin/gopls"); err != nil {
		t.Fatal("bin/gopls is missing: bash scripts/setup.sh --lab")
	}
	out, err := exec.Command("/usr/bin/python3", "nbcomplete.py").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("nbcomplete.py: %v", err)
	}
	for _, want := range []string{"Tab after 'lab.Pi' offers Pick", "Shift-Tab on 'lab.Pick' shows"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
