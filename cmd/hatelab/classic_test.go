package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestClassicPlay(t *testing.T) {
	tests := []struct {
		args []string
		want string
		bad  bool
	}{
		{[]string{"play", "--json", "--agent", "tetr-ai", "--rows", "10", "--seed", "6"}, `{"pieces":30204,"lines":12073}`, false},
		{[]string{"play", "--rows", "5", "--seed", "5000"}, "pieces=299 lines=116", false},
		{[]string{"play", "--rows", "3", "--seed", "1"}, "", true},
		{[]string{"play", "--rows", "10", "--seed", "1", "--agent", "nope"}, "", true},
		{[]string{"play", "--rows", "10"}, "", true},
	}
	for _, tc := range tests {
		out, err := run(t, classicCmd(), tc.args...)
		if tc.bad {
			if err == nil {
				t.Errorf("%v: no error", tc.args)
			}
			continue
		}
		if err != nil || strings.TrimSpace(out) != tc.want {
			t.Errorf("%v: %q %v, want %q", tc.args, out, err, tc.want)
		}
	}
}

func TestClassicSweepResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	args := []string{"sweep", "--rows", "5-6", "--seeds", "5", "--agent", "tetr-ai", "--quiet", "--out", path}
	if out, err := run(t, classicCmd(), args...); err != nil || !strings.HasPrefix(out, "10 games played, 0 already") {
		t.Fatalf("%q %v", out, err)
	}
	args[4] = "8"
	if out, err := run(t, classicCmd(), args...); err != nil || !strings.HasPrefix(out, "6 games played, 10 already") {
		t.Fatalf("%q %v", out, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "tetr-ai,5,10,5000,299,116\n") || strings.Count(string(data), "\n") != 17 {
		t.Fatalf("csv:\n%s", data)
	}
	out, err := run(t, classicCmd(), "stats", path)
	if err != nil || !strings.Contains(out, "tetr-ai") {
		t.Fatalf("stats: %q %v", out, err)
	}
	if _, err := run(t, classicCmd(), "sweep", "--rows", "9-5", "--out", path); err == nil {
		t.Fatal("bad range accepted")
	}
}

func TestParseRange(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		bad  bool
	}{
		{"5-12", []int{5, 6, 7, 8, 9, 10, 11, 12}, false},
		{"7", []int{7}, false},
		{"5,7,9", []int{5, 7, 9}, false},
		{"5-6,20", []int{5, 6, 20}, false},
		{"9-5", nil, true},
		{"3", nil, true},
		{"32", nil, true},
		{"a-b", nil, true},
		{"", nil, true},
		{"5,5", nil, true},
		{"5-6,6", nil, true},
		{"5-7,6-8", nil, true},
		{"010", nil, true},
		{"05-6", nil, true},
		{"+5", nil, true},
		{"-5", nil, true},
		{"5--6", nil, true},
		{"5-6-7", nil, true},
		{"0x10", nil, true},
		{"10", []int{10}, false},
		{" 5 , 7 ", []int{5, 7}, false},
	}
	for _, tc := range tests {
		got, err := parseRange(tc.in)
		if tc.bad != (err != nil) || !slices.Equal(got, tc.want) && !tc.bad {
			t.Errorf("parseRange(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"5-12", "7", "5,7,9", "9-5", "-", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := parseRange(s)
		if err != nil {
			return
		}
		if len(rows) == 0 {
			t.Fatalf("%q: no rows and no error", s)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(rows)))) != len(rows) {
			t.Fatalf("%q: a height twice in %v", s, rows)
		}
		for _, r := range rows {
			if r < 4 || r > 31 {
				t.Fatalf("%q: row %d out of range", s, r)
			}
		}
	})
}

// TestClassicCLI runs the built binary on hostile input to `hatelab
// classic`: each case must exit with its status and, when it fails, print
// one short line on standard error, and leave the files it was given as
// they were.
func TestClassicCLI(t *testing.T) {
	cliBinary(t) // skips under -short
	dir := t.TempDir()
	header := "agent,rows,cols,seed,pieces,lines\n"
	files := map[string]string{
		"oneline":   "hello",
		"foreign":   "name,score\nann,3\n",
		"empty":     "",
		"header":    header,
		"dup":       header + "tetr-ai,5,10,5000,299,116\ntetr-ai,5,10,5000,299,116\n",
		"good":      header + "tetr-ai,5,10,5000,299,116\ntetr-ai,5,10,5001,12,1\n",
		"notes":     header + "tetr-ai,5,10,5000,299,116\nmy notes",
		"hugefield": header + strings.Repeat("9", 10000) + "\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := func(name string) string { return filepath.Join(dir, name) }
	huge := strings.Repeat("5", 100_000) // one argument is at most 128 KiB
	tests := []struct {
		name string
		args []string
		code int
		msg  string // substring of the one-line error ("" for success)
	}{
		{"stats /dev/zero", []string{"stats", "/dev/zero"}, 2, "is not a regular file"},
		{"sweep to /dev/zero", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", "/dev/zero"}, 2, "/dev/zero is not a regular file"},
		{"sweep to /dev/full", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", "/dev/full"}, 2, "/dev/full is not a regular file"},
		{"sweep 2^31-1 seeds", []string{"sweep", "--rows", "5", "--seeds", "2147483647", "--out", f("new1")}, 2, "--seeds 2147483647 out of range 1..100000"},
		{"sweep a million games at once", []string{"sweep", "--rows", "5", "--seeds", "1", "--parallel", "1000000", "--out", f("new2")}, 2, "--parallel 1000000 out of range 0..256"},
		{"sweep negative parallel", []string{"sweep", "--rows", "5", "--seeds", "1", "--parallel", "-1", "--out", f("new3")}, 2, "--parallel -1 out of range"},
		{"sweep rows twice", []string{"sweep", "--rows", "5,5", "--seeds", "1", "--out", f("new4")}, 2, `rows 5 listed twice in "5,5"`},
		{"sweep rows twice in a range", []string{"sweep", "--rows", "5-6,6", "--seeds", "1", "--out", f("new5")}, 2, `rows 6 listed twice in "5-6,6"`},
		{"sweep rows 010", []string{"sweep", "--rows", "010", "--seeds", "1", "--out", f("new6")}, 2, `bad rows "010": leading zeros`},
		{"sweep seeds 010", []string{"sweep", "--rows", "5", "--seeds", "010", "--out", f("new7")}, 2, `invalid argument "010" for "--seeds" flag: leading zeros`},
		{"sweep onto a one-line file", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", f("oneline")}, 2, "oneline is not a sweep CSV (left as it is): line 1"},
		{"sweep onto a foreign CSV", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", f("foreign")}, 2, "foreign is not a sweep CSV (left as it is): line 1: not the header"},
		{"sweep onto duplicates", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", f("dup")}, 2, "line 3: game tetr-ai,5,10,5000 is already on line 2"},
		{"sweep onto a foreign last line", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", f("notes")}, 2, "line 3: incomplete last line"},
		{"sweep into a folder", []string{"sweep", "--rows", "5", "--seeds", "1", "--out", dir}, 2, "is a directory"},
		{"sweep huge rows", []string{"sweep", "--rows", huge, "--out", f("new8")}, 2, "(100000 bytes)"},
		{"sweep resumes our file", []string{"sweep", "--rows", "5", "--seeds", "2", "--quiet", "--out", f("good")}, 0, ""},
		{"bogus subcommand", []string{"bogus"}, 2, `unknown command "bogus" for "hatelab classic"`},
		{"bare classic prints help", nil, 0, ""},
		{"stats empty", []string{"stats", f("empty")}, 2, "is not a sweep CSV: empty"},
		{"stats header only", []string{"stats", f("header")}, 2, "holds no games"},
		{"stats one line", []string{"stats", f("oneline")}, 2, "is not a sweep CSV: line 1"},
		{"stats foreign", []string{"stats", f("foreign")}, 2, "is not a sweep CSV: line 1: not the header"},
		{"stats duplicates", []string{"stats", f("dup")}, 2, "line 3: game tetr-ai,5,10,5000 is already on line 2"},
		{"stats huge field", []string{"stats", f("hugefield")}, 2, "line 2: longer than 200 bytes"},
		{"stats missing file", []string{"stats", f("nope")}, 2, "cannot read"},
		{"stats good", []string{"stats", f("good")}, 0, ""},
		{"play negative max-pieces", []string{"play", "--rows", "5", "--seed", "1", "--max-pieces", "-1"}, 2, "--max-pieces -1 is negative"},
		{"play rows 010", []string{"play", "--rows", "010", "--seed", "1"}, 2, `invalid argument "010" for "--rows" flag: leading zeros`},
		{"play rows 0x10", []string{"play", "--rows", "0x10", "--seed", "1"}, 2, "not a decimal integer"},
		{"play huge agent", []string{"play", "--rows", "5", "--seed", "1", "--agent", huge}, 2, "(100000 bytes)"},
		{"play huge rows", []string{"play", "--rows", huge, "--seed", "1"}, 2, "message cut"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, msg := runCLI(t, append([]string{"classic"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %.300q)", code, tc.code, msg)
			}
			if tc.msg == "" {
				if msg != "" {
					t.Fatalf("unexpected stderr %.300q", msg)
				}
				return
			}
			if !strings.Contains(msg, tc.msg) || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hatelab: ") || len(msg) > 500 {
				t.Fatalf("stderr %.600q; want one short line containing %q", msg, tc.msg)
			}
		})
	}
	for name, content := range files {
		got, _ := os.ReadFile(f(name))
		if name != "good" && string(got) != content {
			t.Errorf("%s changed from %.100q to %.100q", name, content, got)
		}
	}
	if got, _ := os.ReadFile(f("good")); strings.Count(string(got), "\n") != 3 {
		t.Errorf("resumed sweep wrote %q", got)
	}
	for i := 1; i <= 8; i++ {
		if _, err := os.Stat(f(fmt.Sprintf("new%d", i))); err == nil {
			t.Errorf("refused sweep created new%d", i)
		}
	}
}
