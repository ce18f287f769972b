package nnue

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// refLanes is the int16 reference: B1 + the quantised rows, lane by lane
// in int32 (no packing).
func refLanes(q *Quantized, feats []int32) []int16 {
	out := make([]int16, q.Hidden())
	for j := range out {
		s := int32(q.B1(j))
		for _, f := range feats {
			s += int32(q.W1(f, j))
		}
		if s != int32(int16(s)) {
			panic("lane overflow")
		}
		out[j] = int16(s)
	}
	return out
}

// TestQuantizedMatchesReference: packed accumulators decode to the plain
// int16 sums, for every activation and hidden size, on random wells.
func TestQuantizedMatchesReference(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 5, 500)
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		hs := []int{1, 7, 32, 48, 64}
		if v == Positional {
			hs = []int{7, 32}
		}
		for _, h := range hs {
			for _, act := range []Activation{HardTanh, ClippedReLU, Tanh} {
				n := randomNetwork(t, fs, h, act, 0.05, uint64(h))
				q, err := Quantize(n, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				a := q.NewAccumulator()
				for i := range wells {
					q.Refresh(a, below(r, &wells[i]))
					want := refLanes(q, a.Feats())
					if got := a.Lanes(nil, h); !slices.Equal(got, want) {
						t.Fatalf("%s H%d %s: lanes %v, want %v", v, h, act, got, want)
					}
					// Output from the reference lanes.
					qa, _ := q.Scales()
					out := q.b2
					for j, x := range want {
						y := int32(x)
						switch act {
						case HardTanh:
							y = min(max(y, -int32(qa)), int32(qa))
						case ClippedReLU:
							y = min(max(y, 0), int32(qa))
						case Tanh:
							y = int32(math.Round(math.Tanh(float64(x)/float64(qa)) * float64(qa)))
						}
						out += int64(q.w2[j]) * int64(y)
					}
					if got := q.Output(a); got != out {
						t.Fatalf("%s H%d %s: output %d, want %d", v, h, act, got, out)
					}
				}
			}
		}
	}
}

// TestIncrementalEqualsRefresh: for every child (all seven pieces) of
// 10,000 wells (random games and record games), the accumulator updated
// from the parent's is bit for bit the full refresh, and so is a chain of
// updates.
func TestIncrementalEqualsRefresh(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 11, 6000)
	rec := recordWells(t)
	for i := 0; len(wells) < 10000 && i < len(rec); i += 3 {
		wells = append(wells, rec[i])
	}
	if len(wells) < 10000 {
		wells = append(wells, randomGames(r, 12, 10000-len(wells))...)
	}
	g := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for _, c := range []struct {
		v     Variant
		h     int
		every int
	}{{Shared, 32, 1}, {Positional, 32, 1}, {Shared, 20, 5}} {
		v, h := c.v, c.h
		fs, _ := NewFeatureSet(v, 10, 16)
		{
			q, err := Quantize(randomNetwork(t, fs, h, HardTanh, 0.1, 3), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			parent, child, full, scratch := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
			nChildren, nIncr := 0, 0
			for i := range wells {
				if i%c.every != 0 || testing.Short() && i%4 != 0 {
					continue
				}
				q.Refresh(parent, below(r, &wells[i]))
				buf = children(g, &wells[i], buf)
				for k := range buf {
					rows := below(r, &buf[k].Well)
					if q.Update(child, parent, rows) {
						nIncr++
					}
					q.Refresh(full, rows)
					nChildren++
					if !slices.Equal(child.words, full.words) || !slices.Equal(child.feats, full.feats) {
						t.Fatalf("%s H%d: well %d child %d: incremental != refresh\n%s", v, h, i, k, r.Format(&buf[k].Well))
					}
					if o := q.ChildOutput(scratch, parent, rows); o != q.Output(full) {
						t.Fatalf("%s H%d: well %d child %d: ChildOutput %d, refresh %d", v, h, i, k, o, q.Output(full))
					}
					// A grandchild from the updated child.
					if k == 0 {
						gc := children(g, &buf[k].Well, nil)
						if len(gc) > 0 {
							q.Update(full, child, below(r, &gc[0].Well))
							q.Refresh(parent, below(r, &gc[0].Well))
							if !slices.Equal(parent.words, full.words) {
								t.Fatalf("grandchild: incremental != refresh")
							}
							q.Refresh(parent, below(r, &wells[i]))
						}
					}
				}
			}
			if nIncr == 0 || nIncr == nChildren {
				t.Fatalf("%d of %d children updated incrementally", nIncr, nChildren)
			}
			t.Logf("%s H%d: %d children, %d incremental", v, h, nChildren, nIncr)
		}
	}
}

// TestInt16MatchesFloat: on the children of record-game wells, with a
// random network (|W1| <= 0.1, |W2| <= 1: outputs of a few units), the
// int16 value stays within the stated ErrorBound of the float value and
// under 0.05, and nearly all pairs of children are ordered alike.
func TestInt16MatchesFloat(t *testing.T) {
	r := hatetris.Standard()
	rec := recordWells(t)
	fs, _ := NewFeatureSet(Shared, 10, 16)
	n := randomNetwork(t, fs, 32, HardTanh, 0.1, 8)
	q, err := Quantize(n, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := compareOrders(r, n, q, rec, 2000)
	t.Logf("%d parents, %d children: max |int16-float| %.5f, identical orderings %.4f, pairwise agreement %.5f",
		st.parents, st.children, st.maxErr, st.sameOrder, st.pairs)
	t.Logf("%s: error bound %.4f", q, q.ErrorBound())
	if st.maxErr > q.ErrorBound() || st.maxErr > 0.05 {
		t.Fatalf("max error %v (bound %v)", st.maxErr, q.ErrorBound())
	}
	if st.pairs < 0.998 || st.sameOrder < 0.6 {
		t.Fatalf("orderings disagree: %+v", st)
	}
}

type orderStats struct {
	parents, children int
	maxErr            float64
	sameOrder, pairs  float64
}

// compareOrders compares float and int16 values and child orderings (ties
// broken by outcome index) on up to n parents of wells.
func compareOrders(r *hatetris.Rules, n *Network, q *Quantized, wells []hatetris.Well, limit int) orderStats {
	g := hatetris.NewGenerator(r)
	var st orderStats
	var buf []hatetris.Outcome
	a := q.NewAccumulator()
	same, pairsOK, pairs := 0, 0, 0
	step := max(1, len(wells)/limit)
	for i := 0; i < len(wells); i += step {
		buf = buf[:0]
		_, buf = g.Move(&wells[i], hatetris.Mild, nil, buf)
		var fv []float64
		var qv []int64
		for _, res := range buf {
			if res.GameOver {
				continue
			}
			rows := below(r, &res.Well)
			f := n.Evaluate(rows)
			q.Refresh(a, rows)
			o := q.Output(a)
			st.maxErr = max(st.maxErr, math.Abs(f-float64(o)*q.scale))
			fv, qv = append(fv, f), append(qv, o)
		}
		if len(fv) < 2 {
			continue
		}
		st.parents++
		st.children += len(fv)
		fo, qo := make([]int, len(fv)), make([]int, len(fv))
		for k := range fo {
			fo[k], qo[k] = k, k
		}
		sort.SliceStable(fo, func(x, y int) bool { return fv[fo[x]] > fv[fo[y]] })
		sort.SliceStable(qo, func(x, y int) bool { return qv[qo[x]] > qv[qo[y]] })
		if slices.Equal(fo, qo) {
			same++
		}
		for x := range fv {
			for y := x + 1; y < len(fv); y++ {
				if fv[x] == fv[y] {
					continue
				}
				pairs++
				if (fv[x] > fv[y]) == (qv[x] > qv[y]) {
					pairsOK++
				}
			}
		}
	}
	st.sameOrder = float64(same) / float64(max(st.parents, 1))
	st.pairs = float64(pairsOK) / float64(max(pairs, 1))
	return st
}

// TestQuantizeLowersQA: first-layer weights too large for int16 sums at
// QA=256 make Quantize lower QA, and the lanes still match the reference.
func TestQuantizeLowersQA(t *testing.T) {
	r := hatetris.Standard()
	fs, _ := NewFeatureSet(Shared, 10, 16)
	n := randomNetwork(t, fs, 8, HardTanh, 3, 4)
	for j := range n.W2 { // small output weights: the error bound at a low QA stays under MaxErrorBound
		n.W2[j] /= 4
	}
	q, err := Quantize(n, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if qa, _ := q.Scales(); qa >= 256 || qa < minQA {
		t.Fatalf("qa %d", qa)
	}
	a := q.NewAccumulator()
	for _, w := range randomGames(r, 2, 200) {
		q.Refresh(a, below(r, &w))
		if !slices.Equal(a.Lanes(nil, 8), refLanes(q, a.Feats())) {
			t.Fatal("lanes differ")
		}
	}
	n.W1[0] = 1e9
	if _, err := Quantize(n, 0, 0); err == nil {
		t.Fatal("huge weight: no error")
	}
}

// TestAccumulatorAllocs: refresh, update and output allocate nothing.
func TestAccumulatorAllocs(t *testing.T) {
	r := hatetris.Standard()
	fs, _ := NewFeatureSet(Shared, 10, 16)
	q, _ := Quantize(randomNetwork(t, fs, 32, HardTanh, 0.1, 1), 0, 0)
	wells := randomGames(r, 3, 50)
	p, c := q.NewAccumulator(), q.NewAccumulator()
	if a := testing.AllocsPerRun(20, func() {
		for i := 1; i < len(wells); i++ {
			q.Refresh(p, below(r, &wells[i-1]))
			q.Update(c, p, below(r, &wells[i]))
			_ = q.Output(c)
		}
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestGen0Int16: the committed generation-0 network's int16 values stay
// within its error bound of the float values on the children of record
// wells, and nearly all sibling pairs are ordered alike.
func TestGen0Int16(t *testing.T) {
	n, err := Load("../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	q, err := Quantize(n, n.Header.QA, n.Header.QB)
	if err != nil {
		t.Fatal(err)
	}
	st := compareOrders(hatetris.Standard(), n, q, recordWells(t), 3000)
	t.Logf("%s: %d parents, %d children: max |int16-float| %.5f (bound %.5f), identical orderings %.4f, pairwise agreement %.5f",
		q, st.parents, st.children, st.maxErr, q.ErrorBound(), st.sameOrder, st.pairs)
	if st.maxErr > q.ErrorBound() || st.pairs < 0.99 {
		t.Fatalf("%+v", st)
	}
}

// TestChildOutputDescendants: ChildOutput from a well's accumulator is
// the full refresh for its grandchildren and great-grandchildren too
// (several pieces placed, lines cleared and rows shifted, as along a
// quiescence chain), in both variants: every descendant under a line
// clear, a sample of the others.
func TestChildOutputDescendants(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 13, 100)
	g := hatetris.NewGenerator(r)
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		q, err := Quantize(randomNetwork(t, fs, 32, HardTanh, 0.1, 5), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		parent, full, scratch := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
		n, cleared := 0, 0
		for i := range wells {
			if i%5 != 0 || testing.Short() && i%20 != 0 {
				continue
			}
			q.Refresh(parent, below(r, &wells[i]))
			for _, c := range children(g, &wells[i], nil) {
				for j, gc := range children(g, &c.Well, nil) {
					desc := []hatetris.Well{gc.Well}
					if j%16 == 0 {
						for _, ggc := range children(g, &gc.Well, nil) {
							desc = append(desc, ggc.Well)
						}
					}
					for k := range desc {
						// Every descendant after a clear, a sample of the rest.
						if c.Lines+gc.Lines == 0 && (k+j)%61 != 0 {
							continue
						}
						rows := below(r, &desc[k])
						q.Refresh(full, rows)
						if o := q.ChildOutput(scratch, parent, rows); o != q.Output(full) {
							t.Fatalf("%s: well %d descendant: ChildOutput %d, refresh %d\n%s", v, i, o, q.Output(full), r.Format(&desc[k]))
						}
						n++
						if c.Lines+gc.Lines > 0 {
							cleared++
						}
					}
				}
			}
		}
		if cleared == 0 {
			t.Fatalf("%s: no descendant cleared a line", v)
		}
		t.Logf("%s: %d descendants, %d after clears", v, n, cleared)
	}
}

// TestRefreshEqualsSum: Refresh gives the features of Append and the sum
// of B1 and their weight rows, lane by lane (decoded from the packed
// words), on wells of every height, the empty well included.
func TestRefreshEqualsSum(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 17, 3000)
	wells = append(wells, hatetris.Well{})
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		for _, h := range []int{32, 20} {
			q, err := Quantize(randomNetwork(t, fs, h, HardTanh, 0.1, 9), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			a := q.NewAccumulator()
			for i := range wells {
				rows := below(r, &wells[i])
				q.Refresh(a, rows)
				feats := fs.Append(nil, rows)
				if !slices.Equal(a.feats, feats) {
					t.Fatalf("%s H%d well %d: features differ", v, h, i)
				}
				got := a.Lanes(nil, h)
				for j := range h {
					want := int32(q.B1(j))
					for _, f := range feats {
						want += int32(q.W1(f, j))
					}
					if int32(got[j]) != want {
						t.Fatalf("%s H%d well %d unit %d: %d, sum %d", v, h, i, j, got[j], want)
					}
				}
			}
		}
	}
}

// TestQuantizeRanges: every value the integer network cannot represent,
// and an error bound past MaxErrorBound, is refused in one line; tiny
// output weights (which once overflowed QB's computation to 0 and the
// scale to +Inf) give finite scales and values.
func TestQuantizeRanges(t *testing.T) {
	fs, _ := NewFeatureSet(Shared, 10, 16)
	for _, tc := range []struct {
		name string
		edit func(n *Network)
		want string // "" : accepted
	}{
		{"as made", func(*Network) {}, ""},
		{"output bias +1e12", func(n *Network) { n.B2 = 1e12 }, "output bias"},
		{"output bias -1e12", func(n *Network) { n.B2 = -1e12 }, "output bias"},
		{"output weight 40000", func(n *Network) { n.W2[3] = 40000 }, "output weight"},
		{"output weight -1e30", func(n *Network) { n.W2[0] = -1e30 }, "output weight"},
		{"output weights 1e-15", func(n *Network) {
			for j := range n.W2 {
				n.W2[j] = 1e-15
			}
		}, ""},
		{"output weights 0", func(n *Network) {
			for j := range n.W2 {
				n.W2[j] = 0
			}
		}, ""},
		{"output weights 500 (error bound)", func(n *Network) {
			for j := range n.W2 {
				n.W2[j] = 500
			}
		}, "error bound"},
		{"first layer 1e9", func(n *Network) { n.W1[7] = 1e9 }, "first-layer"},
		{"hidden bias 1e6", func(n *Network) { n.B1[1] = 1e6 }, "first-layer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, act := range []Activation{HardTanh, Tanh} {
				n := randomNetwork(t, fs, 8, act, 0.1, 7)
				tc.edit(n)
				q, err := Quantize(n, 0, 0)
				if tc.want == "" {
					if err != nil {
						t.Fatalf("%v: %v", act, err)
					}
					qa, qb := q.Scales()
					if qa < minQA || qb < 1 || math.IsInf(q.Scale(), 0) || math.IsNaN(q.ErrorBound()) || q.ErrorBound() > MaxErrorBound {
						t.Fatalf("%v: qa %d qb %d scale %v bound %v", act, qa, qb, q.Scale(), q.ErrorBound())
					}
					a := q.NewAccumulator()
					rows := make([]uint16, 16)
					rows[15] = 0x3ff &^ 4
					q.Refresh(a, rows)
					if v, f := q.Value(a), n.Evaluate(rows); math.Abs(v-f) > q.ErrorBound() {
						t.Fatalf("%v: int16 %v, float %v, bound %v", act, v, f, q.ErrorBound())
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("%v: error %v, want one line about %q", act, err, tc.want)
				}
			}
		})
	}
}

// TestChildOutputFromScratch: along a quiescence chain (wells of one step
// clearing a line, one piece apart), ChildOutput updates its scratch in
// place from the previous well when the parent is too far (a line clear)
// and the previous well is near, and gives the refresh's output every
// time. The in-place path is seen by marking scratch's sums: a mark
// survives an update, not a refresh.
func TestChildOutputFromScratch(t *testing.T) {
	r := hatetris.Standard()
	wells := randomGames(r, 17, 400)
	g := hatetris.NewGenerator(r)
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		q, err := Quantize(randomNetwork(t, fs, 32, HardTanh, 0.1, 9), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		parent, full, scratch := q.NewAccumulator(), q.NewAccumulator(), q.NewAccumulator()
		var lanes, fullLanes []int16
		n, inPlace := 0, 0
		for i := range wells {
			if i%2 != 0 {
				continue
			}
			q.Refresh(parent, below(r, &wells[i]))
			for _, c := range children(g, &wells[i], nil) {
				var chain []hatetris.Well
				for _, gc := range children(g, &c.Well, nil) {
					if gc.Lines == 1 {
						chain = append(chain, gc.Well)
					}
				}
				for k := range chain {
					rows := below(r, &chain[k])
					q.Refresh(full, rows)
					marked := k%2 == 1 && scratch.valid
					if marked {
						scratch.words[0]++ // lane 0 plus one
					}
					o := q.ChildOutput(scratch, parent, rows)
					lanes, fullLanes = scratch.Lanes(lanes[:0], 32), full.Lanes(fullLanes[:0], 32)
					switch {
					case marked && lanes[0] == fullLanes[0]+1:
						inPlace++
						scratch.words[0]-- // unmark
						lanes[0]--
						if o2 := q.Output(scratch); !slices.Equal(lanes, fullLanes) || o2 != q.Output(full) {
							t.Fatalf("%s: well %d chain %d: updated in place %v, refresh %v", v, i, k, lanes, fullLanes)
						}
					case o != q.Output(full) || !slices.Equal(lanes, fullLanes):
						t.Fatalf("%s: well %d chain %d: ChildOutput %d, refresh %d\n%s", v, i, k, o, q.Output(full), r.Format(&chain[k]))
					}
					if scratch.valid && (!slices.Equal(scratch.feats, full.feats) || scratch.rows != full.rows) {
						t.Fatalf("%s: well %d chain %d: scratch marked whole but its features or rows are stale", v, i, k)
					}
					n++
				}
			}
		}
		t.Logf("%s: %d chain wells, %d marked ones updated in place", v, n, inPlace)
		if inPlace == 0 {
			t.Fatalf("%s: no chain well was updated from the previous one", v)
		}
	}
}

// TestChanged: the first and last differing rows, four rows at a time and
// in the tail, against a row-by-row scan, on every pair of differing rows
// of heights 1, 3, 4, 16 and 18 (and none).
func TestChanged(t *testing.T) {
	for _, h := range []int{1, 3, 4, 16, 18} {
		var prev [MaxHeight]uint16
		for r := range prev {
			prev[r] = uint16(r*37 + 5)
		}
		for a := -1; a < h; a++ {
			for b := a; b < h; b++ {
				rows := slices.Clone(prev[:h])
				if a >= 0 {
					rows[a] ^= 0x100
					rows[b] ^= 0x001
				}
				wlo, whi := -1, -1
				if a >= 0 {
					wlo, whi = a, b
				}
				if lo, hi := changed(rows, &prev); lo != wlo || hi != whi {
					t.Fatalf("height %d, rows %d and %d changed: changed says %d..%d", h, a, b, lo, hi)
				}
			}
		}
	}
}
