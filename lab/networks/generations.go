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
// matches: each gate's in the cycle's order, each at its beam widths in
// the gate's order.
type Generation struct {
	Report cycle.Report
	Gates  []GateMatch
}

// GateMatch is one of a generation's gate matches, one gate at one beam
// width (the file cycle.GateFile names: gate-NN.jsonl at the first gate's
// first width, gate-NN-wW.jsonl at its others, gate-NN-gK-wW.jsonl for
// gate K from 2): the new network's comparisons with the network it
// started from (the previous generation's, or the one before when the
// gate rejected that) and with the gate's baseline (the third arm: "hand"
// in the committed scale run, "score" by default since).
type GateMatch struct {
	Gate      int    // the gate's number in the cycle, from 1
	Suite     string // the gate's suite spec, as its match file names it
	BeamWidth int
	// Pass is whether the gate passed, as the report says (false where
	// the report, older than several gates, does not say).
	Pass           bool
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
		if gen.Gates, err = gateMatches(dir, gen.Report, prev); err != nil {
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

// gateMatches reads generation r's gate matches in dir: gen-NN against
// the network it started from (prev) and against the third arm. A report
// that lists its gates (r.Gates) names the files, every gate's at each
// width; one older than several gates has the first gate's alone, read
// the first width's then the others' by width. A generation whose matches
// are not in dir (not gated, or kept elsewhere) has none; one with some
// of them but not all is an error.
func gateMatches(dir string, r cycle.Report, prev string) ([]GateMatch, error) {
	if len(r.Gates) == 0 {
		return firstGateMatches(dir, r.Generation, prev)
	}
	var out []GateMatch
	var missing []string
	for k, gr := range r.Gates {
		for i, gw := range gr.Widths {
			path := filepath.Join(dir, cycle.GateFile(r.Generation, k, i, gw.BeamWidth))
			if _, err := os.Stat(path); err != nil {
				missing = append(missing, path)
				continue
			}
			m, err := gateMatch(path, r.Generation, prev)
			if err != nil {
				return nil, err
			}
			if m.Suite != gr.Suite || m.BeamWidth != gw.BeamWidth {
				return nil, fmt.Errorf("%s: suite %s at beam width %d, the report's gate %d is %s at %d", path, m.Suite, m.BeamWidth, k+1, gr.Suite, gw.BeamWidth)
			}
			m.Gate, m.Pass = k+1, gr.Pass
			out = append(out, m)
		}
	}
	if len(out) > 0 && len(missing) > 0 {
		return nil, fmt.Errorf("%s: missing (generation %d's report names it; %d of its gate matches are here)", missing[0], r.Generation, len(out))
	}
	return out, nil
}

// firstGateMatches reads the gate matches of generation g of a cycle of
// one gate, from a report older than several gates: the first width's
// file, then the others' by width.
func firstGateMatches(dir string, g int, prev string) ([]GateMatch, error) {
	paths := []string{filepath.Join(dir, cycle.GateFile(g, 0, 0, 0))}
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
		m.Gate = 1
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
	m := GateMatch{Suite: res.Header.SuiteSpec, BeamWidth: res.Header.BeamWidth}
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
// A cycle of several gates has two columns per gate, each named by its
// number and suite, and a gate the generation failed says so.
func GenerationTable(gs []Generation) *lab.Table {
	suites := gateSuites(gs)
	cols := []string{"generation", "master beam (previous network)", "targets dead", "crowding", "held-out Spearman (previous)",
		"seconds: master / targets / train"}
	switch {
	case len(suites) == 1:
		cols = append(cols, "gate: against its start", "gate: against the baseline")
	case len(suites) > 1:
		for k, s := range suites {
			name := fmt.Sprintf("gate %d", k+1)
			if s != "" {
				name += " (" + s + ")"
			}
			cols = append(cols, name+": against its start", fmt.Sprintf("gate %d: against the baseline", k+1))
		}
	}
	t := lab.NewTable(cols...)
	secs := func(v float64) string { return lab.Int(int64(math.Round(v))) }
	for _, g := range gs {
		r := g.Report
		s := r.SecondsByStage
		row := []any{r.Generation, lab.Int(int64(r.MasterScore)) + " lines, " + lab.Int(int64(r.MasterPieces)) + " pieces",
			fmt.Sprintf("%.0f%%", 100*float64(r.DeadTargets)/float64(max(r.Samples, 1))),
			fmt.Sprintf("%.2f", r.TargetCrowding),
			fmt.Sprintf("%.2f (%.2f)", r.ValidSpearman, r.PrevValidSpearman),
			secs(s["master"]) + " / " + secs(s["targets"]) + " / " + secs(s["train"])}
		for k := range suites {
			vsPrev, vsBase := gateCells(g, k+1, suites)
			row = append(row, vsPrev, vsBase)
		}
		t.Add(row...)
	}
	t.Right[0] = true
	return t
}

// gateSuites are the gates of a cycle's generations, in order: gate k's
// suite at index k-1 (the suite of every generation's gate k; empty
// where they differ).
func gateSuites(gs []Generation) []string {
	var suites []string
	seen := map[int]bool{}
	for _, g := range gs {
		for _, m := range g.Gates {
			for len(suites) < m.Gate {
				suites = append(suites, "")
			}
			switch k := m.Gate - 1; {
			case !seen[k]:
				suites[k], seen[k] = m.Suite, true
			case suites[k] != m.Suite:
				suites[k] = ""
			}
		}
	}
	return suites
}

// gateCells are generation g's two cells of its gate k (from 1): the new
// network against its start and against the baseline, at each width
// ("width W: " before each when there are several), with the suite first
// where the column's name lacks it; the start's cell ends with
// " (rejected)" in a cycle of one gate that rejected the generation, with
// " (failed)" in one of several whose gate k the generation failed.
func gateCells(g Generation, k int, suites []string) (vsPrev, vsBase string) {
	cmp := func(c *stats.Comparison) string {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f], %s/%s, %s", c.Diff.Estimate, c.Diff.Lo, c.Diff.Hi, lab.Int(int64(c.Wins)), lab.Int(int64(c.Losses)), pText(c.P))
	}
	var ms []GateMatch
	for _, m := range g.Gates {
		if m.Gate == k {
			ms = append(ms, m)
		}
	}
	var prev, base []string
	for _, m := range ms {
		w := ""
		if len(ms) > 1 {
			w = "width " + lab.Int(int64(m.BeamWidth)) + ": "
		}
		if len(suites) > 1 && suites[k-1] == "" {
			w = m.Suite + ", " + w
		}
		prev = append(prev, w+m.VsPrev.Baseline+": "+cmp(m.VsPrev))
		base = append(base, w+m.VsBase.Baseline+": "+cmp(m.VsBase))
	}
	vsPrev = strings.Join(prev, "; ")
	switch {
	case len(suites) == 1 && g.Report.NextStart != "":
		vsPrev += " (rejected)"
	case len(suites) > 1 && len(ms) > 0 && !ms[0].Pass:
		vsPrev += " (failed)"
	}
	return vsPrev, strings.Join(base, "; ")
}

// pText writes "p = " and a p-value with two significant figures
// (stats.PEquals: "p = 4.6·10⁻⁵"), "p < 10⁻¹²" below stats.PFloor.
func pText(p float64) string { return stats.PEquals(p) }
