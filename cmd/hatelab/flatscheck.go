package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Caps of the flats commands, stated in their help: every flag is checked
// against them before any work, so that no count asks for an allocation
// the machine cannot give (--games 9223372036854775807 was a makeslice
// panic, --starts 2000000000 asked for 192 GB).
const (
	maxFlatsGames   = 1_000_000 // flats count --games
	maxFlatsPieces  = 1_000_000 // flats count --max-pieces
	maxFlatsStarts  = 10_000    // flats count --starts, experiment --starts and --tune-starts (each)
	maxFlatsOpening = 1_000     // --opening
	maxFlatsWidths  = 16        // --beam-widths of flats count and flats experiment
	maxFlatsGrid    = 1_000     // experiment --grid
	maxResamples    = 1_000_000 // experiment --resamples
	// maxBudgetWells caps --max-wells (the well graph indexes wells with
	// int32).
	maxBudgetWells = 1 << 30
	// wellGraphBytes is the memory of one well of the well graph of flats
	// count --source bfs, edges and index included (measured: 10x6 with
	// 300000 wells, 131 MB peak RSS; 512 leaves room for the map's growth).
	wellGraphBytes = 512
	// floorWellBytes is the memory of one well of flats floor's search
	// (measured: 500000 wells, 137 MB peak RSS; 5000000, 1.4-1.6 GB).
	floorWellBytes = 320
	// maxTableBytes caps a flats table file.
	maxTableBytes = flats.MaxTableBytes
	// maxResultsBytes caps an experiment's results file (the committed
	// one, 20 starts, is 0.15 MiB; 10000 starts at 16 widths, 5 arms, stay
	// below).
	maxResultsBytes = 512 << 20
)

// checkFlatsCount checks every flag of flats count before any work.
func checkFlatsCount(source, out string, width, height, games, maxPieces, starts, opening, maxWells int, beamWidths []int, alpha float64, force bool) error {
	if out == "" {
		return fmt.Errorf("--out TABLE.json is required")
	}
	if source != "bfs" && source != "beam" && source != "records" && source != "random" {
		return fmt.Errorf("--source %q: want bfs, beam, records or random", source)
	}
	if alpha < 0 || math.IsNaN(alpha) || math.IsInf(alpha, 0) {
		return fmt.Errorf("--alpha %g: want a finite number, 0 or more (0: the default 5)", alpha)
	}
	if source != "records" {
		if width < hatetris.MinWidth || width > flats.MaxWidth {
			return fmt.Errorf("--well-width %d: want %d..%d (a flats table's shapes)", width, hatetris.MinWidth, flats.MaxWidth)
		}
		maxH := hatetris.MaxDepth - 3 - 4 // 4 rows above the bar
		if source == "beam" {
			maxH = 16 // the beam search's largest well
		}
		if height < 1 || height > maxH {
			return fmt.Errorf("--height %d: want 1..%d rows below the bar (--source %s)", height, maxH, source)
		}
	}
	switch source {
	case "bfs":
		if maxWells < 1 || maxWells > maxBudgetWells {
			return fmt.Errorf("--max-wells %d: want 1..%d", maxWells, maxBudgetWells)
		}
		if err := checkMemory(fmt.Sprintf("--max-wells %d", maxWells), uint64(maxWells)*wellGraphBytes); err != nil {
			return err
		}
	case "random":
		if games < 1 || games > maxFlatsGames {
			return fmt.Errorf("--games %d: want 1..%d", games, maxFlatsGames)
		}
		if maxPieces < 0 || maxPieces > maxFlatsPieces {
			return fmt.Errorf("--max-pieces %d: want 0 (until game over) to %d", maxPieces, maxFlatsPieces)
		}
	case "beam":
		if starts < 1 || starts > maxFlatsStarts {
			return fmt.Errorf("--starts %d: want 1..%d", starts, maxFlatsStarts)
		}
		if opening < 0 || opening > maxFlatsOpening {
			return fmt.Errorf("--opening %d: want 0..%d pieces", opening, maxFlatsOpening)
		}
		if err := checkBeamWidths("--beam-widths", beamWidths); err != nil {
			return err
		}
		if err := checkMemory(fmt.Sprintf("--beam-widths %d", slices.Max(beamWidths)), beam.PoolBytes(slices.Max(beamWidths), 1)); err != nil {
			return err
		}
	}
	if out == "-" {
		return nil
	}
	return checkOutput("--out", out, flats.TableFormat[:len("hatelab-flats/")], force)
}

// checkBeamWidths checks a list of beam widths (1 to 2^24-1 each, at
// most maxFlatsWidths of them).
func checkBeamWidths(flag string, ws []int) error {
	if len(ws) == 0 || len(ws) > maxFlatsWidths {
		return fmt.Errorf("%s: want 1 to %d beam widths, not %d", flag, maxFlatsWidths, len(ws))
	}
	for _, w := range ws {
		if w < 1 || w > beam.MaxWidth {
			return fmt.Errorf("%s: beam width %d: want 1 to %d", flag, w, beam.MaxWidth)
		}
	}
	return nil
}

// checkFlatsFloor checks every flag of flats floor before any work; the
// well budget is sized from the memory left when --max-wells is not given.
func checkFlatsFloor(width int, row string, minH, maxH int, maxWells *int, maxWellsSet bool) (uint16, error) {
	if width < hatetris.MinWidth || width > hatetris.MaxWidth {
		return 0, fmt.Errorf("--well-width %d: want %d..%d", width, hatetris.MinWidth, hatetris.MaxWidth)
	}
	shape, err := flats.ParseShape(row, width)
	if err != nil {
		return 0, fmt.Errorf("--row: %v", err)
	}
	if maxTop := hatetris.MaxDepth - 3 - bfs.Bar; minH < 1 || maxH < minH || maxH > maxTop {
		return 0, fmt.Errorf("--min-height %d, --max-height %d: want 1 <= min <= max <= %d", minH, maxH, maxTop)
	}
	if _, err := flats.LoneFloorRow(width, maxH, shape); err != nil {
		return 0, fmt.Errorf("--row %s: %v", row, err)
	}
	if !maxWellsSet {
		*maxWells = sizedFromMemory(*maxWells, floorWellBytes)
	}
	if *maxWells < 1 || *maxWells > maxBudgetWells {
		return 0, fmt.Errorf("--max-wells %d: want 1..%d", *maxWells, maxBudgetWells)
	}
	return shape, checkMemory(fmt.Sprintf("--max-wells %d", *maxWells), uint64(*maxWells)*floorWellBytes)
}

// readTableFile reads a flats table file named by flag, bounded
// (maxTableBytes, a regular file only) and validated.
func readTableFile(flag, path string) (*flats.Table, error) {
	b, err := readBounded(flag, path, maxTableBytes, "flats table")
	if err != nil {
		return nil, err
	}
	t, err := flats.ParseTable(b)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return t, nil
}

// checkExperimentFlags checks the flags of flats experiment that its
// configuration's Validate does not bound.
func checkExperimentFlags(out, ckpt, weights string, widths []int, starts, tuneStarts, tuneBeamWidth, opening int, grid []float64, workers, resamples int) error {
	if out == "" {
		return fmt.Errorf("--out results.json is required")
	}
	if err := checkBeamWidths("--beam-widths", widths); err != nil {
		return err
	}
	for _, c := range []struct {
		flag    string
		v, l, h int
	}{
		{"--starts", starts, 1, maxFlatsStarts},
		{"--tune-starts", tuneStarts, 1, maxFlatsStarts},
		{"--tune-beam-width", tuneBeamWidth, 1, beam.MaxWidth},
		{"--opening", opening, 0, maxFlatsOpening},
		{"--workers", workers, 0, 1024},
		{"--resamples", resamples, 0, maxResamples},
	} {
		if c.v < c.l || c.v > c.h {
			return fmt.Errorf("%s %d: want %d..%d", c.flag, c.v, c.l, c.h)
		}
	}
	if len(grid) == 0 || len(grid) > maxFlatsGrid {
		return fmt.Errorf("--grid: want 1 to %d weights, not %d", maxFlatsGrid, len(grid))
	}
	for _, g := range grid {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("--grid: weight %g: want finite weights", g)
		}
	}
	if err := checkMemory(fmt.Sprintf("--beam-widths %d", slices.Max(append(slices.Clone(widths), tuneBeamWidth))),
		beam.PoolBytes(slices.Max(append(slices.Clone(widths), tuneBeamWidth)), max(workers, 1))); err != nil {
		return err
	}
	if ckpt != "" {
		if st, err := os.Stat(ckpt); err == nil && !st.IsDir() {
			return fmt.Errorf("--checkpoint %s: not a folder", ckpt)
		}
	}
	if weights != "" {
		st, err := os.Stat(weights)
		if err != nil {
			return fmt.Errorf("--weights: cannot read %s: %v", weights, unwrapPathError(err))
		}
		if err := boundedfile.Check(st, 1<<20, "weights file"); err != nil {
			return fmt.Errorf("--weights %s: %v", weights, err)
		}
	}
	return nil
}

// loadExperiment reads the results file out of flats experiment when it
// exists (nil, nil when it does not): bounded, a regular file, an
// experiment's JSON with nothing unknown, and every run, tuned weight and
// number in range (checkResults), so that a hand-edited file (a start
// that does not exist, arm "A9", a score of 1e15) is refused, not used.
func loadExperiment(out string) (*experiment.Results, error) {
	if err := atomicfile.CheckTarget(out); err != nil {
		return nil, fmt.Errorf("--out: %v", err)
	}
	if _, err := os.Stat(out); os.IsNotExist(err) {
		if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--out %s: the folder %s does not exist", out, filepath.Dir(out))
		}
		return nil, nil
	}
	b, err := readBounded("--out", out, maxResultsBytes, "results file")
	if err != nil {
		return nil, err
	}
	e := new(experiment.Results)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(e); err != nil {
		return nil, fmt.Errorf("--out %s: not an experiment's results: %v", out, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("--out %s: not an experiment's results: data after the JSON object", out)
	}
	return e, nil
}

// checkResults checks the runs and tuned weights of results e, resumed
// under configuration c (after Experiment.Resume: the same settings).
func checkResults(e *experiment.Results, c experiment.Config) error {
	if len(e.Tuned) > 2 {
		return fmt.Errorf("%d tuned weights, want at most 2 (A1, A2)", len(e.Tuned))
	}
	for arm, w := range e.Tuned {
		if arm != experiment.ArmHandG && arm != experiment.ArmGScore {
			return fmt.Errorf("tuned weight of arm %q: only A1 and A2 are tuned", arm)
		}
		if !slices.Contains(c.Grid, w) {
			return fmt.Errorf("tuned weight %s %g is not in the grid", arm, w)
		}
	}
	seen := map[string]bool{}
	for i := range e.Runs {
		r := &e.Runs[i]
		if err := checkRun(r, c); err != nil {
			return fmt.Errorf("run %d (%s %s, start %d, beam width %d): %v", i+1, r.Phase, r.Arm, r.Start, r.BeamWidth, err)
		}
		k := fmt.Sprintf("%s-%s-w%d-s%d-g%g-m%d", r.Phase, r.Arm, r.BeamWidth, r.Start, r.Weight, r.MatchedTo)
		if seen[k] {
			return fmt.Errorf("run %d (%s %s, start %d, beam width %d) is listed twice", i+1, r.Phase, r.Arm, r.Start, r.BeamWidth)
		}
		seen[k] = true
	}
	return nil
}

// maxRunPieces bounds the pieces of one run's game (the longest beam games
// of a standard well last a few thousand pieces).
const maxRunPieces = 10_000_000

func checkRun(r *experiment.Search, c experiment.Config) error {
	if !slices.Contains(experiment.Arms, r.Arm) {
		return fmt.Errorf("arm %q: want one of %v", r.Arm, experiment.Arms)
	}
	if r.BeamWidth < 1 || r.BeamWidth > beam.MaxWidth {
		return fmt.Errorf("beam width %d out of range", r.BeamWidth)
	}
	switch r.Phase {
	case experiment.PhaseTune:
		if r.Arm != experiment.ArmHandG && r.Arm != experiment.ArmGScore || r.Start < c.Starts || r.Start >= c.Starts+c.TuneStarts ||
			r.BeamWidth != c.TuneBeamWidth || !slices.Contains(c.Grid, r.Weight) || r.MatchedTo != 0 {
			return fmt.Errorf("not a tuning run of this configuration (arm A1 or A2, start %d..%d, beam width %d, a grid weight)",
				c.Starts, c.Starts+c.TuneStarts-1, c.TuneBeamWidth)
		}
	case experiment.PhaseTest, experiment.PhaseMatched:
		if r.Start < 0 || r.Start >= c.Starts {
			return fmt.Errorf("start %d: want 0..%d (the test starts)", r.Start, c.Starts-1)
		}
		if r.Phase == experiment.PhaseMatched && (r.Arm != experiment.ArmHand || r.MatchedTo < 1 || r.MatchedTo > beam.MaxWidth) ||
			r.Phase == experiment.PhaseTest && r.MatchedTo != 0 {
			return fmt.Errorf("matched-time fields out of place (arm %s, matched to %d)", r.Arm, r.MatchedTo)
		}
	default:
		return fmt.Errorf("phase %q: want tune, test or matched", r.Phase)
	}
	if math.IsNaN(r.Weight) || math.IsInf(r.Weight, 0) {
		return fmt.Errorf("weight %g", r.Weight)
	}
	if r.Pieces < 0 || r.Pieces > maxRunPieces {
		return fmt.Errorf("pieces %d out of range 0..%d", r.Pieces, maxRunPieces)
	}
	// Every piece brings 4 cells and a line takes 10 (the standard well):
	// no game scores more lines than its cells fill, the opening included.
	if maxScore := 4 * (r.Pieces + c.Opening) / 10; r.Score < 0 || r.Score > maxScore {
		return fmt.Errorf("score %d out of range 0..%d (%d pieces after an opening of %d)", r.Score, maxScore, r.Pieces, c.Opening)
	}
	for _, v := range []float64{r.CPUSeconds, r.Seconds} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("time %g s out of range", v)
		}
	}
	if r.Children < 0 {
		return fmt.Errorf("%d children", r.Children)
	}
	return nil
}
