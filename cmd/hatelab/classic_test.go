package main

import (
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
		for _, r := range rows {
			if r < 4 || r > 31 {
				t.Fatalf("%q: row %d out of range", s, r)
			}
		}
	})
}
