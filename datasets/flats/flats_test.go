package flats

import (
	"os"
	"strings"
	"testing"
)

// TestTables: every committed table is embedded, parses, and is listed with
// its regenerate command in README.md; every JSON file of the folder is a
// known table or result.
func TestTables(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names {
		tab, err := Table(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Shapes) == 0 || len(tab.States) == 0 || len(tab.Pairs) == 0 || tab.Provenance == "" {
			t.Errorf("%s: %d shapes, %d states, %d pairs, provenance %q", name, len(tab.Shapes), len(tab.States), len(tab.Pairs), tab.Provenance)
		}
		if !strings.Contains(string(readme), "`"+name+"`") || !strings.Contains(string(readme), "--out datasets/flats/"+name) {
			t.Errorf("README.md does not give %s with its command", name)
		}
	}
	r, err := Records()
	if err != nil || r.Source != "records" || r.Width != 10 || r.Height != 16 {
		t.Fatalf("Records: %v %+v", err, r)
	}
	b, err := BFS10x5Optimal()
	if err != nil || b.Source != "bfs" || b.Weighting != "optimal" || b.Width != 10 || b.Height != 5 {
		t.Fatalf("BFS10x5Optimal: %v", err)
	}
	if _, err := Table("nope.json"); err == nil {
		t.Fatal("a missing table gives no error")
	}
	e, err := Experiment()
	if err != nil || len(e.Runs) == 0 || !strings.HasPrefix(e.Provenance, "hatelab flats experiment") {
		t.Fatalf("Experiment: %v", err)
	}
	if !strings.Contains(string(readme), "`experiment.json`") {
		t.Error("README.md does not give experiment.json")
	}
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range append(Names, Results...) {
		known[n] = true
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") && !known[e.Name()] {
			t.Errorf("%s is committed but not embedded", e.Name())
		}
	}
}
