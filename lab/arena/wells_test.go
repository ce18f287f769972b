package arena

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

func TestHoleRows(t *testing.T) {
	r := hatetris.Standard()
	hw := eval.NewHand(eval.Weights{RowsWithHoles: 1}).NewHandWorker(r)
	full := uint16(1)<<r.Width - 1
	for _, tc := range []struct {
		name string
		rows map[int]uint16 // row (0: top) -> filled columns
		want int
	}{
		{"empty", nil, 0},
		{"a full floor", map[int]uint16{19: full}, 0},
		{"one covered gap", map[int]uint16{18: 1 << 3, 19: full &^ (1 << 3)}, 1},
		{"a gap beside the cover", map[int]uint16{18: 1 << 3, 19: full &^ (1 << 4)}, 0},
		{"two rows under one cover", map[int]uint16{17: 1, 18: full &^ 1, 19: full &^ 1}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w hatetris.Well
			for y, m := range tc.rows {
				w[y] = m
			}
			if got := holeRows(hw, &w); got != tc.want {
				t.Fatalf("holeRows = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestWells(t *testing.T) {
	ws, err := Wells("openings:30:8:1", "games:30:1:20", "records:30:1")
	if err != nil {
		t.Fatal(err)
	}
	open, games, recs := ws[0], ws[1], ws[2]
	if open.Starts != 30 || open.MemoryMedian != 8 || open.MemoryMax != 8 || open.LinesMax > 8 {
		t.Fatalf("openings: %+v", open)
	}
	if games.LinesMedian < 20 || games.MemoryMedian <= 8 || recs.LinesMedian < games.LinesMedian/4 {
		t.Fatalf("games %+v, records %+v", games, recs)
	}
	for _, w := range ws {
		if w.Height <= 0 || w.Height > 16 || w.Cells <= 0 || w.HoleRows < 0 || w.HoleRows > w.Height {
			t.Fatalf("%s: %+v", w.Spec, w)
		}
	}
	if txt := WellsTable(ws).Text(); !strings.Contains(txt, "games:30:1:20") || !strings.Contains(txt, "stack height") {
		t.Fatalf("table:\n%s", txt)
	}
	if _, err := Wells("games:1"); err == nil {
		t.Fatal("a bad spec accepted")
	}
}
