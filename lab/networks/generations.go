package networks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/lab"
)

// Generation is one generation of an NNUE cycle as its folder keeps it:
// the report (gen-NN.report.json) and, when the cycle was gated, the gate
// match's comparisons of the new network with the one it started from
// (the previous generation's, or the one before when the gate rejected
// that) and with the hand-made evaluation (gate-NN.jsonl).
type Generation struct {
	Report         cycle.Report
	VsPrev, VsHand *arena.Comparison
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
		gate := filepath.Join(dir, fmt.Sprintf("gate-%02d.jsonl", g))
		if _, err := os.Stat(gate); err == nil {
			if gen.VsPrev, gen.VsHand, err = gateComparisons(gate, g, prev); err != nil {
				return nil, err
			}
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

// gateComparisons reads generation g's gate match: gen-g against the
// network it started from (prev) and against the hand-made evaluation
// ("hand").
func gateComparisons(path string, g int, prev string) (vsPrev, vsHand *arena.Comparison, err error) {
	arm := fmt.Sprintf("gen-%02d", g)
	find := func(baseline string) (*arena.Comparison, error) {
		res, err := arena.ReadMatch(path, baseline)
		if err != nil {
			return nil, err
		}
		for _, c := range res.Standings.Comparisons() {
			if c.Arm == arm {
				return &c, nil
			}
		}
		return nil, fmt.Errorf("%s: no arm %s", path, arm)
	}
	if vsPrev, err = find(prev); err != nil {
		return nil, nil, err
	}
	if vsHand, err = find("hand"); err != nil {
		return nil, nil, err
	}
	return vsPrev, vsHand, nil
}

// GenerationTable shows a cycle's generations: the master beam's game,
// the targets (dead share, crowding), the held-out Spearman correlation
// (the previous network's on the same wells), the stages' seconds, and
// the gate's paired differences (mean, 95% interval, wins/losses, the
// Wilcoxon p) against the network it started from and the hand-made
// evaluation.
func GenerationTable(gs []Generation) *lab.Table {
	t := lab.NewTable("generation", "master beam (previous network)", "targets dead", "crowding", "held-out Spearman (previous)",
		"seconds: master / targets / train", "gate: against its start", "gate: against hand-made")
	gate := func(c *arena.Comparison) string {
		if c == nil {
			return ""
		}
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f], %d/%d, p = %s", c.Diff.Estimate, c.Diff.Lo, c.Diff.Hi, c.Wins, c.Losses, pText(c.P))
	}
	for _, g := range gs {
		r := g.Report
		s := r.SecondsByStage
		vsPrev := gate(g.VsPrev)
		if g.VsPrev != nil {
			vsPrev = g.VsPrev.Baseline + ": " + vsPrev
		}
		if r.NextStart != "" {
			vsPrev += " (rejected)"
		}
		t.Add(r.Generation, fmt.Sprintf("%d lines, %d pieces", r.MasterScore, r.MasterPieces),
			fmt.Sprintf("%.0f%%", 100*float64(r.DeadTargets)/float64(max(r.Samples, 1))),
			fmt.Sprintf("%.2f", r.TargetCrowding),
			fmt.Sprintf("%.2f (%.2f)", r.ValidSpearman, r.PrevValidSpearman),
			fmt.Sprintf("%.0f / %.0f / %.0f", s["master"], s["targets"], s["train"]),
			vsPrev, gate(g.VsHand))
	}
	t.Right[0] = true
	return t
}

// pText writes a p-value with two significant figures.
func pText(p float64) string {
	return strings.Replace(fmt.Sprintf("%.2g", p), "e-0", "e-", 1)
}
