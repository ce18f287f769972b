package arena

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// sameStart tells whether two starts are the same position, memory and
// label.
func sameStart(a, b *Start) bool {
	return a.Well == b.Well && a.Score == b.Score && a.TieSeed == b.TieSeed && a.Label == b.Label && slices.Equal(a.History, b.History)
}

// Every kind's draws are prefix-stable: the first n starts of a spec drawn
// with M > n starts are the starts of the same spec with n. distinct:
// suites rely on it.
func TestSuitesArePrefixStable(t *testing.T) {
	for _, tc := range []struct{ short, long string }{
		{"openings:30:8:5", "openings:90:8:5"},
		{"openings:30:2:5", "openings:70:2:5"},
		{"empty:3", "empty:9"},
		{"records:50:4630", "records:130:4630"},
		{"games:50:11:20", "games:130:11:20"},
	} {
		s, err := ParseSuite(tc.short, nil)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ParseSuite(tc.long, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Starts {
			if !sameStart(&s.Starts[i], &l.Starts[i]) {
				t.Fatalf("%s start %d (%s) is not %s's (%s)", tc.short, i, s.Starts[i].Label, tc.long, l.Starts[i].Label)
			}
		}
		if prefix := (&Suite{Rules: l.Rules, Starts: l.Starts[:len(s.Starts)]}); prefix.ID() != s.ID() {
			t.Fatalf("%s: ID %s, the first starts of %s %s", tc.short, s.ID(), tc.long, prefix.ID())
		}
	}
}

// distinct:SUITE is the first N distinct starts, in draw order, of a
// longer plain draw of SUITE: found here without Duplicates, start by start.
func TestDistinctSuites(t *testing.T) {
	for _, tc := range []struct {
		spec string // distinct:SPEC
		long string // a plain draw that holds N distinct starts
		dups bool   // whether the plain SPEC repeats a start
		id   string // the distinct: suite's ID, where pinned
	}{
		{"records:200:4630", "records:400:4630", true, "35fc37df8d31"}, // 8 repeats
		{"games:100:11:20", "games:300:11:20", true, ""},
		{"openings:40:2:5", "openings:200:2:5", true, ""},
		{"openings:100:8:5", "openings:100:8:5", false, ""},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			d, err := ParseSuite("distinct:"+tc.spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Spec != "distinct:"+tc.spec || tc.id != "" && d.ID() != tc.id {
				t.Fatalf("spec %q, ID %s, want ID %s", d.Spec, d.ID(), tc.id)
			}
			plain, err := ParseSuite(tc.spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			long, err := ParseSuite(tc.long, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []Start
			for i := range long.Starts {
				st := &long.Starts[i]
				if len(want) < len(plain.Starts) && !slices.ContainsFunc(want, func(w Start) bool {
					return w.Well == st.Well && w.Score == st.Score && w.TieSeed == st.TieSeed && slices.Equal(w.History, st.History)
				}) {
					want = append(want, *st)
				}
			}
			if len(want) != len(plain.Starts) || len(d.Starts) != len(want) {
				t.Fatalf("%d starts, %d distinct in %s, want %d", len(d.Starts), len(want), tc.long, len(plain.Starts))
			}
			for i := range want {
				if !sameStart(&d.Starts[i], &want[i]) {
					t.Fatalf("start %d: %s, want %s", i, d.Starts[i].Label, want[i].Label)
				}
			}
			if n := CountDuplicates(d); n != 0 {
				t.Fatalf("%d duplicate starts", n)
			}
			if got := CountDuplicates(plain) > 0; got != tc.dups {
				t.Fatalf("%s repeats a start: %v, want %v", tc.spec, got, tc.dups)
			}
			// Without repeats the starts, and so the ID, are the plain
			// suite's; with them they differ.
			if (d.ID() == plain.ID()) == tc.dups {
				t.Fatalf("ID %s, the plain suite's %s", d.ID(), plain.ID())
			}
			again, err := ParseSuite(d.Spec, nil)
			if err != nil || again.ID() != d.ID() || again.Spec != d.Spec {
				t.Fatalf("rebuilt from its spec: %v, ID %s then %s", err, d.ID(), again.ID())
			}
		})
	}
	if s, err := ParseSuite(" distinct: records:5:1 ", nil); err != nil || s.Spec != "distinct:records:5:1" {
		t.Fatalf("spaces: %v, %v", s, err)
	}
}

func TestDistinctErrors(t *testing.T) {
	small, _ := hatetris.NewRules(6, 12, 4)
	for _, tc := range []struct {
		spec  string
		rules *hatetris.Rules
		error string
	}{
		{"distinct:empty:3", nil, "distinct:empty: is refused"},
		{"distinct:distinct:records:5:1", nil, "distinct:distinct: is refused"},
		{"distinct:", nil, "distinct: wants a suite after it"},
		{"distinct", nil, "distinct: wants a suite after it"},
		{"distinct:records:0:1", nil, `number of starts "0"`},
		{"distinct:records:x:1", nil, `number of starts "x"`},
		{"distinct:records:5", nil, "records takes 2 fields"},
		{"distinct:random:3", nil, `unknown kind "random"`},
		{"distinct:records:3:1", small, "record wells exist only on the real game's 10x20 well"},
		{"distinct:games:4:7:1000", nil, "no game has a spawn at 1000 lines"},
		// An opening of no piece is the empty well: one distinct start.
		// (Those of one piece hold 17, of two a few hundred.)
		{"distinct:openings:2:0:1", nil, "only 1 distinct start in the first 100000 draws"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSuite(tc.spec, tc.rules)
			prefix := fmt.Sprintf("suite %q: ", tc.spec)
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.error) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseSuite(%q) = %v, %v; want a one-line error %s...%s", tc.spec, s, err, prefix, tc.error)
			}
		})
	}
}

// TestKind: the kind a spec draws from, through distinct: and spaces.
func TestKind(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"records:600:1", "records"},
		{" distinct:records:600:1", "records"},
		{"distinct: records:600:1", "records"},
		{"distinct:games:5:1:20", "games"},
		{"openings:3:8:1", "openings"},
		{"empty:2", "empty"},
		{"distinct:", ""},
		{"", ""},
	} {
		if got := Kind(tc.spec); got != tc.want {
			t.Errorf("Kind(%q) = %q, want %q", tc.spec, got, tc.want)
		}
	}
}
