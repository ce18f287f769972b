package flags

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    int64
		wantErr string
	}{
		{"10", 10, ""},
		{"0", 0, ""},
		{"-3", -3, ""},
		{"010", 0, "leading zeros"},
		{"-010", 0, "leading zeros"},
		{"00", 0, "leading zeros"},
		{"0x10", 0, "not a decimal integer"},
		{"+5", 0, "not a decimal integer"},
		{"1e3", 0, "not a decimal integer"},
		{"", 0, "not a decimal integer"},
		{"-", 0, "not a decimal integer"},
		{" 5", 0, "not a decimal integer"},
		{"99999999999999999999", 0, "out of range"},
	} {
		got, err := ParseDecimal(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseDecimal(%q) = %d, %v; want an error with %q", c.in, got, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseDecimal(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestDecimalTypes(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    string
		wantErr string
	}{
		{"42", "42", ""},
		{"18446744073709551615", "18446744073709551615", ""},
		{"18446744073709551616", "", "out of range"},
		{"-1", "", "0 or more"},
		{"007", "", "leading zeros"},
	} {
		var u uint64
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		DecimalVar(fs, &u, "seed", 1, "")
		err := fs.Parse([]string{"--seed", c.in})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("uint64 --seed %s: %v, want an error with %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || fs.Lookup("seed").Value.String() != c.want {
			t.Errorf("uint64 --seed %s: %d, %v; want %s", c.in, u, err, c.want)
		}
	}
	var n int
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	DecimalVar(fs, &n, "n", 7, "")
	if n != 7 || fs.Lookup("n").DefValue != "7" || fs.Lookup("n").Value.Type() != "int" {
		t.Errorf("default: n = %d, DefValue %q", n, fs.Lookup("n").DefValue)
	}
}

// TestSharedFlags parses the shared flags as both CLIs register them: the
// new names, the deprecated aliases (same variable, a deprecation note)
// and the refusal of leading zeros.
func TestSharedFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    [5]int // beam width, well width, depth, bar, workers
		note    string
		wantErr string
	}{
		{nil, [5]int{1000, 10, 20, 4, 0}, "", ""},
		{[]string{"--beam-width", "50", "--well-width", "8", "--well-depth", "12", "--bar", "2", "--workers", "3"}, [5]int{50, 8, 12, 2, 3}, "", ""},
		{[]string{"--width", "6"}, [5]int{1000, 6, 20, 4, 0}, "Flag --width has been deprecated, use --well-width", ""},
		{[]string{"--beam-width", "010"}, [5]int{}, "", `invalid argument "010" for "--beam-width" flag: leading zeros`},
		{[]string{"--width", "010"}, [5]int{}, "", "leading zeros"},
		{[]string{"--well-depth", "0x14"}, [5]int{}, "", "not a decimal integer"},
	} {
		var note bytes.Buffer
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(&note)
		var bw, workers int
		var w Well
		BeamWidth(fs, &bw, 1000, "")
		WellVars(fs, &w, "width")
		Workers(fs, &workers, 0, "")
		err := fs.Parse(c.args)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: %v, want an error with %q", c.args, err, c.wantErr)
			}
			continue
		}
		if got := [5]int{bw, w.Width, w.Depth, w.Bar, workers}; err != nil || got != c.want {
			t.Errorf("%v: %v, %v; want %v", c.args, got, err, c.want)
		}
		if !strings.Contains(note.String(), c.note) || (c.note == "" && note.Len() > 0) {
			t.Errorf("%v: note %q, want %q", c.args, note.String(), c.note)
		}
	}
}

func TestCheckBeamWidth(t *testing.T) {
	for _, c := range []struct {
		v  int
		ok bool
	}{{1, true}, {MaxBeamWidth, true}, {0, false}, {MaxBeamWidth + 1, false}, {-5, false}} {
		err := CheckBeamWidth("target-beam-width", c.v)
		if (err == nil) != c.ok {
			t.Errorf("CheckBeamWidth(%d) = %v", c.v, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "--target-beam-width ") {
			t.Errorf("CheckBeamWidth(%d) = %v: does not name the flag", c.v, err)
		}
	}
}

func TestDecimals(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    []int
		wantErr string
	}{
		{nil, []int{1000}, ""},
		{[]string{"--widths", "300"}, []int{300}, ""},
		{[]string{"--widths", "1000,10000"}, []int{1000, 10000}, ""},
		{[]string{"--widths", "1000", "--widths", "10000"}, []int{1000, 10000}, ""},
		{[]string{"--old-widths", "7"}, []int{7}, ""},
		{[]string{"--widths", "1000,010"}, nil, "leading zeros"},
		{[]string{"--widths", "1000,"}, nil, "not a decimal integer"},
		{[]string{"--widths", "0x10"}, nil, "not a decimal integer"},
	} {
		var ws []int
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		DecimalsVar(fs, &ws, "widths", []int{1000}, "")
		DecimalsAlias(fs, &ws, "old-widths", "widths")
		err := fs.Parse(c.args)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: %v, %v; want an error with %q", c.args, ws, err, c.wantErr)
			}
			continue
		}
		if err != nil || fmt.Sprint(ws) != fmt.Sprint(c.want) {
			t.Errorf("%v: %v, %v; want %v", c.args, ws, err, c.want)
		}
	}
}

func TestDecimalsSliceValue(t *testing.T) {
	var ws []int
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	DecimalsVar(fs, &ws, "widths", []int{1}, "")
	sv, ok := fs.Lookup("widths").Value.(pflag.SliceValue)
	if !ok {
		t.Fatal("not a pflag.SliceValue")
	}
	if err := sv.Replace([]string{"4", "6"}); err != nil || fmt.Sprint(sv.GetSlice()) != "[4 6]" {
		t.Fatalf("Replace: %v, %v", err, sv.GetSlice())
	}
	if err := sv.Append("8"); err != nil || fmt.Sprint(ws) != "[4 6 8]" {
		t.Fatalf("Append: %v, %v", err, ws)
	}
	if sv.Append("08") == nil || sv.Replace([]string{"x"}) == nil {
		t.Fatal("a bad value was taken")
	}
	if got := fs.Lookup("widths").Value.String(); got != "[4,6,8]" {
		t.Fatalf("String %q", got)
	}
}
