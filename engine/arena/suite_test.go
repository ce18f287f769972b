package arena

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

func TestParseSuite(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		n     int
		error string
	}{
		{"openings:20:8:1", 20, ""},
		{"empty:5", 5, ""},
		{"records:3:7", 3, ""},
		{"openings:20:8", 0, "takes 3 fields"},
		{"openings:0:8:1", 0, "number of starts"},
		{"openings:20:-1:1", 0, "pieces"},
		{"empty:100001", 0, "number of starts"},
		{"random:3", 0, "unknown kind"},
		{"", 0, "unknown kind"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSuite(tc.spec, nil)
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("ParseSuite(%q) = %v, want a one-line error about %s", tc.spec, err, tc.error)
				}
				return
			}
			if err != nil || len(s.Starts) != tc.n {
				t.Fatalf("ParseSuite(%q) = %v, %v", tc.spec, s, err)
			}
			again, _ := ParseSuite(tc.spec, nil)
			if s.ID() != again.ID() || len(s.ID()) != 12 {
				t.Fatalf("ID %q then %q", s.ID(), again.ID())
			}
		})
	}
	a, _ := ParseSuite("openings:20:8:1", nil)
	b, _ := ParseSuite("openings:20:8:2", nil)
	if a.ID() == b.ID() {
		t.Fatal("two seeds, one ID")
	}
	small, _ := hatetris.NewRules(6, 12, 4)
	if _, err := ParseSuite("records:3:1", small); err == nil {
		t.Fatal("record wells on a 6-wide well")
	}
}

func TestOpeningsKeepTheirMemory(t *testing.T) {
	r := hatetris.Standard()
	starts, err := Openings(r, 30, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The first n openings of a longer list are the n openings.
	if short, _ := Openings(r, 20, 8, 1); short[19].Well != starts[19].Well {
		t.Fatal("the openings depend on how many are drawn")
	}
	for i, s := range starts {
		if len(s.History) != 8 || s.History[0] != (hatetris.Well{}) {
			t.Fatalf("opening %d: %d history wells", i, len(s.History))
		}
		// Replaying the opening's memory: every history well is followed
		// by an outcome of the piece the AI sends (with that memory).
		g := hatetris.NewGenerator(r)
		seen := hatetris.NewSeen()
		for k, w := range s.History {
			seen.Add(&w)
			_, out := g.Move(&w, hatetris.HATETRIS, seen, nil)
			next := s.Well
			if k+1 < len(s.History) {
				next = s.History[k+1]
			}
			found := false
			for _, o := range out {
				found = found || o.Well == next
			}
			if !found {
				t.Fatalf("opening %d step %d: the next well is not an outcome of the AI's piece", i, k)
			}
		}
	}
}

func TestRecordStartsKeepTheGame(t *testing.T) {
	starts, err := RecordStarts(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	games, _ := RecordGames()
	for _, s := range starts {
		i := strings.LastIndex(s.Label, " piece ")
		name := strings.TrimPrefix(s.Label[:i], "record ")
		k, err := strconv.Atoi(s.Label[i+len(" piece "):])
		if err != nil || k < 1 {
			t.Fatalf("label %q", s.Label)
		}
		if len(s.History) != k {
			t.Fatalf("%s: %d history wells", s.Label, len(s.History))
		}
		found := false
		for _, g := range games {
			if g.Name != name {
				continue
			}
			found = true
			if g.Steps[k].Before != s.Well || g.Steps[k].Score != s.Score || g.Steps[k-1].Before != s.History[k-1] {
				t.Fatalf("%s: the start is not the record's well", s.Label)
			}
		}
		if !found {
			t.Fatalf("%s: no such record", s.Label)
		}
	}
}
