package eval

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestTunedWeights: the embedded tuned-03 weights are lines alone (dnf86's
// score and future factor, D&F's other terms 0) plus three classic terms,
// and are not DefaultWeights.
func TestTunedWeights(t *testing.T) {
	w, d := TunedWeights(), DefaultWeights()
	for _, tc := range []struct {
		term string
		got  float64
		want float64
	}{
		{"holes", w.Holes, 0},
		{"enclosed_holes", w.EnclosedHoles, 0},
		{"enclosed_hole_lines", w.EnclosedHoleLines, 0},
		{"surface_height", w.SurfaceHeight, 0},
		{"erasability", w.Erasability, 0},
		{"row_transitions", w.RowTransitions, 60},
		{"rows_with_holes", w.RowsWithHoles, 80},
		{"column_transitions", w.ColumnTransitions, 10},
		{"cumulative_wells", w.CumulativeWells, 0},
		{"hole_depth", w.HoleDepth, 0},
		{"bumpiness", w.Bumpiness, 0},
		{"edge_heights", w.EdgeHeights, 0},
		{"s_surface_height", w.SSurfaceHeight, 0},
		{"score", w.Score, d.Score},
		{"future_factor", w.FutureFactor, d.FutureFactor},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %g, want %g", tc.term, tc.got, tc.want)
		}
	}
	if w.Name != "tuned-03" || w.SZHoles || w.SZTwoWell || w == d {
		t.Errorf("tuned weights %+v", w)
	}
}

// TestByName: each name gives its evaluation (by its Name); "" stays
// "hand", D&F's weights; "tuned" takes no weights file; every error is one
// line.
func TestByName(t *testing.T) {
	const (
		dnf86 = "hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5]"
		tuned = "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]"
	)
	for _, tc := range []struct {
		name, file string
		want       string // the evaluation's Name, or a part of the error
		err        bool
	}{
		{"", "", dnf86, false},
		{"hand", "", dnf86, false},
		{" Hand ", "", dnf86, false},
		{"hand", "../../datasets/weights/tuned-03.json", tuned, false},
		{"tuned", "", tuned, false},
		{"TUNED", "", tuned, false},
		{"tuned", "../../datasets/weights/dnf86.json", "evaluation tuned takes no weights file", true},
		{"tuned-03", "", `unknown evaluation "tuned-03" (want hand, tuned or nnue)`, true},
		{"score", "", "want hand, tuned or nnue", true},
	} {
		ev, err := ByName(tc.name, tc.file)
		if tc.err {
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ByName(%q, %q) = %v, want one line with %q", tc.name, tc.file, err, tc.want)
			}
			continue
		}
		if err != nil || ev.Name() != tc.want {
			t.Errorf("ByName(%q, %q) = %v, %v; want %s", tc.name, tc.file, ev, err, tc.want)
		}
	}
}

// TestTunedValue: on a well with a sealed hole the tuned evaluation
// weighs exactly its three classic terms (the dnf86 terms are 0).
func TestTunedValue(t *testing.T) {
	r := hatetris.Standard()
	rows := make([]int, r.Depth)
	rows[18] = 0b1110000000
	rows[19] = 0b1010000000
	well, err := r.ParseWell(rows)
	if err != nil {
		t.Fatal(err)
	}
	hw := NewHand(TunedWeights()).NewHandWorker(r)
	f := hw.Features(&well)
	want := -(60*float64(f.RowTransitions) + 80*float64(f.RowsWithHoles) + 10*float64(f.ColumnTransitions) - 332.2211*2)
	if got := hw.Evaluate(&well, 2, 0); got != want || f.RowsWithHoles != 1 {
		t.Errorf("value %g, want %g (features %+v)", got, want, f)
	}
}
