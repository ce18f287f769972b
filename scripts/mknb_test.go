package scripts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMknbKeepsBounds: mknb.py writes a markdown cell's comparison sign and
// the number after it joined by a no-break space ("p < 0.01"; browsercheck
// reports a sign left at a line end), and leaves code as written (fenced
// with backticks or tildes, inline with one backtick or two: a no-break
// space in Go code does not compile), a blockquote's ">", arrows and signs
// before words alone, and Go cells untouched.
func TestMknbKeepsBounds(t *testing.T) {
	py := script(t, "mknb.py", "nbformat")
	dir := t.TempDir()
	src, nb := filepath.Join(dir, "x.md"), filepath.Join(dir, "x.ipynb")
	md := "p < 0.01, p ≤ 1.2·10⁻⁵ and x > −3, x >= 4; a -> 5, a << 2, p < q; `x < 5` and ``y < 5`` and\n```go\nif a < 5 {\n```\n" +
		"~~~~\nb < 5\n~~~~\n> 5 quoted\n    continued, p < 1"
	goSrc := "if a < 5 {\n}"
	if err := os.WriteFile(src, []byte("--- md\n"+md+"\n--- go\n"+goSrc+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("/usr/bin/python3", py, src, nb).CombinedOutput(); err != nil {
		t.Fatalf("mknb: %v\n%s", err, out)
	}
	b, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Type   string `json:"cell_type"`
			Source any    `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	text := func(s any) string {
		switch v := s.(type) {
		case string:
			return v
		case []any:
			var sb strings.Builder
			for _, x := range v {
				sb.WriteString(x.(string))
			}
			return sb.String()
		}
		return ""
	}
	if len(doc.Cells) != 3 {
		t.Fatalf("%d cells, want the wiring cell, the markdown and the Go cell", len(doc.Cells))
	}
	const nbsp = "\u00a0"
	want := "p <" + nbsp + "0.01, p ≤" + nbsp + "1.2·10⁻⁵ and x >" + nbsp + "−3, x >=" + nbsp + "4; a -> 5, a << 2, p < q; `x < 5` and ``y < 5`` and\n```go\nif a < 5 {\n```\n" +
		"~~~~\nb < 5\n~~~~\n> 5 quoted\n    continued, p <" + nbsp + "1"
	if got := text(doc.Cells[1].Source); got != want {
		t.Errorf("markdown cell:\n%q\nwant\n%q", got, want)
	}
	if got := text(doc.Cells[2].Source); got != goSrc {
		t.Errorf("Go cell changed: %q", got)
	}
}
