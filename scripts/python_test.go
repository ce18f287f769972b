package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script returns the absolute path of the Python script name in this
// folder, skipping the test without /usr/bin/python3 or, for each module
// named, without that module for it (import nbformat, nbclient, ...).
func script(t *testing.T, name string, modules ...string) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	if len(modules) > 0 {
		if err := exec.Command("/usr/bin/python3", "-c", "import "+strings.Join(modules, ", ")).Run(); err != nil {
			t.Skipf("no %s for /usr/bin/python3", strings.Join(modules, "/"))
		}
	}
	p, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
