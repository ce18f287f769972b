package flats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
)

// TableFormat identifies the JSON layout of a Table.
const TableFormat = "hatelab-flats/1"

// Table is the JSON form of one source's flats analyses, with its
// provenance: per-state and per-shape clearability (three readings),
// never-cleared shapes and the row-pair permeability counts.
type Table struct {
	Format string `json:"format"`
	TableInfo
	// Alpha is the permeability smoothing (pseudo-moves per level).
	Alpha float64 `json:"alpha"`
	// States are the (shape, height) states with out-edges.
	States []StateRow `json:"states"`
	// Shapes are the shape-only view's shapes with out-edges.
	Shapes []ShapeRow `json:"shapes"`
	// Pairs are the row-pair permeability counts.
	Pairs []PairRow `json:"pairs"`
}

// TableInfo says what a Table was counted from: the geometry, the source
// and its weighting, the provenance and the amount of data.
type TableInfo struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Source is "bfs", "beam", "records" or "random"; Weighting the BFS
	// weighting ("games", "optimal", "uniform") when it applies.
	Source    string `json:"source"`
	Weighting string `json:"weighting,omitempty"`
	// Provenance says how the table was made (the command line, seeds,
	// versions): enough to regenerate it.
	Provenance string  `json:"provenance"`
	Games      float64 `json:"games"`
	Moves      float64 `json:"moves"`
}

// StateRow is one (shape, height) state of a Table.
type StateRow struct {
	Shape  string  `json:"shape"`
	Height int     `json:"height"`
	N      float64 `json:"n"` // lives that left the state
	B      float64 `json:"b"` // absorption into Cleared
	// F is the pathwise cleared share (absent for sources that do not
	// follow whole games).
	F *float64 `json:"f,omitempty"`
}

// ShapeRow is one shape of the shape-only view.
type ShapeRow struct {
	Shape string   `json:"shape"`
	N     float64  `json:"n"`
	B     float64  `json:"b"`
	F     *float64 `json:"f,omitempty"`
	// MF is D&F's max-flow clearability.
	MF float64 `json:"mf"`
	// Never marks a shape with no path to Cleared in the data.
	Never bool `json:"never,omitempty"`
}

// PairRow is the permeability count of row A directly above row B.
type PairRow struct {
	A    uint16  `json:"a"`
	B    uint16  `json:"b"`
	N    float64 `json:"n"`
	Hits float64 `json:"hits"`
}

// BuildTable analyses counts into a table (alpha <= 0: 5).
func BuildTable(c *Counts, source, weighting, provenance string, alpha float64) *Table {
	if alpha <= 0 {
		alpha = 5
	}
	t := &Table{Format: TableFormat, TableInfo: TableInfo{Width: c.Width, Height: c.Height, Source: source, Weighting: weighting,
		Provenance: provenance, Games: c.Games, Moves: c.Moves}, Alpha: alpha}
	g := c.Graph()
	b := Absorb(g)
	f := Pathwise(c, g)
	for _, u := range g.Order() {
		if int(u) >= g.N || u == 0 || math.IsNaN(b[u]) {
			continue
		}
		s := g.State(int(u))
		t.States = append(t.States, StateRow{Shape: ShapeString(s.Shape(), c.Width), Height: s.Height(), N: g.OutSum(int(u)), B: b[u], F: optional(f[u])})
	}
	sg := c.ShapeGraph()
	sb := Absorb(sg)
	sf := Pathwise(c, sg)
	mf := MFClearability(sg)
	never := map[State]bool{}
	for _, s := range NeverCleared(sg) {
		never[s] = true
	}
	for _, u := range sg.Order() {
		if int(u) >= sg.N || u == 0 || math.IsNaN(sb[u]) {
			continue
		}
		s := sg.State(int(u))
		t.Shapes = append(t.Shapes, ShapeRow{Shape: ShapeString(s.Shape(), c.Width), N: sg.OutSum(int(u)), B: sb[u], F: optional(sf[u]), MF: mf[u], Never: never[s]})
	}
	for _, p := range c.Pairs() {
		t.Pairs = append(t.Pairs, PairRow(p))
	}
	return t
}

func optional(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// WriteJSON writes the table as compact JSON.
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	return enc.Encode(t)
}

// MaxTableBytes caps the JSON of a table that ReadTable reads
// (records.json, the largest committed table, is 0.4 MiB; a 12-wide table
// of every state and row pair stays far below).
const MaxTableBytes = 256 << 20

// ReadTable reads and validates a table of at most MaxTableBytes; any
// problem is a one-line error.
func ReadTable(r io.Reader) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxTableBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxTableBytes {
		return nil, fmt.Errorf("flats table: larger than %d MiB", MaxTableBytes>>20)
	}
	return ParseTable(data)
}

// ParseTable decodes and validates a JSON table.
func ParseTable(data []byte) (*Table, error) {
	var t Table
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("flats table: %v", err)
	}
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("flats table: %v", err)
	}
	return &t, nil
}

func (t *Table) validate() error {
	if t.Format != TableFormat {
		return fmt.Errorf("format %q, want %q", t.Format, TableFormat)
	}
	if t.Width < 4 || t.Width > MaxWidth || t.Height < 1 || t.Height > 32 {
		return fmt.Errorf("geometry %dx%d out of range", t.Width, t.Height)
	}
	if !(t.Alpha > 0) || math.IsInf(t.Alpha, 0) || !(t.Games >= 0) || !(t.Moves >= 0) {
		return fmt.Errorf("alpha %g, games %g, moves %g", t.Alpha, t.Games, t.Moves)
	}
	prob := func(v float64) bool { return v >= 0 && v <= 1 }
	for i, s := range t.States {
		if _, err := ParseShape(s.Shape, t.Width); err != nil {
			return fmt.Errorf("state %d: %v", i, err)
		}
		if s.Height < 0 || s.Height >= t.Height || !prob(s.B) || !(s.N >= 0) || s.F != nil && !prob(*s.F) {
			return fmt.Errorf("state %d (%s@%d): height, n, b or f out of range", i, s.Shape, s.Height)
		}
	}
	for i, s := range t.Shapes {
		if _, err := ParseShape(s.Shape, t.Width); err != nil {
			return fmt.Errorf("shape %d: %v", i, err)
		}
		if !prob(s.B) || !prob(s.MF) || !(s.N >= 0) || s.F != nil && !prob(*s.F) {
			return fmt.Errorf("shape %d (%s): n, b, f or mf out of range", i, s.Shape)
		}
	}
	full := uint16(1<<t.Width - 1)
	for i, p := range t.Pairs {
		if p.A > full || p.B > full || !(p.N >= 0) || !(p.Hits >= 0) || p.Hits > p.N || math.IsInf(p.N, 0) {
			return fmt.Errorf("pair %d: out of range", i)
		}
	}
	return nil
}

// Permeability returns the table's smoothed permeability.
func (t *Table) Permeability() *Permeability {
	ps := make([]Pair, len(t.Pairs))
	for i, p := range t.Pairs {
		ps[i] = Pair(p)
	}
	return NewPermeability(ps, t.Width, t.Alpha)
}

// Placebo returns a copy of t whose state and shape B values are shuffled
// within popcount classes (per height for states), seeded: the control
// arm of the evaluation experiment.
func (t *Table) Placebo(seed uint64) *Table {
	p := *t
	p.States = slices.Clone(t.States)
	p.Shapes = slices.Clone(t.Shapes)
	p.Provenance = fmt.Sprintf("placebo (B shuffled within popcount classes, seed %d) of: %s", seed, t.Provenance)
	rng := newShuffler(seed)
	classes := map[[2]int][]int{}
	for i, s := range p.States {
		v, _ := ParseShape(s.Shape, t.Width)
		k := [2]int{bits.OnesCount16(v), s.Height}
		classes[k] = append(classes[k], i)
	}
	for _, k := range sortedKeys(classes) {
		idx := classes[k]
		vals := make([]float64, len(idx))
		for j, i := range idx {
			vals[j] = p.States[i].B
		}
		rng.shuffle(vals)
		for j, i := range idx {
			p.States[i].B = vals[j]
		}
	}
	sc := map[[2]int][]int{}
	for i, s := range p.Shapes {
		v, _ := ParseShape(s.Shape, t.Width)
		sc[[2]int{bits.OnesCount16(v), 0}] = append(sc[[2]int{bits.OnesCount16(v), 0}], i)
	}
	for _, k := range sortedKeys(sc) {
		idx := sc[k]
		vals := make([]float64, len(idx))
		for j, i := range idx {
			vals[j] = p.Shapes[i].B
		}
		rng.shuffle(vals)
		for j, i := range idx {
			p.Shapes[i].B = vals[j]
		}
	}
	return &p
}

func sortedKeys(m map[[2]int][]int) [][2]int {
	ks := make([][2]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return ks
}
