package arena

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParseSuite: any suite spec gives a suite or a one-line error, never
// a panic; a suite's spec rebuilds the same suite (ID), and a spec with a
// number written with a leading zero is refused. A distinct: suite repeats
// no start.
func FuzzParseSuite(f *testing.F) {
	for _, s := range []string{"openings:20:8:1", "empty:5", "records:3:7", "games:2:7:30", "openings:02:8:01",
		"openings:1:1000:1", "empty:0", "records:1:18446744073709551615", "games:1:1:1:x", "::", "openings:1:8:1:",
		"distinct:records:3:7", "distinct:games:2:7:30", "distinct:openings:20:2:1", "distinct:openings:1:0:1",
		"distinct:empty:2", "distinct:distinct:records:1:1", "distinct:", "distinct:records:02:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		parts := strings.Split(strings.TrimSpace(spec), ":") // ParseSuite trims spaces
		distinct := len(parts) > 1 && parts[0] == "distinct"
		if distinct { // the size guards below are the inner suite's
			parts = parts[1:]
			parts[0] = strings.TrimSpace(parts[0])
		}
		if distinct && len(parts) > 2 && parts[0] == "openings" {
			// Openings of no piece or one hold 1 or 17 distinct starts:
			// asking for more draws MaxStarts of them (a second or so).
			if n, err := parseCount(parts[1]); err == nil && n > 1 {
				if p, err := parseCount(parts[2]); err == nil && p < 2 {
					return
				}
			}
		}
		if len(parts) > 1 && parts[0] == "games" && len(parts) > 4 {
			return // a games file: the file system is the reader's test
		}
		if len(parts) > 1 {
			n, err := parseCount(parts[1])
			if err == nil && (n > 50 || n > 3 && (parts[0] == "records" || parts[0] == "games")) {
				return // keep each run short (records and games replay long games)
			}
		}
		if len(parts) > 2 && parts[0] == "openings" {
			if n, err := parseCount(parts[2]); err == nil && n > 50 {
				return
			}
		}
		s, err := ParseSuite(spec, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseSuite(%q): a multi-line error %q", spec, err)
			}
			return
		}
		for _, p := range strings.Split(s.Spec, ":")[1:] {
			if len(p) > 1 && p[0] == '0' {
				t.Fatalf("ParseSuite(%q) accepted a leading zero", spec)
			}
		}
		again, err := ParseSuite(s.Spec, nil)
		if err != nil || again.ID() != s.ID() || len(again.Starts) != len(s.Starts) {
			t.Fatalf("ParseSuite(%q) then its spec %q: %v", spec, s.Spec, err)
		}
		if strings.HasPrefix(s.Spec, "distinct:") != distinct || distinct && CountDuplicates(s) != 0 {
			t.Fatalf("ParseSuite(%q): spec %q, %d duplicate starts", spec, s.Spec, CountDuplicates(s))
		}
	})
}

// parseCount reads a number for the fuzz targets' size guards.
func parseCount(s string) (int, error) {
	n := 0
	if s == "" || len(s) > 9 {
		return 0, errNotCount
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errNotCount
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

var errNotCount = errors.New("not a count")

// FuzzReadGames: any match file gives its games or a one-line error
// naming the file, never a panic; every game read back has a start of
// the header's suite and no game is read twice.
func FuzzReadGames(f *testing.F) {
	header := `{"format":"hatelab-arena/1","suite_spec":"openings:2:8:1","suite":"x","starts":2,"rules":"10x20 bar 4","beam_width":10,"quiescence":false}` + "\n"
	game := `{"arm":"hand","start":1,"eval":"hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5]","beam_width":10,"quiescence":false,"score":3,"pieces":20,"seconds":0.1,"children":100,"replay":"ɤ໖"}` + "\n"
	f.Add([]byte(header + game))
	f.Add([]byte(header + game + game))
	f.Add([]byte(header))
	f.Add([]byte(""))
	f.Add([]byte(header + game[:40]))
	f.Add([]byte("{}\n{}\n"))
	f.Add([]byte(header + strings.Replace(game, `"start":1`, `"start":7`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := ReadGames(bytes.NewReader(data), "fuzz.jsonl", nil, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error %q: want one line naming the file", err)
			}
			return
		}
		seen := map[[2]any]bool{}
		for _, g := range games {
			k := [2]any{g.Arm, g.Start}
			if seen[k] {
				t.Fatalf("game %s start %d read twice", g.Arm, g.Start)
			}
			seen[k] = true
		}
	})
}
