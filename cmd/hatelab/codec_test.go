package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadArg(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "replay.txt")
	if err := os.WriteFile(file, []byte("ਹԇ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin = strings.NewReader("LRDU\n")
	defer func() { stdin = os.Stdin }()
	tests := []struct {
		arg, want, wantErr string
	}{
		{"DDDRUD", "DDDRUD", ""},
		{"@" + file, "ਹԇ\n", ""},
		{"-", "LRDU\n", ""},
		{"@", "", `"@": missing file name after @`},
		{"@" + filepath.Join(dir, "missing"), "", "cannot read " + filepath.Join(dir, "missing") + ": no such file or directory"},
	}
	for _, tc := range tests {
		got, err := readArg(tc.arg)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.wantErr {
			t.Errorf("readArg(%q) = %q, %q; want %q, %q", tc.arg, got, gotErr, tc.want, tc.wantErr)
		}
	}
}

// TestCodecCLI builds the hatelab binary once and runs encode and decode on
// good and bad input, checking exit codes, standard output and the one-line
// error on standard error.
func TestCodecCLI(t *testing.T) {
	cliBinary(t) // skips under -short
	dir := t.TempDir()
	file := filepath.Join(dir, "replay.txt")
	if err := os.WriteFile(file, []byte("  ਹӼ1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		stdin   string
		code    int
		stdout  string
		stderrs string // substring of the one-line error ("" for none)
	}{
		{"encode default base2048", []string{"encode", "DDDRUD"}, "", 0, "ਹԇ\n", ""},
		{"encode hex", []string{"encode", "--format", "hex", "DDDRUDUU"}, "", 0, "A9EF \n", ""},
		{"encode base65536", []string{"encode", "--format=base65536", "DDDRUD"}, "", 0, "𤺤\n", ""},
		{"encode raw", []string{"encode", "--format", "raw", "LRDU"}, "", 0, "LRDU\n", ""},
		{"encode stdin", []string{"encode", "-"}, "DDDRUD\n", 0, "ਹԇ\n", ""},
		{"decode auto base2048", []string{"decode", "ਹԇ"}, "", 0, "DDDRUD\n", ""},
		{"decode file, odd nybbles pad L", []string{"decode", "@" + file}, "", 0, "DDDRUDUUL\n", ""},
		{"decode stdin hex", []string{"decode", "-"}, "A9E\n", 0, "DDDRUD\n", ""},
		{"decode forced base2048 of F", []string{"decode", "--format", "base2048", "F"}, "", 0, "LL\n", ""},
		{"decode auto F is hex", []string{"decode", "F"}, "", 0, "UU\n", ""},
		{"decode base65536", []string{"decode", "--format", "base65536", "𤺤ᗐ"}, "", 0, "DDDRUDUUL\n", ""},
		{"encode bad key", []string{"encode", "LRDX"}, "", 2, "", "hatelab: keys: character U+0058 'X' at position 3 is not one of L, R, D, U"},
		{"encode bad format", []string{"encode", "--format", "base64", "L"}, "", 2, "", `unknown replay format "base64"`},
		{"decode garbage", []string{"decode", "hello, world"}, "", 2, "", "base2048: character U+002C ',' at position 5 is not in the repertoire"},
		{"decode wrong forced format", []string{"decode", "--format", "base65536", "ਹԇ"}, "", 2, "", "base65536: character U+0A39"},
		{"decode tail not last", []string{"decode", "--format", "base2048", "1ਹ"}, "", 2, "", "tail character U+0031 '1' at position 0 is not the last character"},
		{"decode missing file", []string{"decode", "@" + filepath.Join(dir, "nope")}, "", 2, "", "cannot read"},
		{"decode no argument", []string{"decode"}, "", 2, "", "accepts 1 arg(s), received 0"},
		{"encode two arguments", []string{"encode", "L", "R"}, "", 2, "", "accepts 1 arg(s), received 2"},
		{"decode unknown flag", []string{"decode", "--bogus", "L"}, "", 2, "", "unknown flag: --bogus"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLIInput(t, tc.stdin, tc.args...)
			if code != tc.code || stdout != tc.stdout {
				t.Errorf("exit %d, stdout %q; want exit %d, stdout %q (stderr %q)", code, stdout, tc.code, tc.stdout, stderr)
			}
			if tc.stderrs == "" {
				if stderr != "" {
					t.Errorf("unexpected stderr %q", stderr)
				}
				return
			}
			msg := stderr
			if !strings.Contains(msg, tc.stderrs) || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hatelab: ") {
				t.Errorf("stderr %q; want one line containing %q", msg, tc.stderrs)
			}
		})
	}
}
