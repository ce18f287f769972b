package nnue

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestMerge: the merged network's output is the weighted sum of the
// networks' outputs (float, every well of some random games), its score
// weight the same sum, and mismatched or oversized inputs are refused.
func TestMerge(t *testing.T) {
	r := hatetris.Standard()
	fs, err := NewFeatureSet(Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	wells := randomGames(r, 3, 300)
	for _, tc := range []struct {
		name    string
		hidden  []int
		weights []float64
	}{
		{"one network, weight 1", []int{32}, []float64{1}},
		{"the mean of two", []int{32, 32}, []float64{0.5, 0.5}},
		{"three of unequal sizes and signs", []int{8, 16, 5}, []float64{2, -0.25, 0.7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nets []*Network
			want := 0.0
			for i, h := range tc.hidden {
				n := randomNetwork(t, fs, h, HardTanh, 0.05, uint64(i+1))
				n.ScoreWeight = float64(i + 1)
				nets = append(nets, n)
				want += tc.weights[i] * n.ScoreWeight
			}
			m, err := Merge(nets, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			if m.ScoreWeight != want {
				t.Errorf("score weight %g, want %g", m.ScoreWeight, want)
			}
			for i := range wells {
				rows := below(r, &wells[i])
				sum := 0.0
				for k, n := range nets {
					sum += tc.weights[k] * n.Evaluate(rows)
				}
				if got := m.Evaluate(rows); math.Abs(got-sum) > 1e-5*(1+math.Abs(sum)) {
					t.Fatalf("well %d: merged %.9g, weighted sum %.9g", i, got, sum)
				}
			}
		})
	}
	small, _ := NewFeatureSet(Shared, 6, 8)
	pos, _ := NewFeatureSet(Positional, r.Width, r.Depth-r.Bar)
	a := randomNetwork(t, fs, 32, HardTanh, 0.05, 1)
	big := randomNetwork(t, fs, 200, HardTanh, 0.05, 2)
	for _, tc := range []struct {
		name    string
		nets    []*Network
		weights []float64
		want    string
	}{
		{"none", nil, nil, "no networks"},
		{"weights count", []*Network{a, a}, []float64{1}, "1 weights for 2 networks"},
		{"NaN weight", []*Network{a}, []float64{math.NaN()}, "weight 1 is NaN"},
		{"huge weight", []*Network{a}, []float64{1e9}, "weight 1 is 1e+09"},
		{"other geometry", []*Network{a, randomNetwork(t, small, 4, HardTanh, 0.05, 3)}, []float64{1, 1}, "network 2 has features"},
		{"other variant", []*Network{a, randomNetwork(t, pos, 4, HardTanh, 0.05, 3)}, []float64{1, 1}, "network 2 has features"},
		{"other activation", []*Network{a, randomNetwork(t, fs, 4, ClippedReLU, 0.05, 3)}, []float64{1, 1}, "activation"},
		{"too many hidden units", []*Network{a, big, a}, []float64{1, 1, 1}, "264 hidden units in all"},
	} {
		if _, err := Merge(tc.nets, tc.weights); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.name, err, tc.want)
		}
	}
}

// TestMergeOutput: the merged header's output is the networks' when they
// agree, else linear.
func TestMergeOutput(t *testing.T) {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	mk := func(out string) *Network {
		n, _ := NewNetwork(fs, 2, HardTanh)
		n.Header.Output = out
		return n
	}
	for _, tc := range []struct{ a, b, want string }{
		{"tanh", "tanh", "tanh"}, {"linear", "linear", "linear"}, {"tanh", "linear", "linear"}, {"", "tanh", "linear"},
	} {
		m, err := Merge([]*Network{mk(tc.a), mk(tc.b)}, []float64{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		if m.Header.Output != tc.want {
			t.Errorf("%q and %q: output %q, want %q", tc.a, tc.b, m.Header.Output, tc.want)
		}
	}
}

func ExampleMerge() {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	a, _ := NewNetwork(fs, 1, HardTanh)
	a.Row(13)[0], a.W2[0] = 0.5, 2 // 1 on the row pattern 1101
	b, _ := NewNetwork(fs, 1, HardTanh)
	b.B2 = 3 // 3 on every well
	m, _ := Merge([]*Network{a, b}, []float64{0.5, 0.5})
	rows := []uint16{0, 0, 0, 0b1101}
	fmt.Println(m.Hidden, a.Evaluate(rows), b.Evaluate(rows), m.Evaluate(rows))
	// Output: 2 1 3 2
}

// mergeGap is the largest |integer value of the merged network - the
// weighted sum of the networks' integer values| over the wells' rows, and
// its bound: the merged network's error bound, plus each network's times
// |its weight|, plus the float32 rounding of the merged output weights
// and bias (2^-23 of the output's magnitude, generously).
func mergeGap(t *testing.T, nets []*Network, weights []float64, m *Network, rows [][]uint16) (gap, bound float64) {
	t.Helper()
	qm, err := Quantize(m, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]*Quantized, len(nets))
	bound = qm.ErrorBound()
	mag := math.Abs(float64(m.B2)) + sumAbs(m.W2)
	for k, n := range nets {
		if qs[k], err = Quantize(n, 0, 0); err != nil {
			t.Fatal(err)
		}
		bound += math.Abs(weights[k]) * qs[k].ErrorBound()
		mag += math.Abs(weights[k]) * (math.Abs(float64(n.B2)) + sumAbs(n.W2))
	}
	bound += mag * 0x1p-22
	am := qm.NewAccumulator()
	for _, rw := range rows {
		qm.Refresh(am, rw)
		sum := 0.0
		for k, q := range qs {
			a := q.NewAccumulator()
			q.Refresh(a, rw)
			sum += weights[k] * q.Value(a)
		}
		gap = max(gap, math.Abs(qm.Value(am)-sum))
	}
	return gap, bound
}

// TestMergeQuantized: the merged network's integer values stay within the
// error bounds of the weighted sum of the networks' integer values (the
// merged network has one hidden scale, the smallest of theirs, and its own
// output scale, so the two are not bit for bit the same), on every well
// of some random games and their children; the gap is real (not 0) once
// the networks' hidden scales differ.
func TestMergeQuantized(t *testing.T) {
	r := hatetris.Standard()
	fs, err := NewFeatureSet(Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]uint16
	g := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for _, w := range randomGames(r, 5, 120) {
		rows = append(rows, below(r, &w))
		buf = children(g, &w, buf)
		for i := 0; i < len(buf); i += 7 {
			rows = append(rows, below(r, &buf[i].Well))
		}
	}
	for _, tc := range []struct {
		name    string
		act     Activation
		hidden  []int
		w1max   []float64
		weights []float64
		gapped  bool // the hidden scales differ: a nonzero gap expected
	}{
		{"itself twice, the mean", HardTanh, []int{32, 32}, []float64{0.05, 0.05}, []float64{0.5, 0.5}, false},
		{"two scales, the mean", HardTanh, []int{32, 16}, []float64{0.02, 0.2}, []float64{0.5, 0.5}, true},
		{"three, signed weights", HardTanh, []int{8, 24, 12}, []float64{0.01, 0.1, 0.05}, []float64{0.3, -0.2, 0.4}, true},
		{"crelu", ClippedReLU, []int{16, 16}, []float64{0.03, 0.15}, []float64{1, 0.25}, true},
		{"tanh table", Tanh, []int{16, 20}, []float64{0.04, 0.12}, []float64{0.6, 0.4}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nets []*Network
			for i, h := range tc.hidden {
				seed := uint64(i + 11)
				if !tc.gapped {
					seed = 11
				}
				nets = append(nets, randomNetwork(t, fs, h, tc.act, tc.w1max[i], seed))
			}
			m, err := Merge(nets, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			gap, bound := mergeGap(t, nets, tc.weights, m, rows)
			t.Logf("%d wells: largest gap %.3g, bound %.3g", len(rows), gap, bound)
			if !(gap <= bound) {
				t.Fatalf("integer merged value is %.6g from the weighted sum of the integer values, more than the bound %.6g", gap, bound)
			}
			if tc.gapped && gap == 0 {
				t.Fatalf("no gap at all with different hidden scales: the test does not test")
			}
			// A merge of one network with weight 1 is that network, bit
			// for bit, integer values included.
			one, err := Merge(nets[:1], []float64{1})
			if err != nil {
				t.Fatal(err)
			}
			if gap, _ := mergeGap(t, nets[:1], []float64{1}, one, rows); gap != 0 {
				t.Fatalf("one network, weight 1: integer gap %g, want 0", gap)
			}
		})
	}
}

// TestMergeNil: a nil network is an error naming it, not a panic.
func TestMergeNil(t *testing.T) {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	a, _ := NewNetwork(fs, 2, HardTanh)
	for _, tc := range []struct {
		nets []*Network
		want string
	}{
		{[]*Network{nil}, "network 1 is nil"},
		{[]*Network{a, nil}, "network 2 is nil"},
		{[]*Network{a, {}}, "network 2: network has no feature set"},
	} {
		if _, err := Merge(tc.nets, make([]float64, len(tc.nets))); err == nil || err.Error() != "merge: "+tc.want {
			t.Errorf("%v: %v, want %q", tc.nets, err, "merge: "+tc.want)
		}
	}
}

// FuzzMerge: Merge of small networks built from the input never panics;
// what it returns has the summed hidden units and, on every 4x4 well of
// a few rows, the weighted sum of the networks' values (float), and a
// bad input is a one-line error.
func FuzzMerge(f *testing.F) {
	f.Add([]byte{2, 3, 1, 0x40, 0x10, 7, 9, 200, 13}, 0.5, -0.25)
	f.Add([]byte{0, 0}, math.NaN(), 1e300)
	f.Add([]byte{255, 255, 255, 255}, 1.0, 1.0)
	fs, _ := NewFeatureSet(Shared, 4, 4)
	f.Fuzz(func(t *testing.T, b []byte, w1, w2 float64) {
		if len(b) < 2 {
			return
		}
		at := 0
		next := func() byte {
			at++
			return b[at%len(b)]
		}
		count := 1 + int(b[0])%3
		var nets []*Network
		weights := []float64{w1, w2, w1 - w2}[:count]
		for range count {
			h := 1 + int(next())%9
			if next() == 0 {
				h = MaxHidden // a merge past MaxHidden
			}
			n, err := NewNetwork(fs, h, Activation(next()%3))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range [][]float32{n.W1, n.B1, n.W2} {
				for i := range v {
					v[i] = float32(int8(next())) / 64
				}
			}
			n.B2 = float32(int8(next())) / 16
			n.ScoreWeight = float64(int8(next())) / 32
			nets = append(nets, n)
		}
		m, err := Merge(nets, weights)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error in more than one line: %v", err)
			}
			return
		}
		hidden := 0
		for _, n := range nets {
			hidden += n.Hidden
		}
		if m.Hidden != hidden || m.Activation != nets[0].Activation {
			t.Fatalf("merged hidden %d %s, want %d %s", m.Hidden, m.Activation, hidden, nets[0].Activation)
		}
		for x := range 64 {
			rows := []uint16{uint16(x) & 15, uint16(x*7) & 15, uint16(x*13) & 15, uint16(x*5+3) & 15}
			sum, mag := 0.0, 0.0
			for k, n := range nets {
				v := n.Evaluate(rows)
				sum += weights[k] * v
				mag += math.Abs(weights[k]) * (math.Abs(float64(n.B2)) + sumAbs(n.W2))
			}
			if got := m.Evaluate(rows); math.Abs(got-sum) > 1e-6*(1+mag) {
				t.Fatalf("rows %v: merged %.9g, weighted sum %.9g", rows, got, sum)
			}
		}
	})
}

// TestMergeQuantizedCommitted: the same bound on committed networks, the
// mean of scale-run generations 5 and 6 rescaled as `hatelab nnue merge`
// does (OutputFit to 0.95: its bound would be above the engine's), and
// of gen-00 with gen-00-tuned (no rescale): the integer merged value
// within the merged bound plus the networks' (times their weights, the
// rescale included) of the same weighted sum of theirs.
func TestMergeQuantizedCommitted(t *testing.T) {
	r := hatetris.Standard()
	var rows [][]uint16
	for _, w := range randomGames(r, 9, 3000) {
		rows = append(rows, below(r, &w))
	}
	for _, tc := range []struct {
		paths []string
		scale float64 // the rescale, to 4 digits
	}{
		{[]string{"scale-run/gen-05.hlnn", "scale-run/gen-06.hlnn"}, 0.9587},
		{[]string{"gen-00.hlnn", "gen-00-tuned.hlnn"}, 1},
	} {
		var nets []*Network
		var weights []float64
		for _, p := range tc.paths {
			n, err := Load("../../datasets/weights/" + p)
			if err != nil {
				t.Fatal(err)
			}
			nets = append(nets, n)
			weights = append(weights, 0.5)
		}
		m, err := Merge(nets, weights)
		if err != nil {
			t.Fatal(err)
		}
		s, err := OutputFit(m, 0.95*MaxErrorBound)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s-tc.scale) > 5e-5 {
			t.Errorf("%v: rescale %.6g, want %.4g", tc.paths, s, tc.scale)
		}
		m.W2, m.B2 = scaled(m.W2, s), float32(s*float64(m.B2))
		for k := range weights {
			weights[k] *= s
		}
		gap, bound := mergeGap(t, nets, weights, m, rows)
		t.Logf("%v: rescale %.4g, %d wells: largest gap %.4g, bound %.4g", tc.paths, s, len(rows), gap, bound)
		if !(gap <= bound) || gap == 0 {
			t.Errorf("%v: gap %.6g, bound %.6g", tc.paths, gap, bound)
		}
	}
}
