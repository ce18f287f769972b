package transitions

import (
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/flats"
)

func TestTableBAndCommonShapes(t *testing.T) {
	a := &flats.Table{Shapes: []flats.ShapeRow{{Shape: "000000", N: 50, B: 0.5}, {Shape: "111100", N: 3, B: 0.25}, {Shape: "001111", N: 40, B: 0.75}}}
	b := &flats.Table{Shapes: []flats.ShapeRow{{Shape: "001111", N: 9, B: 0.1}, {Shape: "000000", N: 20, B: 0.2}, {Shape: "111100", N: 90, B: 0.3}}}
	got, err := CommonShapes(6, 5, a, b)
	if err != nil {
		t.Fatal(err)
	}
	// 111100 has 3 lives in a: left out; the order is a's.
	if len(got) != 2 || flats.ShapeString(got[0], 6) != "000000" || flats.ShapeString(got[1], 6) != "001111" {
		t.Fatalf("CommonShapes = %v", got)
	}
	missing, _ := flats.ParseShape("010101", 6)
	bs := TableB(b, append(got, missing), 6)
	if bs[0] != 0.2 || bs[1] != 0.1 || !math.IsNaN(bs[2]) {
		t.Errorf("TableB = %v, want [0.2 0.1 NaN]", bs)
	}
	if _, err := CommonShapes(6, 5, &flats.Table{Shapes: []flats.ShapeRow{{Shape: "0x", N: 9}}}); err == nil {
		t.Error("CommonShapes of a malformed shape: no error")
	}
}

// TestShapeBAndSpearmanCI: B from counts equals the table's B built from
// the same counts; a source against itself correlates 1 with an interval
// that holds it, and against its own table exactly.
func TestShapeBAndSpearmanCI(t *testing.T) {
	a, err := Records()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Random(10, 16, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	tab := a.Table()
	shapes, err := CommonShapes(10, 5, tab, b.Table())
	if err != nil || len(shapes) < 3 {
		t.Fatalf("CommonShapes: %v, %d shapes", err, len(shapes))
	}
	fromCounts, fromTable := ShapeB(a.Counts, shapes), TableB(tab, shapes, 10)
	for i := range shapes {
		if math.Abs(fromCounts[i]-fromTable[i]) > 1e-12 {
			t.Errorf("shape %s: B %v from counts, %v from the table", flats.ShapeString(shapes[i], 10), fromCounts[i], fromTable[i])
		}
	}
	s, err := SpearmanCI(a.Rules, a.Games, nil, tab, shapes, 20, 1)
	if err != nil || !strings.HasPrefix(s, "1.00 [") {
		t.Errorf("SpearmanCI against its own table = %q, %v; want 1.00 [...]", s, err)
	}
	// The records against themselves, both resampled: estimate 1, an interval.
	s, err = SpearmanCI(a.Rules, a.Games, a.Games, nil, shapes, 20, 1)
	if err != nil || !strings.HasPrefix(s, "1.00 [") || !strings.HasSuffix(s, "]") {
		t.Errorf("SpearmanCI of two resampled sources = %q, %v; want 1.00 and an interval", s, err)
	}
	if s, err := SpearmanCI(a.Rules, a.Games, b.Games, nil, nil, 5, 1); err != nil || !strings.HasPrefix(s, "–") {
		t.Errorf("SpearmanCI over no shapes = %q, %v; want – (too few shared shapes)", s, err)
	}
}
