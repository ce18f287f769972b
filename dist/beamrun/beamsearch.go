package beamrun

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	beamsearch "github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
)

func init() {
	beam.RegisterType(reflect.TypeOf(candBlock{}))
	beam.RegisterType(reflect.TypeOf(beamStat{}))
	beam.RegisterType(reflect.TypeOf(histAcc{}))
	beam.RegisterCoder(reflect.TypeOf(histAcc{}), encodeHist, decodeHist)
	beam.RegisterDoFn(reflect.TypeOf((*expandBeamFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*dedupCandFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*boundaryFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*filterFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*tieFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*writeStatFn)(nil)).Elem())
	register.Combiner2[histAcc, candBlock](&histFn{})
	register.Combiner1[beamStat](&statFn{})
}

// BeamSearchOptions configure a beam search on Beam.
type BeamSearchOptions struct {
	// Rules is the geometry; WellWidth, WellDepth and Bar must describe it
	// (the workers rebuild it).
	WellWidth, WellDepth, Bar int
	BeamWidth, MaxPieces      int
	Quiescence                bool
	QuiescenceCap             int
	// EvalName and Weights choose the evaluation (Evaluator: an
	// evaluation spec, and an older --weights file; the files must be
	// readable by the Beam workers).
	EvalName, Weights string
	// Work is the folder of the blocks of parents and kept children.
	Work string
	// Checkpoint, when set, is a local folder that receives engine/beam's
	// checkpoint after every level (the native engine's format); Resume
	// continues from it.
	Checkpoint string
	Resume     bool
	// BlockParents is the parents of one block (0: the beam / 16, 32 to
	// 4096); Parts the partitions of the children (0: 16).
	BlockParents, Parts int
	Runner              Runner
	// Progress, if set, receives one line per level.
	Progress io.Writer
}

func (o BeamSearchOptions) config() (beamsearch.Config, error) {
	r, err := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
	if err != nil {
		return beamsearch.Config{}, inputError{err}
	}
	ev, err := Evaluator(o.EvalName, o.Weights, r)
	if err != nil {
		return beamsearch.Config{}, inputError{err}
	}
	return beamsearch.Config{Rules: r, BeamWidth: o.BeamWidth, MaxPieces: o.MaxPieces, Quiescence: o.Quiescence,
		QuiescenceCap: o.QuiescenceCap, Eval: ev, Workers: 1, CheckpointDir: o.Checkpoint, Resume: o.Resume}, nil
}

// Evaluator builds the evaluation of hatelab-beam's --eval and
// --weights (evalspec.ParseFlags, the grammar of hatelab beam --eval).
func Evaluator(spec, weightsFile string, r *hatetris.Rules) (eval.Evaluator, error) {
	return evalspec.ParseFlags(spec, weightsFile, r)
}

// beamSpec is what the DoFns of one level need.
type beamSpec struct {
	WellWidth, WellDepth, Bar int
	BeamWidth                 int
	Quiescence                bool
	QuiescenceCap             int
	EvalName, Weights         string
	Work                      string
	Level, Parts              int
}

func (s beamSpec) options() BeamSearchOptions {
	return BeamSearchOptions{WellWidth: s.WellWidth, WellDepth: s.WellDepth, Bar: s.Bar, BeamWidth: s.BeamWidth,
		Quiescence: s.Quiescence, QuiescenceCap: s.QuiescenceCap, EvalName: s.EvalName, Weights: s.Weights}
}

func beamDir(work string, d int) string { return join(work, fmt.Sprintf("B%05d", d)) }

// candBlock is a block of children (encoded) of one partition.
type candBlock struct {
	Part int
	Data []byte
}

// beamStat sums a level's expansion counters.
type beamStat struct {
	Children         int64
	Loops, AllRepeat int
}

const candBytes = 48

func appendCand(b []byte, c *beamsearch.Cand) []byte {
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Value))
	b = binary.LittleEndian.AppendUint32(b, uint32(c.Score))
	b = binary.LittleEndian.AppendUint32(b, c.From)
	for _, r := range c.Well {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	return b
}

func decodeCands(dst []beamsearch.Cand, b []byte) ([]beamsearch.Cand, error) {
	if len(b)%candBytes != 0 {
		return nil, fmt.Errorf("a block of %d bytes is not whole children", len(b))
	}
	for i := 0; i < len(b); i += candBytes {
		var c beamsearch.Cand
		c.Value = math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
		c.Score = int32(binary.LittleEndian.Uint32(b[i+8:]))
		c.From = binary.LittleEndian.Uint32(b[i+12:])
		for j := range c.Well {
			c.Well[j] = binary.LittleEndian.Uint16(b[i+16+2*j:])
		}
		dst = append(dst, c)
	}
	return dst, nil
}

func appendParent(b []byte, p *beamsearch.Parent) []byte {
	b = binary.LittleEndian.AppendUint32(b, p.Index)
	b = binary.LittleEndian.AppendUint32(b, uint32(p.Score))
	for _, r := range p.Well {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Hist)))
	for _, h := range p.Hist {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

func decodeParents(b []byte) ([]beamsearch.Parent, error) {
	var out []beamsearch.Parent
	for len(b) > 0 {
		if len(b) < 44 {
			return nil, fmt.Errorf("a truncated block of parents")
		}
		var p beamsearch.Parent
		p.Index = binary.LittleEndian.Uint32(b)
		p.Score = int32(binary.LittleEndian.Uint32(b[4:]))
		for j := range p.Well {
			p.Well[j] = binary.LittleEndian.Uint16(b[8+2*j:])
		}
		n := int(binary.LittleEndian.Uint32(b[40:]))
		b = b[44:]
		if len(b) < 8*n {
			return nil, fmt.Errorf("a truncated block of parents")
		}
		p.Hist = make([]uint64, n)
		for j := range p.Hist {
			p.Hist[j] = binary.LittleEndian.Uint64(b[8*j:])
		}
		b = b[8*n:]
		out = append(out, p)
	}
	return out, nil
}

// prefix is the 32-bit bucket of a value: better values have smaller
// prefixes, equal values equal ones (0 and -0 alike).
func prefix(v float64) uint32 {
	if v == 0 {
		v = 0
	}
	u := math.Float64bits(v)
	if u>>63 == 1 {
		u = ^u
	} else {
		u |= 1 << 63
	}
	return uint32(^u >> 32)
}

// expandBeamFn expands a block of parents.
type expandBeamFn struct {
	Spec beamSpec
	ex   *beamsearch.BlockExpander
}

func (f *expandBeamFn) Setup() error {
	cfg, err := f.Spec.options().config()
	if err != nil {
		return err
	}
	f.ex, err = beamsearch.NewBlockExpander(cfg)
	return err
}

func (f *expandBeamFn) ProcessElement(ctx context.Context, name string, emit func(int, []byte), stats func(beamStat)) error {
	b, err := readFile(ctx, name)
	if err != nil {
		return err
	}
	ps, err := decodeParents(b)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	f.ex.Begin()
	for i := range ps {
		f.ex.Expand(&ps[i])
	}
	kept, children, loops, all := f.ex.Finish()
	parts := make([][]byte, f.Spec.Parts)
	for i := range kept {
		q := beamsearch.KeyHash(&kept[i]) % uint64(f.Spec.Parts)
		parts[q] = appendCand(parts[q], &kept[i])
	}
	for q, data := range parts {
		if len(data) > 0 {
			emit(q, data)
		}
	}
	stats(beamStat{Children: children, Loops: loops, AllRepeat: all})
	return nil
}

func sortCands(cs []beamsearch.Cand) {
	slices.SortFunc(cs, func(a, b beamsearch.Cand) int { return beamsearch.Order(&a, &b) })
}

// dedupCandFn deduplicates a partition's children (the first copy in
// Order) and keeps its best BeamWidth.
type dedupCandFn struct{ Spec beamSpec }

func (f *dedupCandFn) ProcessElement(q int, values func(*[]byte) bool, emit func(candBlock)) error {
	cs, err := readSortedCands(values)
	if err != nil {
		return err
	}
	cs = slices.CompactFunc(cs, func(a, b beamsearch.Cand) bool { return beamsearch.SameKey(&a, &b) })
	emit(candBlock{Part: q, Data: encodeCands(cs[:min(len(cs), f.Spec.BeamWidth)])})
	return nil
}

// readSortedCands decodes the blocks of children values yields, sorted in
// the beam's Order.
func readSortedCands(values func(*[]byte) bool) ([]beamsearch.Cand, error) {
	var cs []beamsearch.Cand
	var b []byte
	for values(&b) {
		var err error
		if cs, err = decodeCands(cs, b); err != nil {
			return nil, err
		}
	}
	sortCands(cs)
	return cs, nil
}

// encodeCands encodes children as one block.
func encodeCands(cs []beamsearch.Cand) []byte {
	out := make([]byte, 0, candBytes*len(cs))
	for i := range cs {
		out = appendCand(out, &cs[i])
	}
	return out
}

// histAcc is a histogram of 2^16 buckets of value prefixes: level 1 over
// the prefixes' top 16 bits, level 2 over the low 16 bits of those in the
// level-1 boundary bucket.
type histAcc struct{ Counts []int64 }

// encodeHist writes a histogram sparsely: (bucket, count) varints of the
// buckets in use (a reflective coder of its 2^16 counts costs more than
// the rest of a small level).
func encodeHist(h histAcc) []byte {
	var b []byte
	for i, c := range h.Counts {
		if c != 0 {
			b = binary.AppendUvarint(b, uint64(i))
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return b
}

func decodeHist(b []byte) (histAcc, error) {
	h := histAcc{Counts: make([]int64, 1<<16)}
	for len(b) > 0 {
		i, n := binary.Uvarint(b)
		if n <= 0 || i >= 1<<16 {
			return h, fmt.Errorf("a damaged histogram")
		}
		b = b[n:]
		c, m := binary.Uvarint(b)
		if m <= 0 {
			return h, fmt.Errorf("a damaged histogram")
		}
		b = b[m:]
		h.Counts[i] = int64(c)
	}
	return h, nil
}

// histFn combines histograms of candBlocks (Shift 16: the top bits).
type histFn struct{ Shift int }

func (f *histFn) CreateAccumulator() histAcc { return histAcc{Counts: make([]int64, 1<<16)} }

func (f *histFn) AddInput(a histAcc, cb candBlock) histAcc {
	if len(a.Counts) == 0 {
		a = f.CreateAccumulator()
	}
	for i := 0; i+candBytes <= len(cb.Data); i += candBytes {
		v := math.Float64frombits(binary.LittleEndian.Uint64(cb.Data[i:]))
		a.Counts[(prefix(v)>>uint(f.Shift))&0xffff]++
	}
	return a
}

func (f *histFn) MergeAccumulators(a, b histAcc) histAcc {
	if len(a.Counts) == 0 {
		a = f.CreateAccumulator()
	}
	for i, c := range b.Counts {
		a.Counts[i] += c
	}
	return a
}

// readHist reads a histogram side input (a combine of no input gives
// none: an empty histogram).
func readHist(it func(*histAcc) bool) histAcc {
	h := histAcc{Counts: make([]int64, 1<<16)}
	var x histAcc
	for it(&x) {
		for i, c := range x.Counts {
			h.Counts[i] += c
		}
	}
	return h
}

// cut is where the histogram says the beam ends: the first bucket whose
// cumulated count reaches need, and the count before it (all: need is
// never reached).
func cut(h histAcc, need int64) (bucket uint32, before int64, all bool) {
	var acc int64
	for b, c := range h.Counts {
		if acc+c >= need {
			return uint32(b), acc, false
		}
		acc += c
	}
	return 0, acc, true
}

// threshold is the exact cut of the beam: children with a smaller prefix
// are kept, those with prefix T go to the tie pass, which keeps need of
// them; all means every child is kept.
func threshold(width int, h1, h2 histAcc) (T uint32, need int64, all bool) {
	b1, before1, all := cut(h1, int64(width))
	if all {
		return 0, 0, true
	}
	b2, before2, _ := cut(h2, int64(width)-before1)
	return b1<<16 | b2, int64(width) - before1 - before2, false
}

// boundaryFn passes on the children of the level-1 boundary bucket.
type boundaryFn struct{ Spec beamSpec }

func (f *boundaryFn) ProcessElement(cb candBlock, h1 func(*histAcc) bool, emit func(candBlock)) {
	b1, _, all := cut(readHist(h1), int64(f.Spec.BeamWidth))
	if all {
		return
	}
	var out []byte
	for i := 0; i+candBytes <= len(cb.Data); i += candBytes {
		v := math.Float64frombits(binary.LittleEndian.Uint64(cb.Data[i:]))
		if prefix(v)>>16 == b1 {
			out = append(out, cb.Data[i:i+candBytes]...)
		}
	}
	if len(out) > 0 {
		emit(candBlock{Part: cb.Part, Data: out})
	}
}

// filterFn writes a partition's children that make the cut and passes
// the boundary ones to the tie pass.
type filterFn struct{ Spec beamSpec }

func (f *filterFn) ProcessElement(ctx context.Context, cb candBlock, h1, h2 func(*histAcc) bool, ties func(int, []byte)) error {
	T, _, all := threshold(f.Spec.BeamWidth, readHist(h1), readHist(h2))
	var keep, tie []byte
	for i := 0; i+candBytes <= len(cb.Data); i += candBytes {
		p := prefix(math.Float64frombits(binary.LittleEndian.Uint64(cb.Data[i:])))
		switch {
		case all || p < T:
			keep = append(keep, cb.Data[i:i+candBytes]...)
		case p == T:
			tie = append(tie, cb.Data[i:i+candBytes]...)
		}
	}
	if len(tie) > 0 {
		ties(0, tie)
	}
	if len(keep) == 0 {
		return nil
	}
	return writeFile(ctx, join(beamDir(f.Spec.Work, f.Spec.Level+1), fmt.Sprintf("kept-%05d.bin", cb.Part)), keep)
}

// tieFn keeps the first children of the boundary prefix in Order.
type tieFn struct{ Spec beamSpec }

func (f *tieFn) ProcessElement(ctx context.Context, _ int, values func(*[]byte) bool, h1, h2 func(*histAcc) bool) error {
	_, need, _ := threshold(f.Spec.BeamWidth, readHist(h1), readHist(h2))
	cs, err := readSortedCands(values)
	if err != nil {
		return err
	}
	out := encodeCands(cs[:min(int64(len(cs)), need)])
	return writeFile(ctx, join(beamDir(f.Spec.Work, f.Spec.Level+1), "kept-ties.bin"), out)
}

type statFn struct{}

func (statFn) MergeAccumulators(a, b beamStat) beamStat {
	return beamStat{Children: a.Children + b.Children, Loops: a.Loops + b.Loops, AllRepeat: a.AllRepeat + b.AllRepeat}
}

// writeStatFn writes a level's counters (the mark of a complete pipeline).
type writeStatFn struct{ Spec beamSpec }

func (f *writeStatFn) ProcessElement(ctx context.Context, s beamStat) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeFile(ctx, join(beamDir(f.Spec.Work, f.Spec.Level+1), "stats.json"), b)
}

// BeamSearch runs a beam search on Apache Beam, one pipeline per level, and returns the
// same game and levels as engine/beam.Run (LevelStats.Bytes counts the
// kept wells and the ancestry only).
func BeamSearch(ctx context.Context, o BeamSearchOptions) (*beamsearch.Result, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	if o.Work == "" {
		return nil, inputErrorf("beamrun: the Beam engine needs a work folder (--work DIR)")
	}
	if o.Parts <= 0 {
		o.Parts = 16
	}
	d, err := beamsearch.NewDriver(cfg)
	if err != nil {
		return nil, inputError{err}
	}
	var lastHash uint64
	stalled := 0
	for !d.Done() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		kept, st, err := beamLevel(ctx, o, d)
		if err != nil {
			return nil, fmt.Errorf("beamrun: level %d: %w", d.Level(), err)
		}
		ds, err := d.Advance(kept, st.Children, st.Loops, st.AllRepeat, time.Since(t0).Seconds())
		if err != nil {
			return nil, err
		}
		if h := d.KeptHash(); h == lastHash {
			if stalled++; stalled >= beamsearch.StallLevels {
				return nil, fmt.Errorf("%w: the kept wells have not changed for %d levels (level %d): the game does not end", beamsearch.ErrStalled, stalled, d.Level())
			}
		} else {
			lastHash, stalled = h, 0
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "level %d: kept %d, score %d..%d, %.2fs\n", ds.Level, ds.Kept, ds.MinScore, ds.MaxScore, ds.Seconds)
		}
	}
	return d.Result(ctx)
}

// beamLevel runs the pipeline of one level and returns the kept children,
// best first, and the expansion's counters.
func beamLevel(ctx context.Context, o BeamSearchOptions, d *beamsearch.Driver) ([]beamsearch.Cand, beamStat, error) {
	dep := d.Level()
	n := d.Len()
	bp := o.BlockParents
	if bp <= 0 {
		bp = min(max(n/16, 32), 4096)
	}
	dir := beamDir(o.Work, dep)
	var names []string
	for lo := 0; lo < n; lo += bp {
		ps := d.Parents(lo, min(lo+bp, n))
		var b []byte
		for i := range ps {
			b = appendParent(b, &ps[i])
		}
		name := join(dir, fmt.Sprintf("parents-%05d.bin", len(names)))
		if err := writeFile(ctx, name, b); err != nil {
			return nil, beamStat{}, err
		}
		names = append(names, name)
	}
	next := beamDir(o.Work, dep+1)
	removeGlob(ctx, join(next, "*"))
	spec := beamSpec{WellWidth: o.WellWidth, WellDepth: o.WellDepth, Bar: o.Bar, BeamWidth: o.BeamWidth, Quiescence: o.Quiescence,
		QuiescenceCap: o.QuiescenceCap, EvalName: o.EvalName, Weights: o.Weights, Work: o.Work, Level: dep, Parts: o.Parts}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("level%d", dep))
	in := beam.CreateList(s, names)
	children, stats := beam.ParDo2(s, &expandBeamFn{Spec: spec}, in)
	parts := beam.ParDo(s, &dedupCandFn{Spec: spec}, beam.GroupByKey(s, children))
	h1 := beam.Combine(s, &histFn{Shift: 16}, parts)
	bound := beam.ParDo(s, &boundaryFn{Spec: spec}, parts, beam.SideInput{Input: h1})
	h2 := beam.Combine(s, &histFn{Shift: 0}, bound)
	ties := beam.ParDo(s, &filterFn{Spec: spec}, parts, beam.SideInput{Input: h1}, beam.SideInput{Input: h2})
	beam.ParDo0(s, &tieFn{Spec: spec}, beam.GroupByKey(s, ties), beam.SideInput{Input: h1}, beam.SideInput{Input: h2})
	beam.ParDo0(s, &writeStatFn{Spec: spec}, beam.Combine(s, &statFn{}, stats))
	if err := o.Runner.Execute(ctx, p); err != nil {
		return nil, beamStat{}, err
	}
	b, err := readFile(ctx, join(next, "stats.json"))
	if err != nil {
		return nil, beamStat{}, fmt.Errorf("the pipeline left no statistics: %w", err)
	}
	var st beamStat
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, beamStat{}, err
	}
	files, err := list(ctx, join(next, "kept-*.bin"))
	if err != nil {
		return nil, beamStat{}, err
	}
	var kept []beamsearch.Cand
	for _, f := range files {
		b, err := readFile(ctx, f)
		if err != nil {
			return nil, beamStat{}, err
		}
		if kept, err = decodeCands(kept, b); err != nil {
			return nil, beamStat{}, err
		}
	}
	sortCands(kept)
	if len(kept) > o.BeamWidth {
		return nil, beamStat{}, fmt.Errorf("%d wells kept, more than the beam width %d", len(kept), o.BeamWidth)
	}
	removeGlob(ctx, join(dir, "*"))
	return kept, st, nil
}
