package networks

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/lab"
)

// Generation is one generation of an NNUE cycle as its folder keeps it:
// the report (gen-NN.report.json) and, when the cycle was gated, its gate
// matches, one per beam width.
type Generation struct {
	Report cycle.Report
	Gates  []GateMatch
}

// GateMatch is one of a generation's gate matches (gate-NN.jsonl at the
// gate's first width, gate-NN-wW.jsonl at each other width W): the new
// network's comparisons with the network it started from (the previous
// generation's, or the one before when the gate rejected that) and with
// the gate's baseline (the third arm: "hand" in the committed scale run,
// "score" by default since).
type GateMatch struct {
	BeamWidth      int
	VsPrev, VsBase *stats.Comparison
}

// maxReport bounds a report file.
const maxReport = 1 << 20

// Generations reads the generations of a cycle's folder (a path relative
// to the repository's root, such as datasets/weights/scale-run, or
// absolute), in order, from generation 1 up to the first missing report.
func Generations(dir string) ([]Generation, error) {
	if !filepath.IsAbs(dir) {
		dir = lab.RepoPath(dir)
	}
	var out []Generation
	prev := "gen-00" // the network generation g started from
	for g := 1; ; g++ {
		path := filepath.Join(dir, fmt.Sprintf("gen-%02d.report.json", g))
		if _, err := os.Stat(path); os.IsNotExist(err) {
			break
		}
		b, err := boundedfile.ReadFile(path, maxReport, "generation report")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var gen Generation
		if err := json.Unmarshal(b, &gen.Report); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if gen.Gates, err = gateMatches(dir, g, prev); err != nil {
			return nil, err
		}
		out = append(out, gen)
		prev = fmt.Sprintf("gen-%02d", g)
		if gen.Report.NextStart != "" { // rejected: the next starts where this one did
			prev = strings.TrimSuffix(filepath.Base(gen.Report.NextStart), ".hlnn")
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no generation reports (gen-01.report.json)", dir)
	}
	return out, nil
}

// gateMatches reads generation g's gate matches in dir, the first
// width's then the others' by width: gen-g against the network it started
// from (prev) and against the third arm.
func gateMatches(dir string, g int, prev string) ([]GateMatch, error) {
	paths := []string{filepath.Join(dir, fmt.Sprintf("gate-%02d.jsonl", g))}
	if _, err := os.Stat(paths[0]); err != nil {
		return nil, nil // not gated
	}
	others, err := filepath.Glob(filepath.Join(dir, fmt.Sprintf("gate-%02d-w*.jsonl", g)))
	if err != nil {
		return nil, err
	}
	var out []GateMatch
	for _, path := range append(paths, others...) {
		m, err := gateMatch(path, g, prev)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out[1:], func(a, b GateMatch) int { return a.BeamWidth - b.BeamWidth })
	return out, nil
}

// gateMatch reads one gate match of generation g.
func gateMatch(path string, g int, prev string) (GateMatch, error) {
	arm := fmt.Sprintf("gen-%02d", g)
	res, err := arena.ReadMatch(path, prev)
	if err != nil {
		return GateMatch{}, err
	}
	// The file's arms in the order their games finished: the start
	// network (read first, as ReadMatch's baseline), gen-g and the gate's
	// baseline in either order.
	st := res.Standings
	a, b := slices.Index(st.Arms, arm), 3-slices.Index(st.Arms, arm)
	if len(st.Arms) != 3 || a < 1 {
		return GateMatch{}, fmt.Errorf("%s: arms %v, want %s, %s and a baseline", path, st.Arms, prev, arm)
	}
	m := GateMatch{BeamWidth: res.Header.BeamWidth}
	// The same comparisons the gate's verdict gives (cycle.Gate.Judge).
	// Against the previous network: a family of two with the baseline's
	// comparison (Holm p, intervals of the family's level).
	fam := []stats.Comparison{
		stats.Compare(arm, prev, st.Scores[a], st.Scores[0], 2000, 1, 0.95, nil),
		stats.Compare(st.Arms[b], prev, st.Scores[b], st.Scores[0], 2000, 1, 0.95, nil),
	}
	stats.Adjust(fam, 2000, 1, 0.95)
	vsPrev := fam[0]
	vsBase := stats.Compare(arm, st.Arms[b], st.Scores[a], st.Scores[b], 2000, 1, 0.95, nil)
	m.VsPrev, m.VsBase = &vsPrev, &vsBase
	return m, nil
}

// GenerationTable shows a cycle's generations: the master beam's game,
// the targets (dead share, crowding), the held-out Spearman correlation
// (the previous network's on the same wells), the stages' seconds, and
// the gate's paired differences at each of its widths (mean, 95%
// interval, wins/losses, the Wilcoxon p) against the network it started
// from and the gate's baseline; a run without gates has no gate columns.
func GenerationTable(gs []Generation) *lab.Table {
	gated := slices.ContainsFunc(gs, func(g Generation) bool { return len(g.Gates) > 0 })
	cols := []string{"generation", "master beam (previous network)", "targets dead", "crowding", "held-out Spearman (previous)",
		"seconds: master / targets / train"}
	if gated {
		cols = append(cols, "gate: against its start", "gate: against the baseline")
	}
	t := lab.NewTable(cols...)
	cmp := func(c *stats.Comparison) string {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f], %s/%s, %s", c.Diff.Estimate, c.Diff.Lo, c.Diff.Hi, lab.Int(int64(c.Wins)), lab.Int(int64(c.Losses)), pText(c.P))
	}
	secs := func(v float64) string { return lab.Int(int64(math.Round(v))) }
	for _, g := range gs {
		r := g.Report
		s := r.SecondsByStage
		var vsPrev, vsBase []string
		for _, m := range g.Gates {
			w := ""
			if len(g.Gates) > 1 {
				w = "width " + lab.Int(int64(m.BeamWidth)) + ": "
			}
			vsPrev = append(vsPrev, w+m.VsPrev.Baseline+": "+cmp(m.VsPrev))
			vsBase = append(vsBase, w+m.VsBase.Baseline+": "+cmp(m.VsBase))
		}
		prev := strings.Join(vsPrev, "; ")
		if r.NextStart != "" {
			prev += " (rejected)"
		}
		row := []any{r.Generation, lab.Int(int64(r.MasterScore)) + " lines, " + lab.Int(int64(r.MasterPieces)) + " pieces",
			fmt.Sprintf("%.0f%%", 100*float64(r.DeadTargets)/float64(max(r.Samples, 1))),
			fmt.Sprintf("%.2f", r.TargetCrowding),
			fmt.Sprintf("%.2f (%.2f)", r.ValidSpearman, r.PrevValidSpearman),
			secs(s["master"]) + " / " + secs(s["targets"]) + " / " + secs(s["train"])}
		if gated {
			row = append(row, prev, strings.Join(vsBase, "; "))
		}
		t.Add(row...)
	}
	t.Right[0] = true
	return t
}

// pText writes "p = " and a p-value with two significant figures
// (stats.PEquals: "p = 4.6·10⁻⁵"), "p < 10⁻¹²" below stats.PFloor.
func pText(p float64) string { return stats.PEquals(p) }
