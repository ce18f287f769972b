package records

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/lab"
)

// Record is one replay of the records dataset (datasets/records) together
// with the game the engine plays from it.
type Record struct {
	records.Record
	// Keys are the decoded keystrokes (L R D U).
	Keys string
	// Game is the replayed game against the record's AI on the standard
	// 10x20 well.
	Game *hatetris.Game
}

// Load replays the primary line of every replay in datasets/records
// (one per game: world records, loops and the others, in file order),
// reporting progress to rep (nil: none).
func Load(rep progress.Reporter) ([]Record, error) {
	all, err := records.All()
	if err != nil {
		return nil, err
	}
	var prim []records.Record
	for _, r := range all {
		if r.Primary {
			prim = append(prim, r)
		}
	}
	rep = progress.Or(rep)
	out := make([]Record, 0, len(prim))
	pieces := int64(0)
	for i, r := range prim {
		rep.Report(progress.Event{Job: "replay records", Stage: r.Name, Done: int64(i), Total: int64(len(prim)), Unit: "replays"})
		rec, err := Replay(r)
		if err != nil {
			return nil, err
		}
		pieces += int64(rec.Game.Placed())
		out = append(out, rec)
	}
	rep.Report(progress.Event{Job: "replay records", Done: int64(len(prim)), Total: int64(len(prim)), Unit: "replays",
		Info: lab.Int(int64(pieces)) + " pieces", Finished: true})
	return out, nil
}

// Replay decodes a dataset replay in its encoding and plays it
// against its AI on the standard well (records.Record.Play).
func Replay(r records.Record) (Record, error) {
	keys, g, err := r.Play()
	if err != nil {
		return Record{}, err
	}
	return Record{Record: r, Keys: keys, Game: g}, nil
}

// Find returns the record with the given name.
func Find(rs []Record, name string) (Record, error) {
	for _, r := range rs {
		if r.Name == name {
			return r, nil
		}
	}
	return Record{}, fmt.Errorf("no record named %q", name)
}

// Row is a record's line in Table.
type Row struct {
	Name        string
	Holder      string
	Year        string
	Kind        string
	AI          string
	Score       int `lab:"Score (dataset)"`
	Replayed    int `lab:"Score (replayed)"`
	Pieces      int
	LoopFirings int `lab:"Loop-rule firings"`
	Over        bool
}

// Row summarises the record and its replay.
func (r Record) Row() Row {
	year := ""
	if r.Year != 0 {
		year = fmt.Sprint(r.Year)
	}
	return Row{
		Name: r.Name, Holder: r.Holder, Year: year, Kind: r.Kind, AI: r.AI,
		Score: r.Score, Replayed: r.Game.Score, Pieces: r.Game.Placed(),
		LoopFirings: len(r.Game.LoopChanges), Over: r.Game.Over,
	}
}

// Table tabulates records: holder, year, score as published and as
// replayed, pieces placed and how often the loop rule changed the piece.
func Table(rs []Record) *lab.Table {
	rows := make([]Row, len(rs))
	for i, r := range rs {
		rows[i] = r.Row()
	}
	return lab.TableOf(rows)
}

// ScoreByPiece returns, for each piece of g, the number of pieces placed
// (1, 2, ...) and the score once it locked.
func ScoreByPiece(g *hatetris.Game) (x, y []float64) {
	x = make([]float64, len(g.Steps))
	y = make([]float64, len(g.Steps))
	for i, s := range g.Steps {
		x[i] = float64(i + 1)
		y[i] = float64(s.Score + s.Lines)
	}
	return x, y
}

// StackHeightByPiece returns, for each piece of g, its number (0, 1, ...) and
// the stack height of the well it spawned into.
func StackHeightByPiece(g *hatetris.Game) (x, y []float64) {
	x = make([]float64, len(g.Steps))
	y = make([]float64, len(g.Steps))
	for i, s := range g.Steps {
		x[i] = float64(i)
		y[i] = float64(g.Rules.Height(&s.Before))
	}
	return x, y
}

// FillFrequency returns, for each cell [row][column], the fraction of the
// spawn wells of g in which it is filled (NaN when g placed no piece).
func FillFrequency(g *hatetris.Game) [][]float64 {
	r := g.Rules
	f := make([][]float64, r.Depth)
	for y := range f {
		f[y] = make([]float64, r.Width)
	}
	for _, s := range g.Steps {
		for y := 0; y < r.Depth; y++ {
			if s.Before[y] == 0 {
				continue
			}
			for x := 0; x < r.Width; x++ {
				if r.Filled(&s.Before, x, y) {
					f[y][x]++
				}
			}
		}
	}
	n := float64(len(g.Steps))
	for y := range f {
		for x := range f[y] {
			if n == 0 {
				f[y][x] = math.NaN()
			} else {
				f[y][x] /= n
			}
		}
	}
	return f
}

// Since lists the world records (Kind "record") set in year or later, in
// their order.
func Since(rs []Record, year int) []Record {
	var out []Record
	for _, r := range rs {
		if r.Kind == "record" && r.Year >= year {
			out = append(out, r)
		}
	}
	return out
}

// cells counts the filled cells of a well.
func cells(w *hatetris.Well) int {
	n := 0
	for _, row := range w {
		n += bits.OnesCount16(row)
	}
	return n
}

// CellsLeftByPiece returns, for each piece of g, the number of pieces placed
// before it spawned (0, 1, ...) and the filled cells of the well it spawned
// into. Since a piece brings 4 cells and a line takes 10, the score at
// that spawn is (4·pieces − cells)/10 (see Identity): the cells left are
// what the score curve carries beyond the number of pieces.
func CellsLeftByPiece(g *hatetris.Game) (x, y []float64) {
	x = make([]float64, len(g.Steps))
	y = make([]float64, len(g.Steps))
	for i, s := range g.Steps {
		x[i] = float64(i)
		y[i] = float64(cells(&s.Before))
	}
	return x, y
}

// Identity checks score = (4·pieces placed − cells in the well)/10 at every
// spawn of every replay and at its end, and returns how many replays it
// holds for (an error names the first spawn where it fails).
func Identity(rs []Record) (int, error) {
	for _, r := range rs {
		g := r.Game
		for i, s := range g.Steps {
			if 10*s.Score != 4*i-cells(&s.Before) {
				return 0, fmt.Errorf("records: %s, piece %d: score %d, %d pieces, %d cells", r.Name, i, s.Score, i, cells(&s.Before))
			}
		}
		if 10*g.Score != 4*g.Placed()-cells(&g.Well) {
			return 0, fmt.Errorf("records: %s at the end: score %d, %d pieces, %d cells", r.Name, g.Score, g.Placed(), cells(&g.Well))
		}
	}
	return len(rs), nil
}

// LoopAudit tells, for one replay, where each version of the real game's
// loop rule could act, counted along the replayed game (one spawn per
// locked piece). The versions, from the game's history (qntm/hatetris
// pull requests #76, #146 and #166):
//
//   - June 2021 (#76): prefer a piece not yet generated for the current
//     well. It can act only at a spawn whose well was seen at an earlier
//     spawn (Recurring).
//   - May 2022 (#146): demote a piece if any of its outcomes is a well
//     seen at a spawn, the current one included. It can act only where
//     some piece has such an outcome (SeenOutcome); Changed146 counts the
//     spawns where it sends another piece than HATETRIS Mild.
//   - Dec 2022 (#166, current): the same test with counts: prefer the
//     piece whose most-seen outcome was seen least. It acts only where
//     SeenOutcome does; Changed166 counts the spawns where it sends
//     another piece than Mild.
//
// A spawn where no piece has a seen outcome is one where every version
// sends Mild's piece, so a replay with SeenOutcome = 0 is the same game
// under every version of the rule and under Mild.
type LoopAudit struct {
	Name       string `lab:"Name"`
	AI         string `lab:"AI"`
	Score      int    `lab:"Score"`
	Spawns     int    `lab:"Spawns"`
	Recurring  int    `lab:"spawn well seen before (#76 can act)"`
	SeenOut    int    `lab:"some piece has a seen outcome (#146 or #166 can act)"`
	FirstSeen  string `lab:"first such spawn"`
	Changed146 int    `lab:"#146 changes the piece"`
	Changed166 int    `lab:"#166 changes the piece"`
}

// AuditLoops audits one replayed game (see LoopAudit). The history it
// keeps is the real AI's: every spawn well counted once per spawn, the
// current one before the pieces are weighed.
func AuditLoops(r Record) LoopAudit {
	g := r.Game
	gen := hatetris.NewGenerator(g.Rules)
	seen := hatetris.NewSeen()
	a := LoopAudit{Name: r.Name, AI: r.AI, Score: g.Score, Spawns: len(g.Steps), FirstSeen: "none"}
	for i := range g.Steps {
		s := &g.Steps[i]
		if seen.Add(&s.Before) > 1 {
			a.Recurring++
		}
		rk := gen.Rank(&s.Before, seen)
		any := false
		var demoted hatetris.Ranking
		demoted.Peak = rk.Peak
		for p := range rk.Loops {
			if rk.Loops[p] > 0 {
				any = true
				demoted.Loops[p] = 1
			}
		}
		if !any {
			continue
		}
		if a.SeenOut == 0 {
			a.FirstSeen = "piece " + lab.Int(int64(i))
		}
		a.SeenOut++
		if demoted.Best() != s.MildPiece {
			a.Changed146++
		}
		if rk.Best() != s.MildPiece {
			a.Changed166++
		}
	}
	return a
}

// LoopAuditTable audits every replay (AuditLoops), one row each.
func LoopAuditTable(rs []Record) *lab.Table {
	rows := make([]LoopAudit, len(rs))
	for i, r := range rs {
		rows[i] = AuditLoops(r)
	}
	return lab.TableOf(rows)
}

// WindowStats cuts a series into consecutive windows of n points and
// returns, per window, its middle x and the mean, least and greatest y: a
// readable summary of a long, noisy series.
func WindowStats(x, y []float64, n int) (xs, mean, lo, hi []float64) {
	if n < 1 {
		n = 1
	}
	for i := 0; i < len(x) && i < len(y); i += n {
		j := min(i+n, len(x), len(y))
		sum, l, h := 0.0, y[i], y[i]
		for k := i; k < j; k++ {
			sum += y[k]
			l, h = min(l, y[k]), max(h, y[k])
		}
		xs = append(xs, (x[i]+x[j-1])/2)
		mean = append(mean, sum/float64(j-i))
		lo = append(lo, l)
		hi = append(hi, h)
	}
	return xs, mean, lo, hi
}
