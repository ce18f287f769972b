package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCiteCheck runs citecheck.py on one-line notebook sources in a
// repository made in a temporary folder: what it must accept, and what
// it must report (and with which message).
func TestCiteCheck(t *testing.T) {
	py := script(t, "citecheck.py")
	root := t.TempDir()
	for _, d := range []string{"notebooks/src", "engine/hatetris", "lab/records", "datasets/weights"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"engine/doc.go", "datasets/weights/gen-00.hlnn", "README.md"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, line, want string // want "": no problem
	}{
		{"in-repo path", "see `engine/doc.go` and lab/records.", ""},
		{"package and name", "`lab/records.AuditLoops` counts them", ""},
		{"import path", `import "github.com/hatelab/hatelab/lab/records"`, ""},
		{"RepoPath", `nnue.Load(lab.RepoPath("datasets/weights/gen-00.hlnn"))`, ""},
		{"public link", "D&F, https://hallofdreams.org/posts/hatetris/, section *Behaviors*.", ""},
		{"markdown link", "[the README](../README.md)", ""},
		{"other repository", "qntm/hatetris, `src/enemy-ais/hatetris-ai.ts`", ""},
		{"missing path", "see `lab/nope/x.go`", "path not in the repository: lab/nope/x.go"},
		{"missing import", `"github.com/hatelab/hatelab/lab/ghost"`, "path not in the repository: lab/ghost"},
		{"missing RepoPath", `lab.RepoPath("datasets/weights/none.hlnn")`, "path not in the repository: datasets/weights/none.hlnn"},
		{"notes", "(`docs/literature.md` §2.6)", "cites the project's notes (docs/*.md): docs/literature.md"},
		{"shared notes", "`shared/docs/flats-design.md`", "cites the project's notes (docs/*.md): shared/docs/flats-design.md"},
		{"shared data", "vectors in `shared/testdata/hatetris`", "cites the project's shared notes or data (shared/...): shared/testdata/hatetris"},
		{"design note", "nnue-design.md §4", "cites the project's notes (a design or reference note): nnue-design.md"},
		{"flats note", "`flats-design.md` §0", "cites the project's notes (a design or reference note): flats-design.md"},
		{"seed", "tetr-ai's README (seed 004)", "cites a numbered seed of the notes (seed NNN): seed 004"},
		{"malformed link", "at https://nodot/x today", "malformed link https://nodot/x"},
		{"missing link target", "[gone](gone.md)", "link target not in the repository: gone.md"},
	}
	for _, c := range cases {
		src := filepath.Join(root, "notebooks", "src", "01-x.md")
		if err := os.WriteFile(src, []byte(c.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("/usr/bin/python3", py, "--root", root).CombinedOutput()
		got := string(out)
		if c.want == "" {
			if err != nil || !strings.Contains(got, "every citation followable") {
				t.Errorf("%s: %v\n%s", c.name, err, got)
			}
			continue
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(got, "notebooks/src/01-x.md:1: "+c.want) {
			t.Errorf("%s: exit %v, want status 1 and %q in\n%s", c.name, err, c.want, got)
		}
	}
	// Bad usage: status 2, one line naming the flag.
	out, err := exec.Command("/usr/bin/python3", py, "--root", filepath.Join(root, "none")).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--root") {
		t.Errorf("missing root: %v\n%s", err, out)
	}
}
