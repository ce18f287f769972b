package nnue

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// deltaGeometry is one feature geometry and hidden size of the delta
// differential tests. The AVX2 delta kernel runs at width 10, height 11
// or more and 29..32 or 61..64 hidden units (8 or 16 words); the other
// rows check that the Go path is what runs elsewhere.
type deltaGeometry struct {
	v             Variant
	width, height int
	hidden        int
}

func (g deltaGeometry) String() string {
	return fmt.Sprintf("%s %dx%d H%d", g.v, g.width, g.height, g.hidden)
}

var deltaGeometries = []deltaGeometry{
	{Shared, 10, 11, 29}, {Shared, 10, 11, 32}, {Shared, 10, 11, 64},
	{Shared, 10, 12, 32}, {Shared, 10, 12, 62},
	{Shared, 10, 16, 16}, {Shared, 10, 16, 30}, {Shared, 10, 16, 32}, {Shared, 10, 16, 48}, {Shared, 10, 16, 64},
	{Shared, 10, 19, 64}, {Shared, 10, 28, 32}, {Shared, 10, 28, 63},
	{Positional, 10, 11, 32}, {Positional, 10, 11, 64}, {Positional, 10, 12, 61}, {Positional, 10, 20, 31},
	{Shared, 8, 16, 32}, {Shared, 9, 14, 64}, {Positional, 6, 12, 32}, {Shared, 10, 7, 32},
}

// randomRow is a row of the given width: empty, full, random, or (with
// wide) random with bits past the width set too.
func randomRow(rng *rand.Rand, width int, kind int, wide bool) uint16 {
	full := uint16(1<<width - 1)
	switch kind {
	case 0:
		return 0
	case 1:
		return full
	}
	if wide {
		return uint16(rng.Uint32())
	}
	return uint16(rng.IntN(int(full) + 1))
}

// randomBand picks a band of changed rows lo..hi of h rows: anywhere, at
// the top, at the bottom, the top row alone, the bottom row alone, or
// starting more than eight rows from the top.
func randomBand(rng *rand.Rand, h int) (lo, hi int) {
	switch rng.IntN(6) {
	case 0:
		lo = 0
		hi = rng.IntN(h)
	case 1:
		lo = rng.IntN(h)
		hi = h - 1
	case 2:
		return 0, 0
	case 3:
		return h - 1, h - 1
	case 4:
		if h > 9 {
			lo = 9 + rng.IntN(h-9)
			hi = lo + rng.IntN(h-lo)
			return lo, hi
		}
		fallthrough
	default:
		lo = rng.IntN(h)
		hi = lo + rng.IntN(h-lo)
	}
	return lo, hi
}

// checkDelta compares, for a parent well prows and a child rows, the
// update (Update: write) and child output (ChildOutput: no write) of the
// build's kernels with the Go loops' and with a refresh in either mode:
// words, features and outputs must be the same integers, and the parent
// must be left as it was. It reports whether any hidden sum changed.
func checkDelta(t *testing.T, q *Quantized, name string, prows, rows []uint16) bool {
	t.Helper()
	parent, dst, scratch, full := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
	q.Refresh(parent, prows)
	pw, pf := slices.Clone(parent.words), slices.Clone(parent.feats)
	if !q.Update(dst, parent, rows) {
		t.Fatalf("%s: refreshed with the fallback lifted", name)
	}
	out := q.ChildOutput(scratch, parent, rows)
	if !slices.Equal(parent.words, pw) || !slices.Equal(parent.feats, pf) {
		t.Fatalf("%s: the parent changed\nparent %x\nchild  %x", name, prows, rows)
	}
	q.Refresh(full, rows)
	goParent, goDst, goScratch, goFull := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
	var goOut int64
	withGoKernels(func() {
		q.Refresh(goParent, prows)
		if !q.Update(goDst, goParent, rows) {
			t.Fatalf("%s: Go: refreshed with the fallback lifted", name)
		}
		goOut = q.ChildOutput(goScratch, goParent, rows)
		q.Refresh(goFull, rows)
	})
	switch {
	case !slices.Equal(goParent.words, pw) || !slices.Equal(goParent.feats, pf):
		t.Fatalf("%s: parent refresh: kernels != Go loops\nparent %x", name, prows)
	case !slices.Equal(full.words, goFull.words) || !slices.Equal(full.feats, goFull.feats):
		t.Fatalf("%s: child refresh: kernels != Go loops\nchild %x", name, rows)
	case !slices.Equal(goDst.words, goFull.words) || !slices.Equal(goDst.feats, goFull.feats):
		t.Fatalf("%s: Go update != refresh\nparent %x\nchild  %x", name, prows, rows)
	case !slices.Equal(dst.words, goFull.words) || !slices.Equal(dst.feats, goFull.feats):
		t.Fatalf("%s: update != refresh (Go update agrees: %v)\nparent %x\nchild  %x", name, slices.Equal(goDst.words, dst.words), prows, rows)
	case out != goOut || out != q.Output(goFull):
		t.Fatalf("%s: child output %d, Go %d, refresh %d\nparent %x\nchild  %x", name, out, goOut, q.Output(goFull), prows, rows)
	}
	return !slices.Equal(pw, goFull.words)
}

// TestDeltaKernelsMatchGo: the delta of the build's kernels (the AVX2
// window kernel where the machine has it) and of the Go loops give the
// refresh's words, features and output, seeded, on every geometry of
// deltaGeometries (both variants; 8, 16 and other word counts; heights
// 11 and 12 where the kernel's groups of eight window rows overlap most),
// for parents and children of random, empty, full and mixed rows (bits
// past the width included), with bands at the top, at the bottom, single
// rows at either end and bands more than eight rows down.
func TestDeltaKernelsMatchGo(t *testing.T) {
	for gi, geo := range deltaGeometries {
		fs, err := NewFeatureSet(geo.v, geo.width, geo.height)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Quantize(smallOutputs(randomNetwork(t, fs, geo.hidden, HardTanh, 0.1, uint64(20+gi))), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		q.maxBand = MaxHeight + 1
		rng := rand.New(rand.NewPCG(uint64(gi), 29))
		h := geo.height
		prows := make([]uint16, h)
		changedSums := 0
		const trials = 250
		for trial := 0; trial < trials; trial++ {
			wide := trial%7 == 6
			pkind := trial % 5 // 0 all empty, 1 all full, 2 random, 3, 4 mixed
			if trial == 0 || rng.IntN(3) == 0 {
				for y := range prows {
					k := pkind
					if k >= 3 {
						k = rng.IntN(3)
					}
					prows[y] = randomRow(rng, geo.width, k, wide)
				}
			}
			rows := slices.Clone(prows)
			lo, hi := randomBand(rng, h)
			ckind := rng.IntN(4) // 0 empty, 1 full, 2 random, 3 each row's own
			for y := lo; y <= hi; y++ {
				k := ckind
				if k == 3 {
					k = rng.IntN(3)
				}
				rows[y] = randomRow(rng, geo.width, k, wide)
			}
			name := fmt.Sprintf("%v trial %d rows %d..%d", geo, trial, lo, hi)
			if checkDelta(t, q, name, prows, rows) {
				changedSums++
			}
			// Half the time the child is the next parent (a chain).
			if rng.IntN(2) == 0 {
				copy(prows, rows)
			}
		}
		if changedSums < trials/4 {
			t.Fatalf("%v: only %d of %d children changed the sums", geo, changedSums, trials)
		}
	}
}

// FuzzDeltaKernels: for any parent and child well of 10x16 (shared, H32
// and H64) and 10x11 (positional, H32), the kernels' delta, the Go
// loops' and the refresh agree (checkDelta). The input's bytes are the
// parent's rows then the child's, two bytes a row (missing bytes zero).
func FuzzDeltaKernels(f *testing.F) {
	full := make([]byte, 64)
	for i := range full {
		full[i] = 0xff
	}
	f.Add([]byte{})
	f.Add(full)
	f.Add(append(make([]byte, 32), full[:32]...))
	f.Add(append(slices.Clone(full[:32]), make([]byte, 32)...))
	f.Add([]byte{30: 0x03, 31: 0xff, 62: 0x03, 63: 0xfe})
	f.Add([]byte{0: 1, 33: 1})
	f.Add([]byte{18: 0x55, 19: 0x55, 50: 0xaa, 51: 0xaa})
	type net struct {
		q    *Quantized
		name string
	}
	var nets []net
	for i, geo := range []deltaGeometry{{Shared, 10, 16, 32}, {Shared, 10, 16, 64}, {Positional, 10, 11, 32}} {
		fs, err := NewFeatureSet(geo.v, geo.width, geo.height)
		if err != nil {
			f.Fatal(err)
		}
		q, err := Quantize(smallOutputs(randomNetwork(f, fs, geo.hidden, HardTanh, 0.1, uint64(40+i))), 0, 0)
		if err != nil {
			f.Fatal(err)
		}
		q.maxBand = MaxHeight + 1
		nets = append(nets, net{q, geo.String()})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, n := range nets {
			h := n.q.fs.height
			prows, rows := make([]uint16, h), make([]uint16, h)
			for y := 0; y < h; y++ {
				prows[y] = uint16(byteAt(data, 2*y))<<8 | uint16(byteAt(data, 2*y+1))
				rows[y] = uint16(byteAt(data, 32+2*y))<<8 | uint16(byteAt(data, 32+2*y+1))
			}
			checkDelta(t, n.q, n.name, prows, rows)
		}
	})
}

// smallOutputs scales n's output weights by 1/4, keeping Quantize's
// rounding bound under one at every hidden size tested.
func smallOutputs(n *Network) *Network {
	for j := range n.W2 {
		n.W2[j] /= 4
	}
	return n
}

func byteAt(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

// TestDeltaKernelFits: over every geometry a network can have (both
// variants, every width and height the feature sets allow, hidden sizes
// around each word count up to MaxHidden), the window kernels' predicate
// holds exactly for ten columns, a height of 11 or more and 8 or 16 words
// of hidden sums; and wherever it holds, the delta with the kernels (on
// a machine with AVX2) gives the refresh's words, features and output.
func TestDeltaKernelFits(t *testing.T) {
	hiddens := []int{1, 4, 5, 28, 29, 31, 32, 33, 60, 61, 64, 65, 128, MaxHidden}
	fits := 0
	for _, v := range []Variant{Shared, Positional} {
		for width := MinWidth; width <= MaxWidth; width++ {
			for height := MinHeight; height <= MaxHeight; height++ {
				fs, err := NewFeatureSet(v, width, height)
				if err != nil {
					t.Fatal(err)
				}
				for _, hidden := range hiddens {
					words := (hidden + 3) / 4
					want := width == 10 && height >= 11 && (words == 8 || words == 16)
					q := &Quantized{fs: fs, words: words}
					if got := q.deltaKernelFits(); got != want {
						t.Fatalf("%v %dx%d H%d: deltaKernelFits %v, want %v", v, width, height, hidden, got, want)
					}
					if want {
						fits++
					}
				}
			}
		}
	}
	if fits != 2*(MaxHeight-10)*5 { // 29, 31, 32, 61 and 64 of hiddens
		t.Fatalf("%d geometries fit, want %d", fits, 2*(MaxHeight-10)*5)
	}
	if testing.Short() {
		return
	}
	// The kernels at the fitting heights where their groups of eight
	// window rows overlap most and least (11, 12, 19, the largest) and on
	// each word count (one hidden size a count, padded and not), a few
	// random parents and children (TestDeltaKernelsMatchGo has many more
	// on fewer geometries).
	for gi, v := range []Variant{Shared, Positional} {
		for _, height := range []int{11, 12, 19, MaxHeight} {
			for _, hidden := range []int{29, 32, 61, 64} {
				fs, _ := NewFeatureSet(v, 10, height)
				q, err := Quantize(smallOutputs(randomNetwork(t, fs, hidden, HardTanh, 0.1, uint64(100*gi+height+hidden))), 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !q.deltaKernelFits() {
					t.Fatalf("%v 10x%d H%d: the kernels do not fit", v, height, hidden)
				}
				q.maxBand = MaxHeight + 1
				rng := rand.New(rand.NewPCG(uint64(height), uint64(hidden)))
				prows := make([]uint16, height)
				for trial := 0; trial < 6; trial++ {
					for y := range prows {
						prows[y] = randomRow(rng, 10, rng.IntN(3), false)
					}
					rows := slices.Clone(prows)
					lo, hi := randomBand(rng, height)
					for y := lo; y <= hi; y++ {
						rows[y] = randomRow(rng, 10, 2, false)
					}
					checkDelta(t, q, fmt.Sprintf("%v 10x%d H%d trial %d", v, height, hidden, trial), prows, rows)
				}
			}
		}
	}
}
