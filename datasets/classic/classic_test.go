package classic

import (
	"fmt"
	"testing"

	"github.com/hatelab/hatelab/engine/classic"
)

// TestReadmeTable checks that the committed tetr-ai sweep reproduces
// tetr-ai's published per-height table (heights 5..12, 1000 seeds each) to
// the printed digit.
func TestReadmeTable(t *testing.T) {
	recs, err := TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	stats := classic.Summarize(recs)
	if len(stats) != 8 {
		t.Fatalf("%d heights", len(stats))
	}
	for i, s := range stats {
		p := classic.TetrAIPublished[i]
		if s.Rows != p.Rows || s.N != 1000 || s.Agent != "tetr-ai" {
			t.Fatalf("group %d: %+v", i, s)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"mean", s.Mean, p.Mean}, {"median", s.Median, p.Median}, {"median/ln2", s.MedianLn2, p.MedianLn2}} {
			if fmt.Sprintf("%.2f", c.got) != fmt.Sprintf("%.2f", c.want) {
				t.Errorf("rows %d %s = %.4f, README %.2f", s.Rows, c.name, c.got, c.want)
			}
		}
	}
}

// TestTetrAISpotCheck replays a few committed games with the engine.
func TestTetrAISpotCheck(t *testing.T) {
	recs, err := TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(recs); i += 997 {
		r := recs[i]
		if r.Rows > 10 && testing.Short() {
			continue
		}
		rules, err := classic.NewRules(r.Rows, r.Cols)
		if err != nil {
			t.Fatal(err)
		}
		if got := classic.Play(rules, classic.TetrAI{}, r.Seed, 0); got != r {
			t.Errorf("replay %+v = %+v", r, got)
		}
	}
}

func TestAgents(t *testing.T) {
	recs, err := Agents()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Agent] = true
	}
	for _, a := range []string{"dellacherie", "bcts", "wkb"} {
		if !seen[a] {
			t.Errorf("no %s records", a)
		}
	}
}

// TestDellacherie14 checks the height-14 Dellacherie sweep: 200 games,
// seeds 14000..14199, and the mean and interval notebook 05 quotes.
func TestDellacherie14(t *testing.T) {
	recs, err := Dellacherie14()
	if err != nil {
		t.Fatal(err)
	}
	stats := classic.Summarize(recs)
	if len(stats) != 1 || stats[0].Agent != "dellacherie" || stats[0].Rows != 14 || stats[0].N != 200 {
		t.Fatalf("%+v", stats)
	}
	for i, r := range recs {
		if r.Seed != int64(14000+i) || r.Cols != 10 {
			t.Fatalf("game %d: %+v", i, r)
		}
	}
	s := stats[0]
	if got := fmt.Sprintf("%.0f %.0f %.0f", s.Mean, s.CILo, s.CIHi); got != "45526 39727 51325" {
		t.Errorf("mean and 95%% CI %s, want 45526 39727 51325", got)
	}
	if testing.Short() {
		return
	}
	rules, err := classic.NewRules(14, 10)
	if err != nil {
		t.Fatal(err)
	}
	// One game replayed (seed 14001: 68,588 pieces, a fraction of a second).
	if got := classic.Play(rules, classic.Dellacherie(), recs[1].Seed, 0); got != recs[1] {
		t.Errorf("replay %+v = %+v", recs[1], got)
	}
}
