package nnue

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// naiveFeatures lists the active features of a well cell by cell, straight
// from the definitions (no tables).
func naiveFeatures(v Variant, r *hatetris.Rules, w *hatetris.Well) []int32 {
	W, h := r.Width, r.Depth-r.Bar
	cell := func(x, y int) int {
		if r.Filled(w, x, r.Bar+y) {
			return 1
		}
		return 0
	}
	var out []int32
	for y := 0; y < h; y++ {
		p := 0
		for x := 0; x < W; x++ {
			p |= cell(x, y) << (W - 1 - x)
		}
		if v == Positional {
			p += y << W
		}
		out = append(out, int32(p))
	}
	if h < 4 {
		return out
	}
	for c := 0; c < W-2; c++ {
		for y := 0; y+3 < h; y++ {
			p := 0
			for dr := 0; dr < 4; dr++ {
				for dc := 0; dc < 3; dc++ {
					p |= cell(W-3-c+dc, y+dr) << ((3-dr)*3 + 2 - dc)
				}
			}
			if v == Positional {
				p += h<<W + 4096*((h-3)*c+y)
			} else {
				p += 1 << W
			}
			out = append(out, int32(p))
		}
	}
	return out
}

func checkFeatures(t *testing.T, fs *FeatureSet, r *hatetris.Rules, wells []hatetris.Well) {
	t.Helper()
	buf := make([]int32, 0, fs.Active())
	for i := range wells {
		w := &wells[i]
		buf = fs.Append(buf[:0], below(r, w))
		want := naiveFeatures(fs.Variant(), r, w)
		if !slices.Equal(buf, want) {
			t.Fatalf("%s well %d:\n%s\ngot  %v\nwant %v", fs, i, r.Format(w), buf, want)
		}
		if len(buf) != fs.Active() {
			t.Fatalf("%d features, want K=%d", len(buf), fs.Active())
		}
		for _, f := range buf {
			if f < 0 || int(f) >= fs.Count() {
				t.Fatalf("feature %d out of range 0..%d", f, fs.Count()-1)
			}
		}
	}
}

// TestFeaturesRecords: table-driven features equal the naive ones on every
// well of the record replays, in both variants.
func TestFeaturesRecords(t *testing.T) {
	r := hatetris.Standard()
	wells := recordWells(t)
	if len(wells) < 1000 {
		t.Fatalf("only %d record wells", len(wells))
	}
	for _, v := range []Variant{Shared, Positional} {
		fs, err := NewFeatureSet(v, 10, 16)
		if err != nil {
			t.Fatal(err)
		}
		checkFeatures(t, fs, r, wells)
	}
}

// TestFeaturesRandomGames: the same on seeded random games for many
// geometries.
func TestFeaturesRandomGames(t *testing.T) {
	for _, g := range []struct{ w, d, bar int }{
		{10, 20, 4}, {4, 8, 4}, {4, 5, 4}, {5, 12, 4}, {6, 20, 4}, {8, 20, 4}, {12, 24, 4}, {16, 28, 4}, {7, 9, 2}, {10, 6, 3}, {10, 8, 4}, {10, 11, 4},
	} {
		r, err := hatetris.NewRules(g.w, g.d, g.bar)
		if err != nil {
			t.Fatal(err)
		}
		wells := randomGames(r, uint64(g.w*100+g.d), 3000)
		for _, v := range []Variant{Shared, Positional} {
			t.Run(fmt.Sprintf("%s/%dx%d", v, g.w, g.d-g.bar), func(t *testing.T) {
				fs, err := NewFeatureSet(v, g.w, g.d-g.bar)
				if err != nil {
					t.Fatal(err)
				}
				checkFeatures(t, fs, r, wells)
			})
		}
	}
}

// TestFeatureSizes checks K and F against the design's table.
func TestFeatureSizes(t *testing.T) {
	for _, c := range []struct {
		w, h, k, fkj, fdf int
	}{
		{10, 16, 120, 5120, 442368}, {10, 12, 84, 5120, 307200}, {10, 8, 48, 5120, 172032},
		{8, 16, 94, 4352, 323584}, {6, 16, 68, 4160, 214016}, {5, 8, 23, 4128, 61696}, {5, 3, 3, 32, 96},
	} {
		kj, err := NewFeatureSet(Shared, c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		df, err := NewFeatureSet(Positional, c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		if kj.Active() != c.k || df.Active() != c.k || kj.Count() != c.fkj || df.Count() != c.fdf {
			t.Errorf("%dx%d: K %d/%d F %d/%d, want K %d F %d/%d", c.w, c.h, kj.Active(), df.Active(), kj.Count(), df.Count(), c.k, c.fkj, c.fdf)
		}
	}
}

// TestFeatureSetErrors: bad geometries are errors.
func TestFeatureSetErrors(t *testing.T) {
	for _, c := range []struct {
		v    Variant
		w, h int
	}{{Shared, 3, 16}, {Shared, 17, 16}, {Shared, 10, 0}, {Shared, 10, 29}, {Variant(9), 10, 16}} {
		if _, err := NewFeatureSet(c.v, c.w, c.h); err == nil {
			t.Errorf("%v %dx%d: no error", c.v, c.w, c.h)
		}
	}
	if _, err := ParseVariant("xx"); err == nil {
		t.Error("ParseVariant(xx): no error")
	}
}

// TestAppendAllocs: appending into a buffer of capacity K allocates nothing.
func TestAppendAllocs(t *testing.T) {
	r := hatetris.Standard()
	fs, _ := NewFeatureSet(Shared, 10, 16)
	wells := randomGames(r, 1, 100)
	buf := make([]int32, 0, fs.Active())
	if a := testing.AllocsPerRun(100, func() {
		for i := range wells {
			buf = fs.Append(buf[:0], below(r, &wells[i]))
		}
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}
