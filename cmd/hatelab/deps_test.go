package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoPlottingInTheCLI keeps the command line free of the notebooks'
// plotting stack: it must import lab/progressview, never lab itself.
func TestNoPlottingInTheCLI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "gonum.org/v1/plot") || p == "github.com/hatelab/hatelab/lab" {
			t.Fatalf("the CLI links %s", p)
		}
	}
}
