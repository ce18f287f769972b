package flats

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedRecordTable: datasets/flats/records.json is what counting
// the records gives today (regenerate it with the README's command if
// the definitions change).
func TestCommittedRecordTable(t *testing.T) {
	data, err := os.ReadFile("../../datasets/flats/records.json")
	if err != nil {
		t.Fatal(err)
	}
	committed, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := recordTable(t)
	fresh.Provenance = committed.Provenance
	var a, b bytes.Buffer
	if err := fresh.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := committed.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("datasets/flats/records.json differs from a fresh count of the records")
	}
	data, err = os.ReadFile("../../datasets/flats/bfs-10x5-optimal.json")
	if err != nil {
		t.Fatal(err)
	}
	opt, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Width != 10 || opt.Height != 5 || opt.Source != "bfs" || opt.Weighting != "optimal" || len(opt.Shapes) == 0 {
		t.Fatalf("bfs-10x5-optimal.json: %s %s %dx%d, %d shapes", opt.Source, opt.Weighting, opt.Width, opt.Height, len(opt.Shapes))
	}
}
