package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
)

// Weights are the coefficients of the hand-made evaluation, in the cost
// convention of D&F's published table (a positive weight penalises its
// term); the evaluation's value is minus the weighted sum.
type Weights struct {
	Name              string  `json:"name"`
	Provenance        string  `json:"provenance,omitempty"`
	Holes             float64 `json:"holes"`
	EnclosedHoles     float64 `json:"enclosed_holes"`
	EnclosedHoleLines float64 `json:"enclosed_hole_lines"`
	SurfaceHeight     float64 `json:"surface_height"`
	StackHeight       float64 `json:"stack_height,omitempty"`
	SurfaceColumns    float64 `json:"surface_columns,omitempty"`
	Erasability       float64 `json:"erasability"`
	// The classic family (WeightTerms says what each counts); absent from
	// a file, 0.
	RowTransitions    float64 `json:"row_transitions,omitempty"`
	ColumnTransitions float64 `json:"column_transitions,omitempty"`
	CumulativeWells   float64 `json:"cumulative_wells,omitempty"`
	HoleDepth         float64 `json:"hole_depth,omitempty"`
	RowsWithHoles     float64 `json:"rows_with_holes,omitempty"`
	Bumpiness         float64 `json:"bumpiness,omitempty"`
	// Two terms of Tim's hand-made heuristic (D&F, "Losing the World
	// Record in HATETRIS", the table of knewjade's and Tim's terms);
	// absent from a file, 0.
	EdgeHeights    float64 `json:"edge_heights,omitempty"`
	SSurfaceHeight float64 `json:"s_surface_height,omitempty"`
	Score          float64 `json:"score"`
	// FutureFactor weighs the lines a quiescence chain cleared to reach a
	// well against lines already scored ("a bird in the hand": 0.5).
	FutureFactor float64 `json:"future_factor"`
	// Rules: knewjade's refinements as D&F describe them (Part 1,
	// "knewjade's heuristic"), each this project's reading, off unless set.
	//
	// SZHoles does not count the holes an S or Z line clear would free:
	// a hole is freed by a placement of S or Z that clears a line when the
	// piece fills it and its row is cleared, or when, its row shifted down
	// by the rows cleared below it, the 1x1 block reaches it in
	// the well after the clear. The holes term subtracts the most holes one
	// such placement frees.
	SZHoles bool `json:"sz_holes,omitempty"`
	// SZTwoWell values a well as the better of itself and every well an S
	// or Z placement that clears a line makes (knewjade's one-step rule,
	// the seed of bird-in-hand); that placement's lines count as
	// quiescence lines (weighed by FutureFactor), and the wells it makes
	// are valued plainly (SZHoles applies to the well itself only).
	SZTwoWell bool `json:"sz_two_well,omitempty"`
}

// DefaultWeights are the weights of D&F's 86-point game (2022), as
// published in "Getting the World Record in HATETRIS" (the graph-theory
// term, -2.1413, is left out: it made no difference at wide beams), with
// future lines at half weight as in their bird-in-hand heuristic. They are
// decoded from the embedded dataset file datasets/weights/dnf86.json, the
// one place they are written down.
func DefaultWeights() Weights {
	w, err := ParseWeights(weights.DNF86)
	if err != nil {
		panic("eval: the embedded datasets/weights/dnf86.json is damaged: " + err.Error())
	}
	return w
}

// Limits on weights files, checked by LoadWeights and ParseWeights.
const (
	// MaxWeightsFile caps the size of a weights file.
	MaxWeightsFile = 1 << 20
	// MaxWeight caps the magnitude of every weight (future_factor
	// included). With it a well's value stays finite, and exact enough to
	// rank wells the same way on any number of workers: ±1e308 weights
	// would give ±Inf values.
	MaxWeight = 1e6
	// MaxWeightsName caps the length in bytes of a weights' name, which
	// the evaluation's Name (and so every checkpoint and result) carries.
	MaxWeightsName = 64
	// MaxProvenance caps the length in bytes of the provenance note.
	MaxProvenance = 4096
)

// LoadWeights reads weights from a JSON file (the format of
// datasets/weights/dnf86.json) of at most MaxWeightsFile bytes, checked as
// ParseWeights checks them. Errors name the file and fit on one line.
func LoadWeights(path string) (Weights, error) {
	b, err := boundedfile.ReadFile(path, MaxWeightsFile, "weights file")
	if boundedfile.IsRefused(err) {
		return Weights{}, fmt.Errorf("weights %s %w", path, err)
	}
	if err != nil {
		return Weights{}, err
	}
	w, err := ParseWeights(b)
	if err != nil {
		return Weights{}, fmt.Errorf("weights %s: %s", path, strings.TrimPrefix(err.Error(), "weights: "))
	}
	return w, nil
}

// ParseWeights decodes JSON weights: exactly one JSON object (whitespace
// around it allowed, nothing else), whose fields are those of Weights
// (unknown fields are an error). Every weight must lie within ±MaxWeight
// and at least one be non-zero; the name (default "custom") must be at most
// MaxWeightsName bytes without control characters, the provenance at most
// MaxProvenance bytes. Errors are one line, and quote at most a few dozen
// bytes of the input.
func ParseWeights(b []byte) (Weights, error) {
	var w Weights
	if len(b) > MaxWeightsFile {
		return Weights{}, fmt.Errorf("weights: larger than %d KiB", MaxWeightsFile>>10)
	}
	trimmed := bytes.TrimLeft(b, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Weights{}, fmt.Errorf("weights: want a JSON object {...}, got %s", clip.Quote(string(bytes.TrimSpace(b))))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Weights{}, fmt.Errorf("weights: %s", clipError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return Weights{}, fmt.Errorf("weights: trailing data after the JSON object at byte %d", dec.InputOffset())
	}
	if err := w.Check(); err != nil {
		return Weights{}, err
	}
	if w.Name == "" {
		w.Name = "custom"
	}
	return w, nil
}

// Check reports the first problem of w: a weight that is not finite or
// beyond ±MaxWeight, no non-zero weight at all, a name or provenance too
// long, or a name with control characters.
func (w *Weights) Check() error {
	set := false
	for _, t := range WeightTerms {
		v := *t.Of(w)
		if math.IsNaN(v) || math.Abs(v) > MaxWeight {
			return fmt.Errorf("weights: %s is %g, beyond ±%g", t.Name, v, float64(MaxWeight))
		}
		set = set || v != 0 && t.Name != "future_factor"
	}
	if !set {
		return fmt.Errorf("weights: no weight is set (every term's weight is 0)")
	}
	if len(w.Name) > MaxWeightsName {
		return fmt.Errorf("weights: name %s is longer than %d bytes", clip.Quote(w.Name), MaxWeightsName)
	}
	if strings.IndexFunc(w.Name, unicode.IsControl) >= 0 || !utf8.ValidString(w.Name) {
		return fmt.Errorf("weights: name %s has control characters or invalid UTF-8", clip.Quote(w.Name))
	}
	if len(w.Provenance) > MaxProvenance {
		return fmt.Errorf("weights: provenance is longer than %d bytes", MaxProvenance)
	}
	return nil
}

// clipError is err's message on one line, cut to 200 bytes (a decoding
// error quotes the offending field name or number, which may be huge).
func clipError(err error) string {
	const limit = 200
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if len(msg) <= limit {
		return msg
	}
	return msg[:clip.RuneCut(msg, limit)] + "..."
}

// Features are the terms of the hand-made evaluation for one well. Only the
// rows from the top down to the surface's lowest row count: below it the
// well can no longer change.
type Features struct {
	// Holes: empty cells with a filled cell somewhere above in their column.
	Holes int
	// EnclosedHoles: empty cells a 1x1 block dropped from the top cannot
	// reach moving left, right and down.
	EnclosedHoles int
	// EnclosedHoleLines: rows holding at least one enclosed hole.
	EnclosedHoleLines int
	// SurfaceHeight: rows between the floor and the lowest row the 1x1
	// block reaches (0 when it reaches the floor).
	SurfaceHeight int
	// StackHeight: rows between the floor and the top of the stack.
	StackHeight int
	// SurfaceColumns: the surface's height summed over the columns: for
	// each column, the rows between the floor and the lowest cell of the
	// column the 1x1 block reaches.
	SurfaceColumns int
	// Erasability: how many of the 7 pieces, each on its own, have a
	// placement that clears a line.
	Erasability int
	// The classic family: each computed only by a worker whose weights
	// give it a non-zero weight (WeightTerm.Costly), else 0. Unlike
	// the terms above they count every row of the well, down to the
	// floor (engine/classic's definitions).
	//
	// RowTransitions: filled/empty changes along every row, the walls
	// counting as filled (an empty row has 2, a full row 0).
	RowTransitions int
	// ColumnTransitions: filled/empty changes down every column, the sky
	// above the well empty and the floor below it filled.
	ColumnTransitions int
	// CumulativeWells: over every vertical run of well cells (an empty
	// cell whose left and right neighbours are filled or a wall), run
	// length L, the sum 1+2+...+L.
	CumulativeWells int
	// HoleDepth: over every empty cell with a filled cell above it in its
	// column, the number of filled cells above it in that column.
	HoleDepth int
	// RowsWithHoles: rows holding at least one empty cell with a filled
	// cell above it in its column.
	RowsWithHoles int
	// Bumpiness: the sum over neighbouring columns of the difference of
	// their heights (rows between the floor and the column's top filled
	// cell, 0 for an empty column).
	Bumpiness int
	// Two terms of Tim's heuristic (D&F, "Losing the World Record in
	// HATETRIS": "Heights of leftmost and rightmost columns" and "Surface
	// height (S piece)"), each computed, as the classic family, only by a
	// worker whose weights give it a non-zero weight, else 0.
	//
	// EdgeHeights: the height of the leftmost column plus that of the
	// rightmost (a column's height as Bumpiness has it).
	EdgeHeights int
	// SSurfaceHeight: rows between the floor and the lowest row a cell of
	// the S piece reaches over every placement the game's moves allow
	// from the spawn (game-ending ones included), taken at the lock,
	// before the lines it completes are cleared
	// (hatetris.Generator.LowestRow); 0 when an S cell reaches the floor
	// row (the game's rules always give the S a placement: a spawned
	// piece locks, at worst at the spawn). The S-piece analogue of SurfaceHeight
	// (the 1x1 block's): an overhang a 1x1 block passes under can stop
	// the S. At a spawn that overlaps the stack (a bar of 1 to 3 rows), a
	// cell of the S lying on a filled cell counts as reached, as the
	// game's Lock places it.
	SSurfaceHeight int
	// Clears: the most lines each piece can clear (S Z O I L J T).
	Clears [hatetris.NumPieces]int
}

// Hand is knewjade's hand-made evaluation (as D&F describe it) with a set
// of weights.
type Hand struct{ W Weights }

// NewHand returns the hand-made evaluation with weights w.
func NewHand(w Weights) *Hand { return &Hand{W: w} }

// Name is "hand:" and the weights' name with their values, in the order
// of WeightTerms (a term with a Label only when set, after the others),
// then the rules that are on.
func (h *Hand) Name() string {
	var b strings.Builder
	b.WriteString("hand:" + h.W.Name + "[")
	sep := ""
	for _, t := range WeightTerms {
		if t.Label == "" {
			fmt.Fprintf(&b, "%s%g", sep, *t.Of(&h.W))
			sep = " "
		}
	}
	for _, t := range WeightTerms {
		if v := *t.Of(&h.W); t.Label != "" && v != 0 {
			fmt.Fprintf(&b, " %s %g", t.Label, v)
		}
	}
	for _, r := range WeightRules {
		if *r.Of(&h.W) {
			b.WriteString(" " + strings.ReplaceAll(r.Name, "_", "-"))
		}
	}
	return b.String() + "]"
}

// NewWorker returns a worker with its own move generator.
func (h *Hand) NewWorker(r *hatetris.Rules) Worker { return h.NewHandWorker(r) }

// NewHandWorker is NewWorker with the concrete type (for Features).
func (h *Hand) NewHandWorker(r *hatetris.Rules) *HandWorker {
	return &HandWorker{w: h.W, r: r, g: hatetris.NewGenerator(r), classic: classicWeighed(&h.W), clears: clearsWeighed(&h.W), surface: surfaceWeighed(&h.W)}
}

// HandWorker evaluates wells with the hand-made evaluation.
type HandWorker struct {
	w       Weights
	r       *hatetris.Rules
	g       *hatetris.Generator
	buf     [2][]hatetris.Outcome // S and Z clearing outcomes (the S/Z rules)
	classic classicSet            // the Costly terms its weights set
	clears  bool                  // whether its values read Features.Clears (clearsWeighed)
	surface bool                  // whether its values read the surface terms (surfaceWeighed)
}

// surfaceWeighed reports whether values with weights w read the terms of
// the 1x1 block's flood from the top (Holes, EnclosedHoles,
// EnclosedHoleLines, SurfaceHeight, SurfaceColumns), or the S/Z rules,
// which read holes. A worker whose weights read none (tuned-03's) skips
// the flood (engine/PERF.md).
func surfaceWeighed(w *Weights) bool {
	return w.Holes != 0 || w.EnclosedHoles != 0 || w.EnclosedHoleLines != 0 || w.SurfaceHeight != 0 ||
		w.SurfaceColumns != 0 || w.SZHoles || w.SZTwoWell
}

// clearsWeighed reports whether values with weights w read the most lines
// each piece clears (Features.Clears): for Erasability or the S/Z rules.
// Without them the worker skips the clears (MaxClears floods all seven
// pieces: about half of the CPU of a hybrid's beam, engine/PERF.md) and
// leaves them to the beam's quiescence, which needs them only up to the
// first piece, in S Z O I L J T order, that cannot clear two lines
// (hatetris.Generator.SingleClears).
func clearsWeighed(w *Weights) bool {
	return w.Erasability != 0 || w.SZHoles || w.SZTwoWell
}

// classicSet is a set of the Costly terms: the classic family's and Tim's
// two (classicFeatures computes them all).
type classicSet uint8

const (
	cRowTransitions classicSet = 1 << iota
	cColumnTransitions
	cRowsWithHoles
	cHoleDepth
	cCumulativeWells
	cBumpiness
	cEdgeHeights
	cSSurfaceHeight
	// cOnePass: the terms classicFeatures computes in its first pass.
	cOnePass = cRowTransitions | cColumnTransitions | cRowsWithHoles
)

// classicWeighed is the set of the Costly terms w weighs.
func classicWeighed(w *Weights) classicSet {
	var s classicSet
	for _, c := range []struct {
		v float64
		s classicSet
	}{{w.RowTransitions, cRowTransitions}, {w.ColumnTransitions, cColumnTransitions}, {w.RowsWithHoles, cRowsWithHoles},
		{w.HoleDepth, cHoleDepth}, {w.CumulativeWells, cCumulativeWells}, {w.Bumpiness, cBumpiness},
		{w.EdgeHeights, cEdgeHeights}, {w.SSurfaceHeight, cSSurfaceHeight}} {
		if c.v != 0 {
			s |= c.s
		}
	}
	return s
}

// Evaluate implements Worker; it allocates nothing (once its buffers have
// grown, with the S/Z rules).
func (hw *HandWorker) Evaluate(w *hatetris.Well, score, future int) float64 {
	f := hw.features(w, hw.clears, hw.surface)
	return hw.value(w, &f, score, future)
}

// EvaluateClears implements ClearsWorker: when the weights read no clears
// (clearsWeighed), it does not compute them and reports -1 for every
// piece.
func (hw *HandWorker) EvaluateClears(w *hatetris.Well, score, future int, clears *[hatetris.NumPieces]int) float64 {
	if !hw.clears {
		f := hw.features(w, false, hw.surface)
		*clears = [hatetris.NumPieces]int{-1, -1, -1, -1, -1, -1, -1}
		return hw.value(w, &f, score, future)
	}
	f := hw.Features(w)
	*clears = f.Clears
	return hw.value(w, &f, score, future)
}

// value is the evaluation of w with features f, the S/Z rules applied.
func (hw *HandWorker) value(w *hatetris.Well, f *Features, score, future int) float64 {
	if !hw.w.SZHoles && !hw.w.SZTwoWell {
		return hw.w.Value(f, score, future)
	}
	outs := hw.szClears(w, f)
	if hw.w.SZHoles && f.Holes > 0 {
		freed := 0
		holes, low := hw.holeRows(w)
		for _, o := range outs {
			for i := range o {
				freed = max(freed, hw.freed(w, &holes, low, &o[i]))
			}
		}
		f.Holes -= freed
	}
	v := hw.w.Value(f, score, future)
	if hw.w.SZTwoWell {
		for _, o := range outs {
			for i := range o {
				f1 := hw.Features(&o[i].Well)
				v = max(v, hw.w.Value(&f1, score, future+o[i].Lines))
			}
		}
	}
	return v
}

// holeRows returns the holes of w row by row (empty cells with a filled
// cell above in their column, down to the surface's lowest row) and that
// row, as Features counts them.
func (hw *HandWorker) holeRows(w *hatetris.Well) (holes [hatetris.MaxDepth]uint16, low int) {
	_, low = reachRows(hw.r, w)
	full := hw.r.FullRow()
	var above uint16
	for y := 0; y <= low; y++ {
		holes[y] = full &^ w[y] & above
		above |= w[y]
	}
	return holes, low
}

// reachRows returns, row by row, the empty cells a 1x1 block dropped from
// the top reaches moving left, right and down, and the lowest row it
// reaches (-1: none).
func reachRows(r *hatetris.Rules, w *hatetris.Well) (reach [hatetris.MaxDepth]uint16, low int) {
	full := r.FullRow()
	seed, low := full, -1
	for y := 0; y < r.Depth; y++ {
		empty := full &^ w[y]
		seed &= empty
		if seed == 0 {
			break
		}
		for {
			n := seed | (seed<<1|seed>>1)&empty
			if n == seed {
				break
			}
			seed = n
		}
		reach[y], low = seed, y
	}
	return reach, low
}

// freed counts the holes of w (holes, down to row low) that outcome o
// frees: filled by the piece in a cleared row, or reached by the 1x1
// block in o's well once their row has moved down past the cleared rows
// below it.
func (hw *HandWorker) freed(w *hatetris.Well, holes *[hatetris.MaxDepth]uint16, low int, o *hatetris.Outcome) int {
	full := hw.r.FullRow()
	var locked hatetris.Well = *w
	for i, c := range o.Placed.Cells {
		if y := o.Placed.Y + i; y >= 0 && y < hw.r.Depth {
			locked[y] |= c
		}
	}
	reach, _ := reachRows(hw.r, &o.Well)
	n := 0
	for y := low; y >= 0; y-- {
		if holes[y] == 0 {
			continue
		}
		if locked[y] == full {
			n += bits.OnesCount16(holes[y])
			continue
		}
		shift := 0 // rows cleared below y move it down
		for z := y + 1; z < hw.r.Depth; z++ {
			if locked[z] == full {
				shift++
			}
		}
		n += bits.OnesCount16(holes[y] & reach[y+shift])
	}
	return n
}

// szClears returns the live outcomes of S and of Z that clear a line in w
// (f.Clears tells which piece can), in buffers of the worker's.
func (hw *HandWorker) szClears(w *hatetris.Well, f *Features) [2][]hatetris.Outcome {
	var out [2][]hatetris.Outcome
	for k, p := range []hatetris.Piece{hatetris.S, hatetris.Z} {
		if f.Clears[p] == 0 {
			continue
		}
		hw.buf[k] = hw.g.ClearingOutcomes(w, p, hw.buf[k][:0])
		live := hw.buf[k][:0]
		for _, o := range hw.buf[k] {
			if !o.GameOver && o.Lines > 0 {
				live = append(live, o)
			}
		}
		out[k] = live
	}
	return out
}

// Value is minus the weighted cost of features f at the given score.
func (wt *Weights) Value(f *Features, score, future int) float64 {
	lines := float64(score) + wt.FutureFactor*float64(future)
	cost := wt.Holes*float64(f.Holes) +
		wt.EnclosedHoles*float64(f.EnclosedHoles) +
		wt.EnclosedHoleLines*float64(f.EnclosedHoleLines) +
		wt.SurfaceHeight*float64(f.SurfaceHeight) +
		wt.StackHeight*float64(f.StackHeight) +
		wt.SurfaceColumns*float64(f.SurfaceColumns) +
		wt.Erasability*float64(f.Erasability) +
		wt.RowTransitions*float64(f.RowTransitions) +
		wt.ColumnTransitions*float64(f.ColumnTransitions) +
		wt.CumulativeWells*float64(f.CumulativeWells) +
		wt.HoleDepth*float64(f.HoleDepth) +
		wt.RowsWithHoles*float64(f.RowsWithHoles) +
		wt.Bumpiness*float64(f.Bumpiness) +
		wt.Score*lines
	if math.Float64bits(wt.EdgeHeights)|math.Float64bits(wt.SSurfaceHeight) != 0 {
		// Tim's terms, added last and only when weighed (a weight of
		// -0, a zero with bits set, adds only a zero): weights without
		// them keep their values bit for bit and their speed (the sum
		// above is one chain of dependent additions).
		cost += wt.EdgeHeights*float64(f.EdgeHeights) + wt.SSurfaceHeight*float64(f.SSurfaceHeight)
	}
	return -cost
}

// Features computes the terms of w (each Costly one only when the
// worker's weights set it).
func (hw *HandWorker) Features(w *hatetris.Well) Features { return hw.features(w, true, true) }

// features is Features, with Clears and Erasability left 0 unless clears,
// and the surface terms (surfaceWeighed) left 0 unless surface.
func (hw *HandWorker) features(w *hatetris.Well, clears, surface bool) Features {
	var f Features
	r := hw.r
	f.StackHeight = r.Height(w)
	if surface {
		hw.surfaceTerms(w, &f)
	}
	if clears {
		hw.g.MaxClears(w, &f.Clears)
		for _, c := range f.Clears {
			if c > 0 {
				f.Erasability++
			}
		}
	}
	if hw.classic != 0 {
		classicFeatures(hw.g, w, &f, hw.classic)
	}
	return f
}

// surfaceTerms sets the terms of f that the 1x1 block's flood from the top
// of w gives: Holes, EnclosedHoles, EnclosedHoleLines, SurfaceHeight and
// SurfaceColumns.
func (hw *HandWorker) surfaceTerms(w *hatetris.Well, f *Features) {
	r := hw.r
	full := r.FullRow()
	reach := full // the row above the well is open everywhere
	var above uint16
	low := -1
	var holes, enc, encLines [hatetris.MaxDepth]uint8
	var reachRow [hatetris.MaxDepth]uint16
	for y := 0; y < r.Depth; y++ {
		row := w[y]
		empty := full &^ row
		seed := reach & empty
		if seed != 0 {
			for {
				n := seed | (seed<<1|seed>>1)&empty
				if n == seed {
					break
				}
				seed = n
			}
			low = y
		}
		reach = seed
		reachRow[y] = seed
		holes[y] = uint8(bits.OnesCount16(empty & above))
		e := empty &^ seed
		enc[y] = uint8(bits.OnesCount16(e))
		if e != 0 {
			encLines[y] = 1
		}
		above |= row
		if seed == 0 {
			break
		}
	}
	for y := 0; y <= low; y++ {
		f.Holes += int(holes[y])
		f.EnclosedHoles += int(enc[y])
		f.EnclosedHoleLines += int(encLines[y])
	}
	f.SurfaceHeight = r.Depth - 1 - low
	var acc uint16
	for y := r.Depth - 1; y >= 0; y-- {
		acc |= reachRow[y]
		f.SurfaceColumns += r.Width - bits.OnesCount16(acc)
	}
}

// planes is the number of bit planes of a bit-sliced column counter: a
// count up to 31 fits, and no column of a well (at most MaxDepth-3 rows,
// hatetris.NewRules) counts more.
const planes = 5

// A compile-time check that planes holds every count (the array's length
// would be negative if MaxDepth grew past it).
var _ [1<<planes - (hatetris.MaxDepth - 3) - 1]struct{}

// slicedSum is the sum of the bit-sliced counts p over the columns of m.
func slicedSum(p *[planes]uint16, m uint16) int {
	return bits.OnesCount16(p[0]&m) + bits.OnesCount16(p[1]&m)<<1 + bits.OnesCount16(p[2]&m)<<2 +
		bits.OnesCount16(p[3]&m)<<3 + bits.OnesCount16(p[4]&m)<<4
}

// slicedInc adds 1 to the bit-sliced counts p of the columns of m.
func slicedInc(p *[planes]uint16, m uint16) {
	for k := range p {
		if m == 0 {
			return
		}
		p[k], m = p[k]^m, p[k]&m
	}
}

// classicFeatures fills the Costly terms of set s of f (f.StackHeight set):
// those of the classic family and EdgeHeights bitwise, in up to four
// passes over the rows from the top of the stack to the floor, each only
// when s asks for its terms (Bumpiness and EdgeHeights share the last,
// which finds the columns' heights), and SSurfaceHeight by the generator
// g (its rules are the well's; LowestRow floods the S down the well). Two
// per-column counts are kept bit-sliced (plane k holds bit k of every
// column's count): the filled cells above each column's current row (for
// HoleDepth) and the length of the run of well cells ending there (for
// CumulativeWells, which adds every run's length once per cell: 1+2+...+L).
func classicFeatures(g *hatetris.Generator, w *hatetris.Well, f *Features, s classicSet) {
	r := g.Rules()
	full := r.FullRow()
	walls := uint32(1) | uint32(1)<<(r.Width+1)
	top := r.Depth - f.StackHeight
	if s&cOnePass != 0 {
		inner := uint32(1)<<(r.Width+1) - 1
		rt := 2 * top // the empty rows above the stack
		var ct, rwh int
		var prev, above uint16
		for y := top; y < r.Depth; y++ {
			row := w[y]
			ext := uint32(row)<<1 | walls
			rt += bits.OnesCount32((ext ^ ext>>1) & inner)
			ct += bits.OnesCount16(prev ^ row)
			if full&^row&above != 0 {
				rwh++
			}
			above |= row
			prev = row
		}
		ct += bits.OnesCount16(full &^ prev)
		if s&cRowTransitions != 0 {
			f.RowTransitions = rt
		}
		if s&cColumnTransitions != 0 {
			f.ColumnTransitions = ct
		}
		if s&cRowsWithHoles != 0 {
			f.RowsWithHoles = rwh
		}
	}
	if s&cHoleDepth != 0 {
		var above uint16
		var filled [planes]uint16
		for y := top; y < r.Depth; y++ {
			row := w[y]
			if h := full &^ row & above; h != 0 {
				f.HoleDepth += slicedSum(&filled, h)
			}
			slicedInc(&filled, row)
			above |= row
		}
	}
	if s&cCumulativeWells != 0 {
		var wells uint16
		var run [planes]uint16
		for y := top; y < r.Depth; y++ {
			row := w[y]
			ext := uint32(row)<<1 | walls
			well := uint16(ext&(ext>>2)) & full &^ row
			if well|wells != 0 { // a run goes on, starts or ends
				for k := range run {
					run[k] &= well
				}
				slicedInc(&run, well)
				f.CumulativeWells += slicedSum(&run, well)
				wells = well
			}
		}
	}
	if s&(cBumpiness|cEdgeHeights|cSSurfaceHeight) == 0 {
		return
	}
	if s&cSSurfaceHeight != 0 {
		f.SSurfaceHeight = r.Depth - 1 - g.LowestRow(w, hatetris.S)
		if s&(cBumpiness|cEdgeHeights) == 0 {
			return
		}
	}
	// height[b]: the height of the column of row bit b (bit 0 is the
	// rightmost column, bit Width-1 the leftmost); edge heights alone
	// need only those two columns.
	var height [16]int
	need := full
	if s&cBumpiness == 0 {
		need = r.Bit(0) | r.Bit(r.Width-1)
	}
	var above uint16
	for y := top; y < r.Depth && above&need != need; y++ {
		for n := w[y] &^ above; n != 0; n &= n - 1 {
			height[bits.TrailingZeros16(n)] = r.Depth - y
		}
		above |= w[y]
	}
	if s&cBumpiness != 0 {
		for x := 1; x < r.Width; x++ {
			d := height[x] - height[x-1]
			f.Bumpiness += max(d, -d)
		}
	}
	if s&cEdgeHeights != 0 {
		f.EdgeHeights = height[0] + height[r.Width-1]
	}
}
