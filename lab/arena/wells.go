package arena

import (
	"fmt"
	"slices"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/lab"
)

// WellStats summarises the start wells of one suite: how deep in a game
// they are (lines scored, pieces of memory) and what the stack looks like
// (height from the floor, filled cells, rows with a hole).
type WellStats struct {
	Spec   string
	Starts int
	// Lines and Memory are the starts' scores and the lengths of their
	// AI memories (spawns seen before the start): median and maximum.
	LinesMedian, LinesMax   int
	MemoryMedian, MemoryMax int
	// Height, Cells and HoleRows are means over the starts.
	Height, Cells, HoleRows float64
}

// Wells builds each suite (arena.ParseSuite on the real game's well) and
// summarises its starts: a way to see what short (openings) and deep
// (records, games) suites put in front of an evaluation.
func Wells(specs ...string) ([]WellStats, error) {
	var out []WellStats
	for _, spec := range specs {
		s, err := arena.ParseSuite(spec, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, describe(s))
	}
	return out, nil
}

func describe(s *arena.Suite) WellStats {
	r := s.Rules
	n := len(s.Starts)
	lines, memory := make([]int, n), make([]int, n)
	st := WellStats{Spec: s.Spec, Starts: n}
	hw := eval.NewHand(eval.Weights{RowsWithHoles: 1}).NewHandWorker(r)
	for i := range s.Starts {
		w := &s.Starts[i].Well
		lines[i], memory[i] = s.Starts[i].Score, len(s.Starts[i].History)
		st.Height += float64(r.Height(w))
		st.Cells += float64(r.Cells(w))
		st.HoleRows += float64(holeRows(hw, w))
	}
	if n > 0 {
		st.Height, st.Cells, st.HoleRows = st.Height/float64(n), st.Cells/float64(n), st.HoleRows/float64(n)
		slices.Sort(lines)
		slices.Sort(memory)
		st.LinesMedian, st.LinesMax = lines[n/2], lines[n-1]
		st.MemoryMedian, st.MemoryMax = memory[n/2], memory[n-1]
	}
	return st
}

// holeRows counts the rows with an empty cell under a filled cell of the
// same column: the hand-made evaluation's term (eval.Features.RowsWithHoles).
func holeRows(hw *eval.HandWorker, w *hatetris.Well) int { return hw.Features(w).RowsWithHoles }

// WellsTable shows Wells' summaries, one row a suite.
func WellsTable(ws []WellStats) *lab.Table {
	t := lab.NewTable("suite", "starts", "lines: median", "max", "memory (spawns): median", "max", "stack height", "filled cells", "rows with a hole")
	for _, w := range ws {
		t.Add(w.Spec, w.Starts, w.LinesMedian, w.LinesMax, w.MemoryMedian, w.MemoryMax,
			fmt.Sprintf("%.1f", w.Height), fmt.Sprintf("%.1f", w.Cells), fmt.Sprintf("%.1f", w.HoleRows))
	}
	return t
}
