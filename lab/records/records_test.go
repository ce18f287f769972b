package records

import (
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
