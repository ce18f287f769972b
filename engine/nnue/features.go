package nnue

import (
	"fmt"
	"strings"
)

// Variant is how window and row patterns map to feature indices.
type Variant uint8

const (
	// Shared is knewjade's layout (N-KJ): one feature per row pattern and
	// one per 4x3 window pattern, whatever the position, so a pattern met
	// at several positions counts several times (its weight row is summed
	// once per occurrence). Rows are features 0..2^Width-1 (the pattern),
	// windows 2^Width + the 12-bit window pattern.
	Shared Variant = iota
	// Positional is D&F's layout (N-DF, the peer's exact indices at
	// 10x16): a feature per (position, pattern). Row r is feature
	// r*2^Width + pattern; the window at column shift c (0: the rightmost
	// three columns) and top row r is Height*2^Width +
	// 4096*((Height-3)*c + r) + pattern.
	Positional
)

// String returns "shared" or "positional".
func (v Variant) String() string {
	switch v {
	case Shared:
		return "shared"
	case Positional:
		return "positional"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// ParseVariant reads "shared" (also "kj") or "positional" (also "df").
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "shared", "kj":
		return Shared, nil
	case "positional", "df":
		return Positional, nil
	}
	return 0, fmt.Errorf("unknown feature variant %q (want shared or positional)", s)
}

// Geometry limits of a feature set.
const (
	MinWidth  = 4
	MaxWidth  = 16
	MinHeight = 1
	MaxHeight = 28
	// windowPatterns is the number of 4x3 window patterns.
	windowPatterns = 1 << 12
	// fieldsPerWord is the number of window fields (12 bits used of 16) in
	// a spread word.
	fieldsPerWord = 4
)

// FeatureSet is the feature set of one well geometry: Width columns and
// Height rows below the bar (the rows above the bar are empty in a live
// well and carry no feature). A well has exactly Active features: one per
// row (its Width-bit pattern, empty rows included) and one per 4x3 window
// (4 rows x 3 columns, top row in the high bits, leftmost column the high
// bit of each 3-bit group; empty windows included). Slots number them:
// rows 0..Height-1 top first, then window (c, r) at Height + (Height-3)*c + r.
// A FeatureSet is immutable and safe for concurrent use.
type FeatureSet struct {
	variant       Variant
	width, height int
	active        int
	count         int
	wslots        int      // window rows (Height-3, or 0)
	wcols         int      // window columns (Width-2, or 0 without windows)
	base          []int32  // per slot, the index of pattern 0
	spread        []uint64 // per row value, its 3-bit column slices, 16 bits apart
	words         int      // spread words per row value
}

// NewFeatureSet builds the feature set of a geometry (width 4..16, height
// 1..28 rows below the bar; wells under 4 rows have row features only).
func NewFeatureSet(v Variant, width, height int) (*FeatureSet, error) {
	if v != Shared && v != Positional {
		return nil, fmt.Errorf("unknown feature variant %d", v)
	}
	if width < MinWidth || width > MaxWidth {
		return nil, fmt.Errorf("feature width %d out of range %d..%d", width, MinWidth, MaxWidth)
	}
	if height < MinHeight || height > MaxHeight {
		return nil, fmt.Errorf("feature height %d out of range %d..%d", height, MinHeight, MaxHeight)
	}
	fs := &FeatureSet{variant: v, width: width, height: height}
	if height >= 4 {
		fs.wslots, fs.wcols = height-3, width-2
	}
	fs.active = height + fs.wslots*fs.wcols
	rows := 1 << width
	fs.base = make([]int32, fs.active)
	switch v {
	case Shared:
		fs.count = rows
		if fs.wslots > 0 {
			fs.count += windowPatterns
		}
		for s := height; s < fs.active; s++ {
			fs.base[s] = int32(rows)
		}
	case Positional:
		fs.count = height*rows + fs.wslots*fs.wcols*windowPatterns
		for r := 0; r < height; r++ {
			fs.base[r] = int32(r * rows)
		}
		for s := height; s < fs.active; s++ {
			fs.base[s] = int32(height*rows + (s-height)*windowPatterns)
		}
	}
	if fs.wcols > 0 {
		fs.words = (fs.wcols + fieldsPerWord - 1) / fieldsPerWord
		fs.spread = make([]uint64, rows*fs.words)
		for v := 0; v < rows; v++ {
			for c := 0; c < fs.wcols; c++ {
				fs.spread[v*fs.words+c/fieldsPerWord] |= uint64(v>>c&7) << (16 * (c % fieldsPerWord))
			}
		}
	}
	return fs, nil
}

// Variant returns the index layout.
func (fs *FeatureSet) Variant() Variant { return fs.variant }

// Width is the well width the set is for.
func (fs *FeatureSet) Width() int { return fs.width }

// Height is the number of rows below the bar the set is for.
func (fs *FeatureSet) Height() int { return fs.height }

// Active is K, the number of active features of every well:
// Height + (Height-3)(Width-2) (Height alone under 4 rows).
func (fs *FeatureSet) Active() int { return fs.active }

// Count is F, the number of features (weight rows of the first layer).
func (fs *FeatureSet) Count() int { return fs.count }

// String describes the set, e.g. "shared 10x16 (F=5120, K=120)".
func (fs *FeatureSet) String() string {
	return fmt.Sprintf("%s %dx%d (F=%d, K=%d)", fs.variant, fs.width, fs.height, fs.count, fs.active)
}

// Append appends the active feature indices of a well, slot by slot, to
// dst and returns it. rows are the Height rows below the bar, top first,
// MSB-left (w[bar:depth] of a hatetris.Well); a value wider than Width is
// masked. With a dst of capacity Active it allocates nothing.
func (fs *FeatureSet) Append(dst []int32, rows []uint16) []int32 {
	h := fs.height
	rows = rows[:h]
	n := len(dst)
	if cap(dst)-n < fs.active {
		dst = append(dst, make([]int32, fs.active)...)
	}
	dst = dst[:n+fs.active]
	out := dst[n:]
	mask := uint16(1<<fs.width - 1)
	base := fs.base[:fs.active]
	for r, v := range rows {
		out[r] = base[r] + int32(v&mask)
	}
	if fs.wslots > 0 {
		fs.windows(out, base, rows, 0, fs.wslots)
	}
	return dst
}

// windows8 is windows for eight window columns (width 10): each row's two
// spread words are loaded once and slid through the four rows of a window,
// and a slot's index is the slot's base plus a fixed step per column (0
// for shared features, one window table for positional ones).
//
// On amd64 with AVX2, where there are at least eight window rows, the
// assembly kernel (rows_amd64.s) computes eight top rows at a time, all
// columns, storing each column's eight slots at once; a last group that
// would pass the last top row starts earlier, so slots just outside
// [r0, r1) may be rewritten, with their values for the same rows.
func (fs *FeatureSet) windows8(out, base []int32, rows []uint16, r0, r1 int) {
	ws, h := fs.wslots, fs.height
	if hasAVX2 && ws >= 8 && r0 < r1 {
		var step int32
		if fs.variant == Positional {
			step = int32(ws * windowPatterns)
		}
		rows = rows[:h]
		out, base = out[:fs.active], base[:fs.active]
		for t := r0; t < r1; t += 8 {
			t0 := min(t, ws-8)
			windows8x8AVX2(&out[h+t0], &base[h+t0], &rows[t0], ws, step)
		}
		return
	}
	fs.windows8Go(out, base, rows, r0, r1)
}

// windows8Go is windows8 in Go.
func (fs *FeatureSet) windows8Go(out, base []int32, rows []uint16, r0, r1 int) {
	mask := uint16(1<<fs.width - 1)
	sp := fs.spread
	ws, h := fs.wslots, fs.height
	var step int32
	if fs.variant == Positional {
		step = int32(ws * windowPatterns)
	}
	rows = rows[:r1+3]
	load := func(r int) (uint64, uint64) {
		i := int(rows[r]&mask) * 2
		w := sp[i : i+2]
		return w[0], w[1]
	}
	a0, a1 := load(r0)
	b0, b1 := load(r0 + 1)
	c0, c1 := load(r0 + 2)
	for r := r0; r < r1; r++ {
		d0, d1 := load(r + 3)
		p := a0<<9 | b0<<6 | c0<<3 | d0
		q := a1<<9 | b1<<6 | c1<<3 | d1
		a0, b0, c0, a1, b1, c1 = b0, c0, d0, b1, c1, d1
		s := h + r
		b := base[s]
		o := out[s : s+7*ws+1]
		o[0] = b + int32(p&0xfff)
		o[ws] = b + step + int32(p>>16&0xfff)
		o[2*ws] = b + 2*step + int32(p>>32&0xfff)
		o[3*ws] = b + 3*step + int32(p>>48&0xfff)
		o[4*ws] = b + 4*step + int32(q&0xfff)
		o[5*ws] = b + 5*step + int32(q>>16&0xfff)
		o[6*ws] = b + 6*step + int32(q>>32&0xfff)
		o[7*ws] = b + 7*step + int32(q>>48&0xfff)
	}
}

// windows writes the window slots whose top row is in [r0, r1) into out
// (a full slot array; windows8's kernel may also rewrite a few slots of
// other top rows, with their values for rows). For each top row the spread words of its four rows
// are combined (shifts by 9, 6, 3, 0), giving four window patterns per
// word, 16 bits apart.
func (fs *FeatureSet) windows(out, base []int32, rows []uint16, r0, r1 int) {
	mask := uint16(1<<fs.width - 1)
	nw, wc, ws, h := fs.words, fs.wcols, fs.wslots, fs.height
	sp := fs.spread
	out = out[:fs.active]
	base = base[:fs.active]
	if nw == 2 && wc == 2*fieldsPerWord && r0 < r1 {
		fs.windows8(out, base, rows, r0, r1)
		return
	}
	for r := r0; r < r1; r++ {
		a := sp[int(rows[r]&mask)*nw:][:nw]
		b := sp[int(rows[r+1]&mask)*nw:][:nw]
		c := sp[int(rows[r+2]&mask)*nw:][:nw]
		d := sp[int(rows[r+3]&mask)*nw:][:nw]
		for k := range a {
			p := a[k]<<9 | b[k]<<6 | c[k]<<3 | d[k]
			col := k * fieldsPerWord
			s := h + ws*col + r
			if col+fieldsPerWord <= wc && s+3*ws < len(out) {
				out[s] = base[s] + int32(p&0xfff)
				out[s+ws] = base[s+ws] + int32(p>>16&0xfff)
				out[s+2*ws] = base[s+2*ws] + int32(p>>32&0xfff)
				out[s+3*ws] = base[s+3*ws] + int32(p>>48&0xfff)
				continue
			}
			for ; col < wc; col++ {
				out[s] = base[s] + int32(p&0xfff)
				p >>= 16
				s += ws
			}
		}
	}
}
