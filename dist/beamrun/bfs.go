package beamrun

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/internal/procstat"
)

func init() {
	beam.RegisterType(reflect.TypeOf(blockDesc{}))
	beam.RegisterType(reflect.TypeOf(statRow{}))
	beam.RegisterType(reflect.TypeOf(levelSum{}))
	beam.RegisterDoFn(reflect.TypeOf((*expandFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*dedupFn)(nil)).Elem())
	beam.RegisterDoFn(reflect.TypeOf((*writeSumFn)(nil)).Elem())
	register.Combiner2[levelSum, statRow](&sumFn{})
}

// BFSOptions configure a complete search on Beam.
type BFSOptions struct {
	// Search holds the search's options: Width, Height, Rule,
	// MaxLevels, LevelDir (level files, as bfs.Search writes them) and
	// LoopWells (negative: no loop detection). Start, StartScore, Workers,
	// SpillDir, Checkpoint and Progress are not used.
	Search bfs.Options
	// Work is the folder (local, or a URL of a Beam filesystem such as
	// gs://bucket/dir) of the levels' partition files and of the state
	// files the search resumes from. Required.
	Work string
	// BlockStates is the states of one expansion block (0: 2^19, 4 MiB);
	// GroupStates the children of one group of partitions, the unit of
	// the shuffle and of the level's files (0: 2^19).
	BlockStates, GroupStates int
	// Runner says where the pipelines run (zero: Prism, in process).
	Runner Runner
	// Progress, if set, receives one line per level.
	Progress io.Writer
}

// bfsSpec is what the DoFns of one level need (they are serialized).
type bfsSpec struct {
	Width, Height, Rule int
	Work                string
	Depth               int
	Parts, Group        int // partitions, partitions per group
	// Checked: level Depth's group files end with their checksum (all
	// but those of a work folder begun before checksums).
	Checked bool
}

func (s bfsSpec) space() (*bfs.Space, error) {
	return bfs.NewSpace(bfs.Options{Width: s.Width, Height: s.Height, Rule: bfs.Rule(s.Rule)})
}

func levelDir(work string, d int) string { return join(work, fmt.Sprintf("L%05d", d)) }

// groupFile is the file of partitions lo..hi-1 of level d: their sorted
// words one partition after another (the counts are in the level's
// summary), then (stateVersion 2) the CRC-32C of those bytes as a
// little-endian uint64, as bfs's level files end.
func groupFile(work string, d, lo, hi int) string {
	return join(levelDir(work, d), fmt.Sprintf("group-%05d-%05d.bin", lo, hi))
}

// crcTable is CRC-32C's (bfs's level files and checkpoints use it too).
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// sealGroup appends the checksum trailer to a group file's words.
func sealGroup(b []byte) []byte {
	return binary.LittleEndian.AppendUint64(b, uint64(crc32.Checksum(b, crcTable)))
}

// readGroup reads the group file of partitions lo..hi-1 (counts[i]
// words for partition parts[i], the non-empty ones in increasing order),
// checking its size and, when checked, its checksum, and calls fn on each
// non-empty partition. A damaged file is an input error naming it.
func readGroup(ctx context.Context, work string, d, lo, hi int, parts []int32, counts []int64, checked bool, scratch []uint64, fn func(p int, words []uint64) error) ([]uint64, error) {
	n := int64(0)
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return scratch, nil
	}
	path := groupFile(work, d, lo, hi)
	b, err := readFile(ctx, path)
	if errors.Is(err, os.ErrNotExist) {
		return scratch, inputErrorf("beamrun: %s (level %d) is missing: the work folder is damaged", path, d)
	}
	if err != nil {
		return scratch, err
	}
	want := 8 * n
	if checked {
		want += 8
	}
	if int64(len(b)) != want {
		return scratch, inputErrorf("beamrun: %s (level %d, partitions %d..%d): %d bytes, want %d: truncated or damaged", path, d, lo, hi-1, len(b), want)
	}
	if checked {
		body := b[:8*n]
		if binary.LittleEndian.Uint64(b[8*n:]) != uint64(crc32.Checksum(body, crcTable)) {
			return scratch, inputErrorf("beamrun: %s (level %d): checksum mismatch (the file is damaged)", path, d)
		}
		b = body
	}
	words, err := bytesWords(scratch[:0], b)
	if err != nil {
		return scratch, err
	}
	off := int64(0)
	for i, c := range counts {
		if err := fn(int(parts[i]), words[off:off+c]); err != nil {
			return words, err
		}
		off += c
	}
	return words, nil
}

// nonzero returns the partitions lo.. of counts (counts[0] is partition
// lo's) that hold states, and their counts: the sparse form that the
// pipeline's elements and the state file carry, so that a well of
// millions of partitions costs what its states do.
func nonzero(counts []int64, lo int) ([]int32, []int64) {
	var parts []int32
	var cs []int64
	for i, c := range counts {
		if c != 0 {
			parts, cs = append(parts, int32(lo+i)), append(cs, c)
		}
	}
	return parts, cs
}

// groupOf returns the entries of (parts, counts), sorted by partition,
// that fall in [lo, hi).
func groupOf(parts []int32, counts []int64, lo, hi int) ([]int32, []int64) {
	i := sort.Search(len(parts), func(i int) bool { return int(parts[i]) >= lo })
	j := sort.Search(len(parts), func(j int) bool { return int(parts[j]) >= hi })
	return parts[i:j], counts[i:j]
}

// blockDesc is one expansion block: whole groups of partitions of the
// level (the groups of Group partitions from Lo to Hi-1), with the counts
// of their non-empty partitions (Parts, increasing).
type blockDesc struct {
	Lo, Hi, Group int
	Parts         []int32
	Counts        []int64
}

// statRow is one DoFn's share of a level's statistics: an expansion
// block's (Kind 0) or a deduplicated partition's (Kind 1).
type statRow struct {
	Kind               int
	Expanded, Children int64
	Best               int
	Part               int
	Count              int64
	H0, H1             uint64
}

// levelSum is a level's combined statistics. Parts and Counts are the
// non-empty partitions of the level written and their states (one entry a
// partition, in no order); Made marks an accumulator CreateAccumulator
// made (Beam may hand over zero values).
type levelSum struct {
	Made               bool
	Group              int // partitions per group file of the level written
	Expanded, Children int64
	Best               int
	Parts              []int32
	Counts             []int64
	H0, H1             uint64
}

// expandFn expands a block of states into groups of partitions of
// children.
type expandFn struct {
	Spec bfsSpec
	sp   *bfs.Space
	ex   *bfs.Expander
}

func (f *expandFn) Setup() error {
	var err error
	if f.sp, err = f.Spec.space(); err != nil {
		return err
	}
	f.ex = f.sp.NewExpander()
	return nil
}

func (f *expandFn) ProcessElement(ctx context.Context, d blockDesc, emit func(int, []byte), stats func(statRow)) error {
	row := statRow{Kind: 0, Best: -1}
	var scratch []uint64
	for lo := d.Lo; lo < d.Hi; lo += d.Group {
		hi := min(lo+d.Group, d.Hi)
		var err error
		gp, gc := groupOf(d.Parts, d.Counts, lo, hi)
		scratch, err = readGroup(ctx, f.Spec.Work, f.Spec.Depth, lo, hi, gp, gc, f.Spec.Checked, scratch, func(p int, words []uint64) error {
			c, best := f.ex.Expand(f.Spec.Depth, uint32(p), words)
			row.Expanded += int64(len(words))
			row.Children += c
			row.Best = max(row.Best, best)
			return nil
		})
		if err != nil {
			return err
		}
	}
	// One element per group of partitions with children: the number k
	// of its partitions with children, k (partition, count) pairs, then
	// their words.
	G := f.Spec.Group
	g, ps, ws := -1, []int(nil), [][]uint64(nil)
	flush := func() {
		if len(ps) == 0 {
			return
		}
		n := 0
		for _, w := range ws {
			n += len(w)
		}
		buf := make([]byte, 0, 8*(1+2*len(ps)+n))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(ps)))
		for i, p := range ps {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(p))
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(ws[i])))
		}
		for _, w := range ws {
			buf = append(buf, wordsBytes(w)...)
		}
		emit(g, buf)
		ps, ws = ps[:0], ws[:0]
	}
	f.ex.EachChildren(func(p int, words []uint64) {
		if p/G != g {
			flush()
			g = p / G
		}
		ps, ws = append(ps, p), append(ws, words)
	})
	flush()
	f.ex.Reset()
	stats(row)
	return nil
}

// dedupFn deduplicates the partitions of a group and writes them.
type dedupFn struct {
	Spec bfsSpec
	sp   *bfs.Space
}

func (f *dedupFn) Setup() error {
	var err error
	f.sp, err = f.Spec.space()
	return err
}

func (f *dedupFn) ProcessElement(ctx context.Context, g int, values func(*[]byte) bool, emit func(statRow)) error {
	G := f.Spec.Group
	lo := g * G
	hi := min(lo+G, f.Spec.Parts)
	blocks := map[int][][]uint64{} // the partitions with children
	var b []byte
	for values(&b) {
		bad := fmt.Errorf("group %d: a damaged block of %d bytes", g, len(b))
		if len(b) < 8 {
			return bad
		}
		k := binary.LittleEndian.Uint64(b)
		if k > uint64(hi-lo) || uint64(len(b)) < 8+16*k {
			return bad
		}
		off := 8 + 16*int(k)
		for i := 0; i < int(k); i++ {
			p := binary.LittleEndian.Uint64(b[8+16*i:])
			n := binary.LittleEndian.Uint64(b[16+16*i:])
			if p < uint64(lo) || p >= uint64(hi) || n > uint64(len(b)-off)/8 {
				return bad
			}
			ws, err := bytesWords(make([]uint64, 0, n), b[off:off+8*int(n)])
			if err != nil {
				return err
			}
			blocks[int(p)] = append(blocks[int(p)], ws)
			off += 8 * int(n)
		}
	}
	var all []byte
	for _, p := range slices.Sorted(maps.Keys(blocks)) {
		words := f.sp.DedupPartition(blocks[p])
		delete(blocks, p)
		all = append(all, wordsBytes(words)...)
		h := bfs.PartHash(p, words)
		emit(statRow{Kind: 1, Part: p, Count: int64(len(words)), H0: h[0], H1: h[1]})
	}
	if len(all) > 0 {
		return writeFile(ctx, groupFile(f.Spec.Work, f.Spec.Depth+1, lo, hi), sealGroup(all))
	}
	return nil
}

// sumFn combines the statistics of a level.
type sumFn struct{ Parts int }

func (f *sumFn) CreateAccumulator() levelSum {
	return levelSum{Made: true, Best: -1}
}

func (f *sumFn) AddInput(a levelSum, r statRow) levelSum {
	if !a.Made {
		a = f.CreateAccumulator()
	}
	a.Expanded += r.Expanded
	a.Children += r.Children
	if r.Kind == 0 {
		a.Best = max(a.Best, r.Best)
	} else if r.Count > 0 {
		a.Parts, a.Counts = append(a.Parts, int32(r.Part)), append(a.Counts, r.Count)
		a.H0 += r.H0
		a.H1 += r.H1
	}
	return a
}

func (f *sumFn) MergeAccumulators(a, b levelSum) levelSum {
	if !a.Made {
		a = f.CreateAccumulator()
	}
	if !b.Made {
		return a
	}
	a.Expanded += b.Expanded
	a.Children += b.Children
	a.Best = max(a.Best, b.Best)
	a.Parts, a.Counts = append(a.Parts, b.Parts...), append(a.Counts, b.Counts...)
	a.H0 += b.H0
	a.H1 += b.H1
	return a
}

// writeSumFn writes a level's statistics (the mark of a complete
// pipeline).
type writeSumFn struct{ Spec bfsSpec }

func (f *writeSumFn) ProcessElement(ctx context.Context, s levelSum) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeFile(ctx, join(levelDir(f.Spec.Work, f.Spec.Depth+1), "summary.json"), b)
}

// bfsState is what the driver saves after every level (state-NNNNN.json
// in the work folder).
type bfsState struct {
	// Version is stateVersion (0: a state written before checksums: its
	// level's group files have none, and the state no Checksum).
	Version int `json:",omitempty"`
	// Checksum is the CRC-32C of the state written with an empty
	// Checksum (as bfs seals its checkpoints).
	Checksum string `json:",omitempty"`
	Key      string
	Depth    int // the next level to expand
	Children int64
	// Counts are level Depth's states per partition; the file keeps the
	// non-empty ones only (NParts partitions, Sparse: (partition, count)
	// pairs), while states written before that hold Counts itself.
	Counts []int64    `json:",omitempty"`
	NParts int        `json:",omitempty"`
	Sparse [][2]int64 `json:",omitempty"`
	Group  int        // the partitions per group file of level Depth
	Hash   [2]uint64
	Sets   [][3]uint64 // set hash and level of every level so far
	Result bfs.Result
	// Seconds, CPU and RSS are the wall and CPU seconds of the sittings up
	// to this level, and the largest peak RSS among them (bytes).
	Seconds float64
	CPU     float64
	RSS     int64
}

// stateVersion 2: group files and states carry checksums.
const stateVersion = 2

func stateFile(work string, d int) string { return join(work, fmt.Sprintf("state-%05d.json", d)) }

func bfsKey(o bfs.Options) string {
	return fmt.Sprintf("bfs %dx%d %s max-levels=%d loops=%v", o.Width, o.Height, o.Rule, o.MaxLevels, o.LoopWells >= 0)
}

// loadState returns the last complete level's state in work (nil: none):
// the newest state file, checked. States are written atomically (a local
// folder) or as one object (a bucket): one that does not parse, or whose
// checksum does not match, is damaged, and refused.
func loadState(ctx context.Context, work, key string, parts int) (*bfsState, error) {
	names, err := list(ctx, join(work, "state-*.json"))
	if err != nil || len(names) == 0 {
		return nil, nil // no such folder yet
	}
	name := slices.Max(names)
	b, err := readFile(ctx, name)
	if err != nil {
		return nil, err
	}
	var st bfsState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, inputErrorf("beamrun: %s: not a state file (damaged): %v", name, err)
	}
	if st.Version > stateVersion {
		return nil, inputErrorf("beamrun: %s: state version %d, newer than this program's %d", name, st.Version, stateVersion)
	}
	if st.Version < 2 && (st.Counts == nil || st.Checksum != "") {
		// Sparse counts came with checksums: a state in that form without
		// its version was edited (so that its checksum went unchecked).
		return nil, inputErrorf("beamrun: %s: state version %d in the form of version %d (edited): start a new --work folder", name, st.Version, stateVersion)
	}
	if st.Version >= 2 {
		sum := st.Checksum
		if got, err := stateChecksum(&st); err != nil || got != sum {
			return nil, inputErrorf("beamrun: %s: checksum mismatch (the file is damaged or edited)", name)
		}
	}
	if st.Key != key {
		return nil, inputErrorf("beamrun: %s holds the states of another search (%s), not %s", work, st.Key, key)
	}
	if st.Counts == nil {
		if st.NParts != parts {
			return nil, inputErrorf("beamrun: %s: %d partitions, want %d (damaged)", name, st.NParts, parts)
		}
		st.Counts = make([]int64, parts)
		for _, pc := range st.Sparse {
			if pc[0] < 0 || pc[0] >= int64(parts) || pc[1] <= 0 {
				return nil, inputErrorf("beamrun: %s: partition %d with %d states (damaged)", name, pc[0], pc[1])
			}
			st.Counts[pc[0]] += pc[1]
		}
		st.Sparse = nil
	} else if len(st.Counts) != parts {
		return nil, inputErrorf("beamrun: %s: %d partitions, want %d (damaged)", name, len(st.Counts), parts)
	}
	return &st, nil
}

// BFS runs the complete search of o.Search on Beam, one pipeline per
// level, resuming from the last complete level found in o.Work. Its levels
// and level files are those of bfs.Search, byte for byte, for searches
// that end (for a well that loops, Beam proves the loop only when a level
// repeats, not from the graph of wells: the numbers then differ). The
// stages: check the options and make the folders (bfsSetup), load or
// start the state (startState), run one level after another (bfsLevel),
// and finish (the level files' meta.json, the times).
func BFS(ctx context.Context, o BFSOptions) (*bfs.Result, error) {
	sp, err := bfsSetup(o)
	if err != nil {
		return nil, err
	}
	if o.BlockStates <= 0 {
		o.BlockStates = 1 << 19
	}
	t0, cpu0 := time.Now(), procstat.CPUSeconds()
	st, err := startState(ctx, o, sp)
	if err != nil {
		return nil, err
	}
	// What the sittings before this one spent (st is updated as levels end).
	prevSeconds, prevCPU, prevRSS := st.Seconds, st.CPU, st.RSS
	stamp := func() {
		st.Seconds = prevSeconds + time.Since(t0).Seconds()
		st.CPU = prevCPU + procstat.CPUSeconds() - cpu0
		st.RSS = max(prevRSS, procstat.PeakRSS())
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stop, err := bfsLevel(ctx, o, sp, st, stamp)
		if err != nil || stop {
			if err != nil {
				return nil, err
			}
			break
		}
	}
	res := &st.Result
	if o.Search.LevelDir != "" {
		if err := bfs.WriteLevelMeta(o.Search.LevelDir, o.Search, res); err != nil {
			return nil, err
		}
	}
	stamp()
	res.Seconds, res.CPUSeconds, res.PeakRSS = st.Seconds, st.CPU, st.RSS
	return res, nil
}

// bfsSetup checks o (bad input, before any work) and makes the work and
// level-files folders; it returns the search's space.
func bfsSetup(o BFSOptions) (*bfs.Space, error) {
	opt := o.Search
	if opt.Start != nil || opt.StartScore != 0 {
		return nil, inputErrorf("beamrun: a start well is not supported by the Beam engine")
	}
	sp, err := bfs.NewSpace(bfs.Options{Width: opt.Width, Height: opt.Height, Rule: opt.Rule, MaxLevels: opt.MaxLevels})
	if err != nil {
		return nil, inputError{err}
	}
	if o.Work == "" {
		return nil, inputErrorf("beamrun: the Beam engine needs a work folder (--work DIR)")
	}
	if o.BlockStates < 0 || o.GroupStates < 0 {
		return nil, inputErrorf("beamrun: block states %d, group states %d: want 0 (the default) or more", o.BlockStates, o.GroupStates)
	}
	if !strings.Contains(o.Work, "://") {
		if err := os.MkdirAll(o.Work, 0o755); err != nil {
			return nil, inputErrorf("beamrun: --work %s: %v", o.Work, err)
		}
	}
	if opt.LevelDir != "" {
		if err := os.MkdirAll(opt.LevelDir, 0o755); err != nil {
			return nil, inputErrorf("beamrun: --levels-dir %s: %v", opt.LevelDir, err)
		}
	}
	return sp, nil
}

// startState loads the state of the last complete level in o.Work,
// checking its level's group files, or writes level 0 and its state.
func startState(ctx context.Context, o BFSOptions, sp *bfs.Space) (*bfsState, error) {
	opt := o.Search
	key := bfsKey(opt)
	st, err := loadState(ctx, o.Work, key, sp.Parts())
	if err != nil {
		return nil, err
	}
	if st != nil {
		return st, verifyLevel(ctx, o.Work, st)
	}
	P := sp.Parts()
	st = &bfsState{Version: stateVersion, Key: key, Counts: make([]int64, P), Group: P,
		Result: bfs.Result{Width: opt.Width, Height: opt.Height, Rule: opt.Rule, LevelDir: opt.LevelDir}}
	p0, w0 := sp.Start()
	if err := writeFile(ctx, groupFile(o.Work, 0, 0, P), sealGroup(wordsBytes([]uint64{w0}))); err != nil {
		return nil, err
	}
	st.Counts[p0] = 1
	st.Hash = bfs.PartHash(int(p0), []uint64{w0})
	return st, saveState(ctx, o.Work, st)
}

// bfsLevel expands level st.Depth: its level file (o.Search.LevelDir),
// its pipeline, its row of the result and the loop check, then the state
// of the next level, saved (stamp first sets the sittings' times). stop
// is set when the search ends here (an empty level, the level limit, the
// levels repeat).
func bfsLevel(ctx context.Context, o BFSOptions, sp *bfs.Space, st *bfsState, stamp func()) (stop bool, err error) {
	opt, res, d := o.Search, &st.Result, st.Depth
	n := int64(0)
	for _, c := range st.Counts {
		n += c
	}
	if n == 0 {
		return true, nil
	}
	if opt.LevelDir != "" {
		if err := assembleLevel(ctx, o.Work, d, st.Counts, st.Group, st.Version >= 2, opt.LevelDir); err != nil {
			return false, err
		}
	}
	if opt.MaxLevels > 0 && d >= opt.MaxLevels {
		res.Levels = append(res.Levels, bfs.Level{Level: d, States: n, Children: st.Children, BestScore: -1})
		res.Truncated = true
		return true, nil
	}
	lt := time.Now()
	sum, err := runLevel(ctx, o, sp, d, st, n, o.BlockStates)
	if err != nil {
		return false, fmt.Errorf("beamrun: level %d: %w", d, err)
	}
	if sum.Expanded != n {
		return false, fmt.Errorf("beamrun: level %d: %d states expanded, want %d", d, sum.Expanded, n)
	}
	record(res, d, n, st.Children, sum)
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "level %d: %d states, best %d, %d children, %.2fs\n", d, n, sum.Best, sum.Children, time.Since(lt).Seconds())
	}
	if opt.LoopWells >= 0 {
		if repeats(res, st, d) {
			return true, nil
		}
		st.Sets = append(st.Sets, [3]uint64{st.Hash[0], st.Hash[1], uint64(d)})
	}
	st.Depth, st.Children, st.Counts, st.Group = d+1, sum.Children, sum.Counts, sum.Group
	st.Hash = [2]uint64{sum.H0, sum.H1}
	st.Version = stateVersion // the pipeline wrote level d+1 with checksums
	stamp()
	if err := saveState(ctx, o.Work, st); err != nil {
		return false, err
	}
	removeGlob(ctx, join(levelDir(o.Work, d), "*"))
	if !strings.Contains(o.Work, "://") {
		os.Remove(filepath.FromSlash(levelDir(o.Work, d)))
	}
	return false, nil
}

// record adds level d (n states, made of children children) to res, as
// bfs.Search records it: its row, the totals, the best score, the length
// and the peak.
func record(res *bfs.Result, d int, n, children int64, sum *levelSum) {
	res.Levels = append(res.Levels, bfs.Level{Level: d, States: n, Children: children, BestScore: sum.Best})
	res.Expanded += n
	if sum.Best > res.Score || d == 0 {
		res.Score = sum.Best
	}
	res.Length = d
	if n > res.PeakStates {
		res.PeakStates, res.PeakLevel = n, d
	}
	res.Children += sum.Children
}

// repeats reports whether level d (its set hash in st) equals an earlier
// level: the levels then cycle forever, and res says so.
func repeats(res *bfs.Result, st *bfsState, d int) bool {
	stop := false
	for _, s := range st.Sets {
		if s[0] == st.Hash[0] && s[1] == st.Hash[1] {
			res.Unbounded, res.LoopDepth = true, d
			res.PeriodStart, res.Period = int(s[2]), d-int(s[2])
			stop = true
		}
	}
	return stop
}

// stateChecksum is st's checksum: the CRC-32C of its JSON with an empty
// Checksum (st.Checksum is left empty).
func stateChecksum(st *bfsState) (string, error) {
	st.Checksum = ""
	b, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08x", crc32.Checksum(b, crcTable)), nil
}

func saveState(ctx context.Context, work string, st *bfsState) error {
	cp := *st // the file's form: sparse counts
	cp.Counts, cp.NParts, cp.Sparse = nil, len(st.Counts), nil
	for p, c := range st.Counts {
		if c != 0 {
			cp.Sparse = append(cp.Sparse, [2]int64{int64(p), c})
		}
	}
	sum, err := stateChecksum(&cp)
	if err != nil {
		return err
	}
	cp.Checksum = sum
	b, err := json.Marshal(&cp)
	if err != nil {
		return err
	}
	return writeFile(ctx, stateFile(work, st.Depth), b)
}

// verifyLevel reads every group file of the level a resumed search starts
// from, checking sizes and checksums: a damaged folder is refused (an
// input error) before any pipeline runs, rather than failing inside one.
func verifyLevel(ctx context.Context, work string, st *bfsState) error {
	P := len(st.Counts)
	g := max(st.Group, 1)
	var scratch []uint64
	for lo := 0; lo < P; lo += g {
		hi := min(lo+g, P)
		var err error
		gp, gc := nonzero(st.Counts[lo:hi], lo)
		if scratch, err = readGroup(ctx, work, st.Depth, lo, hi, gp, gc, st.Version >= 2, scratch, func(int, []uint64) error { return nil }); err != nil {
			return err
		}
	}
	return nil
}

// runLevel runs the pipeline of level d: expand, group, deduplicate and
// write level d+1, combine the statistics.
func runLevel(ctx context.Context, o BFSOptions, sp *bfs.Space, d int, st *bfsState, n int64, block int) (*levelSum, error) {
	P := sp.Parts()
	var descs []blockDesc
	cg := max(st.Group, 1)
	lo, acc := 0, int64(0)
	for g := 0; g < P; g += cg {
		hi := min(g+cg, P)
		for _, c := range st.Counts[g:hi] {
			acc += c
		}
		if acc >= int64(block) || hi == P {
			if acc > 0 {
				bp, bc := nonzero(st.Counts[lo:hi], lo)
				descs = append(descs, blockDesc{Lo: lo, Hi: hi, Group: cg, Parts: bp, Counts: bc})
			}
			lo, acc = hi, 0
		}
	}
	// Groups of partitions of a few MB of children each.
	ratio := 3.0
	if d > 0 && len(st.Result.Levels) > 0 {
		if prev := st.Result.Levels[d-1].States; prev > 0 {
			ratio = max(1, float64(st.Children)/float64(prev))
		}
	}
	gs := o.GroupStates
	if gs <= 0 {
		gs = 1 << 19
	}
	groups := int(float64(n)*ratio/float64(gs)) + 1
	G := max(1, P/min(groups, P))
	spec := bfsSpec{Width: o.Search.Width, Height: o.Search.Height, Rule: int(o.Search.Rule), Work: o.Work, Depth: d, Parts: P, Group: G,
		Checked: st.Version >= 2}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("level%d", d))
	in := beam.CreateList(s, descs)
	children, stats1 := beam.ParDo2(s, &expandFn{Spec: spec}, in)
	grouped := beam.GroupByKey(s, children)
	stats2 := beam.ParDo(s, &dedupFn{Spec: spec}, grouped)
	all := beam.Flatten(s, stats1, stats2)
	sum := beam.Combine(s, &sumFn{Parts: P}, all)
	beam.ParDo0(s, &writeSumFn{Spec: spec}, sum)
	if err := o.Runner.Execute(ctx, p); err != nil {
		return nil, err
	}
	b, err := readFile(ctx, join(levelDir(o.Work, d+1), "summary.json"))
	if err != nil {
		return nil, fmt.Errorf("the pipeline left no summary: %w", err)
	}
	var ls levelSum
	if err := json.Unmarshal(b, &ls); err != nil {
		return nil, err
	}
	ls.Group = G
	if len(ls.Parts) != len(ls.Counts) {
		return nil, fmt.Errorf("summary of level %d: %d partitions, %d counts", d+1, len(ls.Parts), len(ls.Counts))
	}
	// The level's counts, dense for the driver.
	dense := make([]int64, P)
	for i, p := range ls.Parts {
		if p < 0 || int(p) >= P {
			return nil, fmt.Errorf("summary of level %d: partition %d of %d", d+1, p, P)
		}
		dense[p] += ls.Counts[i]
	}
	ls.Parts, ls.Counts = nil, dense
	return &ls, nil
}

// assembleLevel writes level d's file (bfs's level-file format) into dir
// from its group files (group partitions each).
func assembleLevel(ctx context.Context, work string, d int, counts []int64, group int, checked bool, dir string) error {
	path := filepath.Join(dir, bfs.LevelFileName(d))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	group = max(group, 1)
	var cur [][]uint64 // the current group's partitions
	curLo := -1
	_, err = bfs.WriteLevelFile(bw, counts, func(p int) ([]uint64, error) {
		lo := p / group * group
		if lo != curLo {
			hi := min(lo+group, len(counts))
			cur = make([][]uint64, hi-lo)
			gp, gc := nonzero(counts[lo:hi], lo)
			_, err := readGroup(ctx, work, d, lo, hi, gp, gc, checked, nil, func(q int, words []uint64) error {
				cur[q-lo] = words
				return nil
			})
			if err != nil {
				return nil, err
			}
			curLo = lo
		}
		return cur[p-lo], nil
	})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
