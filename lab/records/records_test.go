package records

import (
	"strings"
	"testing"
)

func TestRecordsReplay(t *testing.T) {
	rs, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Find(rs, "David & Felipe (6)")
	if err != nil {
		t.Fatal(err)
	}
	if r.Game.Score != 3711 || len(r.Game.LoopChanges) != 9 {
		t.Errorf("3711 record replays to %d points with %d loop-rule firings, want 3711 and 9", r.Game.Score, len(r.Game.LoopChanges))
	}
	if _, err := Find(rs, "nobody"); err == nil {
		t.Error("Find of an unknown name must fail")
	}
	x, y := ScoreByPiece(r.Game)
	if len(x) != len(y) || y[len(y)-1] != 3711 {
		t.Errorf("ScoreByPiece ends at %v", y[len(y)-1])
	}
	tab := Table(rs)
	if len(tab.Rows) != len(rs) {
		t.Errorf("record table has %d rows for %d records", len(tab.Rows), len(rs))
	}
}

func TestSince(t *testing.T) {
	rs, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	modern := Since(rs, 2021)
	if len(modern) == 0 || len(modern) >= len(rs) {
		t.Fatalf("%d records since 2021 of %d", len(modern), len(rs))
	}
	for i, r := range modern {
		if r.Kind != "record" || r.Year < 2021 || i > 0 && r.Game.Score < modern[i-1].Game.Score {
			t.Fatalf("%s (%s %d) among the records since 2021", r.Name, r.Kind, r.Year)
		}
	}
	if last := modern[len(modern)-1]; last.Game.Score != 3711 {
		t.Fatalf("the last record scores %d, want 3711", last.Game.Score)
	}
}

func TestIdentity(t *testing.T) {
	rs, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Identity(rs)
	if err != nil || n != len(rs) || n != 27 {
		t.Fatalf("identity holds for %d of %d replays (want 27): %v", n, len(rs), err)
	}
	g, _ := Find(rs, "David & Felipe (6)")
	x, y := CellsLeftByPiece(g.Game)
	if len(x) != len(g.Game.Steps) || y[0] != 0 || x[len(x)-1] != float64(len(x)-1) {
		t.Fatalf("cells left: %d points, first %v", len(x), y[0])
	}
	broken := *g.Game
	broken.Score++
	if _, err := Identity([]Record{{Record: g.Record, Game: &broken}}); err == nil {
		t.Error("a broken game passes the identity")
	}
}

func TestAuditLoops(t *testing.T) {
	rs, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                                       string
		recurring, seenOut, changed146, changed166 int
		first                                      string
	}{
		{"Atypical", 0, 0, 0, 0, "none"},
		{"Deasuke", 0, 1, 0, 0, "piece 101"},
		{"David & Felipe (1)", 0, 0, 0, 0, "none"},
		{"Tim (2)", 0, 0, 0, 0, "none"},
		{"knewjade (5)", 0, 0, 0, 0, "none"}, // the 289: no version of the rule acts in it
		{"knewjade loop basis", 0, 1, 1, 1, "piece 281"},
		{"David & Felipe (6)", 0, 14, 9, 9, "piece 2,147"},
		{"knewjade loop", 150, 151, 151, 151, "piece 281"},
	}
	for _, c := range cases {
		r, err := Find(rs, c.name)
		if err != nil {
			t.Fatal(err)
		}
		a := AuditLoops(r)
		if a.Recurring != c.recurring || a.SeenOut != c.seenOut || a.Changed146 != c.changed146 ||
			a.Changed166 != c.changed166 || a.FirstSeen != c.first || a.Spawns != r.Game.Placed() {
			t.Errorf("%s: audit %+v, want recurring %d, seen outcome %d (first %s), #146 %d, #166 %d",
				c.name, a, c.recurring, c.seenOut, c.first, c.changed146, c.changed166)
		}
	}
	// Under the current AI the #166 count is the game's own loop-rule firings.
	for _, r := range rs {
		if r.AI != "HATETRIS" {
			continue
		}
		if a := AuditLoops(r); a.Changed166 != len(r.Game.LoopChanges) {
			t.Errorf("%s: audit counts %d #166 changes, the game %d", r.Name, a.Changed166, len(r.Game.LoopChanges))
		}
	}
	tab := LoopAuditTable(rs)
	if txt := tab.Text(); len(tab.Rows) != len(rs) || !strings.Contains(txt, "(#146 or #166 can act)") || strings.Contains(txt, "%!") {
		t.Errorf("audit table has %d rows for %d records:\n%s", len(tab.Rows), len(rs), txt)
	}
}

func TestWindowStats(t *testing.T) {
	xs, mean, lo, hi := WindowStats([]float64{0, 1, 2, 3, 4}, []float64{1, 3, 5, 7, 9}, 2)
	if len(xs) != 3 || xs[0] != 0.5 || mean[0] != 2 || lo[1] != 5 || hi[1] != 7 || xs[2] != 4 || mean[2] != 9 {
		t.Errorf("WindowStats: %v %v %v %v", xs, mean, lo, hi)
	}
}
