package networks

import (
	"path/filepath"

	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/lab"
)

// RanksTable reads generation g of the cycle folder dir (relative to the
// repository's root, as the specs' files are, or absolute) and tabulates how
// well each evaluation (a spec, as the arena's arms read it) orders the
// held-out wells' targets: cycle.SpecRanks, as `hatelab nnue ranks`
// prints it. Ordering the targets well is not playing well: the arena
// decides that.
func RanksTable(dir string, g int, specs ...string) (*lab.Table, error) {
	if !filepath.IsAbs(dir) {
		dir = lab.RepoPath(dir)
	}
	rs, err := cycle.SpecRanks(dir, g, lab.RepoRoot(), specs)
	if err != nil {
		return nil, err
	}
	t := lab.NewTable("evaluation", "held-out wells", "Spearman", "live wells", "Spearman (live)", "live, within equal cells", "its wells")
	for i, r := range rs {
		t.Add(specs[i], lab.Int(int64(r.Wells)), rankcorr.Format(r.Spearman), lab.Int(int64(r.Live)), rankcorr.Format(r.LiveSpearman),
			rankcorr.Format(r.CellSpearman), lab.Int(int64(r.CellWells)))
	}
	for c := 1; c < 7; c++ {
		t.Right[c] = true
	}
	return t, nil
}
