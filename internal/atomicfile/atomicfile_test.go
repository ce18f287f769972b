package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := WriteBytes(path, 0o644, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("half of the new"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("after a failed write the file holds %q, want the old one", b)
	}
	if err := WriteBytes(path, 0o600, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("file holds %q, want new", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files left in the folder, want 1 (no temporary files)", len(ents))
	}
	if err := WriteBytes(filepath.Join(dir, "no", "such", "dir"), 0o644, nil); err == nil {
		t.Fatal("writing into a missing folder succeeded")
	}
}

func ExampleWriteBytes() {
	path := filepath.Join(os.TempDir(), "atomicfile-example.txt")
	defer os.Remove(path)
	if err := WriteBytes(path, 0o644, []byte("all or nothing\n")); err != nil {
		panic(err)
	}
	b, _ := os.ReadFile(path)
	os.Stdout.Write(b)
	// Output: all or nothing
}

func TestWriteRefusesNonRegularTargets(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path string }{
		{"fifo", fifo}, {"symlink to a fifo", link}, {"folder", sub},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckTarget(tc.path); err == nil {
				t.Fatalf("CheckTarget(%s) accepted it", tc.name)
			}
			err := WriteBytes(tc.path, 0o644, []byte("x"))
			if err == nil {
				t.Fatalf("WriteBytes over a %s succeeded", tc.name)
			}
			if st, _ := os.Lstat(tc.path); st.Mode().IsRegular() {
				t.Fatalf("the %s was replaced by a regular file", tc.name)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("%d entries in the folder, want 3 (no temporary files)", len(ents))
	}
	for _, ok := range []string{filepath.Join(dir, "new"), filepath.Join(dir, "new")} {
		if err := CheckTarget(ok); err != nil {
			t.Fatalf("CheckTarget(new path): %v", err)
		}
		if err := WriteBytes(ok, 0o644, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSameFile: an output is found to be an input under another
// spelling (a symlink, a hard link), and not when it is another file.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("x"), 0o644)
	os.WriteFile(b, []byte("x"), 0o644)
	os.Symlink(a, filepath.Join(dir, "sym"))
	os.Link(a, filepath.Join(dir, "hard"))
	for _, tc := range []struct {
		out  string
		ins  []string
		want string
	}{
		{a, []string{b}, ""},
		{a, []string{"", b, filepath.Join(dir, "sym")}, filepath.Join(dir, "sym")},
		{filepath.Join(dir, "hard"), []string{a}, a},
		{filepath.Join(dir, "new"), []string{a}, ""},
	} {
		if got := SameFile(tc.out, tc.ins...); got != tc.want {
			t.Errorf("SameFile(%s, %v) = %q, want %q", tc.out, tc.ins, got, tc.want)
		}
	}
}

// TestCheckWritable: a new path in a writable folder passes; a missing
// folder, a folder for a file and a read-only folder are refused, and no
// temporary file is left behind.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(filepath.Join(dir, "new.json")); err != nil {
		t.Fatalf("a new file: %v", err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "none", "x.json"), "does not exist"},
		{dir, "is a folder"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		cases = append(cases, struct{ path, want string }{filepath.Join(ro, "x.json"), "cannot be written"})
	}
	for _, tc := range cases {
		if err := CheckWritable(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckWritable(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
