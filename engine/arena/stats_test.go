package arena

import (
	"math"
	"strings"
	"testing"
)

func TestWilcoxonExact(t *testing.T) {
	// Values computed by hand: enumerate the 2^n sign patterns of the
	// (mid)ranks and count those at least as far from n(n+1)/4.
	for _, tc := range []struct {
		name  string
		d     []float64
		p     float64
		wPlus float64
		n     int
	}{
		{"all positive, n=5", []float64{1, 2, 3, 4, 5}, 2.0 / 32, 15, 5},
		{"one negative", []float64{1, -2, 3, 4, 5}, 6.0 / 32, 13, 5},
		{"zeros dropped", []float64{0, 1, -2, 0, 3, 4, 5}, 6.0 / 32, 13, 5},
		{"tied ranks", []float64{1, 1, -1, 2}, 8.0 / 16, 8, 4},
		{"symmetric", []float64{1, -1, 2, -2}, 1, 5, 4},
		{"no differences", []float64{0, 0, 0}, 1, 0, 0},
		{"single", []float64{-3}, 1, 0, 1},
		// 10 wins of 10 distinct sizes: 2 patterns of 1024 as extreme.
		{"ten wins", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2.0 / 1024, 55, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, w, n, exact := Wilcoxon(tc.d)
			if !exact || n != tc.n || w != tc.wPlus || math.Abs(p-tc.p) > 1e-12 {
				t.Fatalf("Wilcoxon(%v) = p %g, W+ %g, n %d, exact %v; want p %g, W+ %g, n %d", tc.d, p, w, n, exact, tc.p, tc.wPlus, tc.n)
			}
		})
	}
}

func TestWilcoxonNormalNearExact(t *testing.T) {
	// Above the exact limit the normal approximation must be close to
	// what the exact distribution gives just below it.
	d := make([]float64, WilcoxonExactMax)
	for i := range d {
		d[i] = float64(i%37 + 1)
		if i%3 == 0 {
			d[i] = -d[i]
		}
	}
	pe, _, _, exact := Wilcoxon(d)
	if !exact {
		t.Fatal("want the exact test at the limit")
	}
	pn, _, _, exact := Wilcoxon(append(d, 0.5, -0.5)) // two more, tiny and cancelling
	if exact {
		t.Fatal("want the normal approximation past the limit")
	}
	if math.Abs(pe-pn) > 0.01 {
		t.Fatalf("exact p %g, normal p %g", pe, pn)
	}
}

func TestWilcoxonNormalTail(t *testing.T) {
	// Far in the tail the normal approximation's p must keep its digits
	// (1 - Erf loses them below about 1e-16): n distinct differences, k of
	// them negative (the smallest), give W+ = n(n+1)/2 - k(k+1)/2 and the
	// variance n(n+1)(2n+1)/24; p = erfc(z/sqrt 2), here computed by
	// Python's math.erfc (the C library's, not Go's).
	for _, tc := range []struct {
		n, k int
		p    float64
	}{
		{1000, 0, 3.330855786633793e-165},
		{1000, 300, 1.2600861845855746e-111},
		{2000, 700, 6.794730425934025e-188},
		{600, 250, 1.5459606307591515e-43},
		{1000, 667, 0.0026375574319636884},
	} {
		d := make([]float64, tc.n)
		for i := range d {
			d[i] = float64(i + 1)
			if i < tc.k {
				d[i] = -d[i]
			}
		}
		p, w, _, exact := Wilcoxon(d)
		n, k := float64(tc.n), float64(tc.k)
		if exact || w != n*(n+1)/2-k*(k+1)/2 {
			t.Fatalf("n %d k %d: W+ %g exact %v", tc.n, tc.k, w, exact)
		}
		if !(p > 0) || math.Abs(p-tc.p) > 1e-9*tc.p {
			t.Fatalf("n %d k %d: p %g, want %g", tc.n, tc.k, p, tc.p)
		}
	}
}

func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.5})
	want := []float64{0.04, 0.09, 0.09, 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
}

func TestSPRT(t *testing.T) {
	s := DefaultSPRT(0.2)
	lo, hi := s.Bounds()
	if math.Abs(lo-math.Log(0.05/0.95)) > 1e-12 || math.Abs(hi-math.Log(0.95/0.05)) > 1e-12 {
		t.Fatalf("bounds %g %g", lo, hi)
	}
	win, loss := math.Log(0.7/0.5), math.Log(0.3/0.5)
	// ceil(hi/win) straight wins accept H1; ceil(lo/loss) losses H0.
	needWins := int(math.Ceil(hi / win))
	needLosses := int(math.Ceil(lo / loss))
	rep := func(x float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = x
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		d       []float64
		verdict string
		used    int
	}{
		{"straight wins", rep(3, 30), AcceptH1, needWins},
		{"straight losses", rep(-1, 30), AcceptH0, needLosses},
		{"ties carry nothing", append(rep(0, 5), rep(1, needWins)...), AcceptH1, 5 + needWins},
		{"alternating stays open", []float64{1, -1, 1, -1, 1, -1}, Continue, 6},
		// W-L alternation drifts down: each pair adds ln(0.7*0.3/0.25) < 0.
		{"even wins and losses accept H0", func() []float64 {
			var d []float64
			for range 40 {
				d = append(d, 1, -1)
			}
			return d
		}(), AcceptH0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, used, _ := s.Decide(tc.d)
			if v != tc.verdict || tc.used != 0 && used != tc.used {
				t.Fatalf("Decide = %s after %d, want %s after %d", v, used, tc.verdict, tc.used)
			}
		})
	}
	if err := (SPRT{P0: 0.5, P1: 0.5, Alpha: 0.05, Beta: 0.05}).Check(); err == nil {
		t.Fatal("equal hypotheses accepted")
	}
}

func TestCompare(t *testing.T) {
	nan := math.NaN()
	arm := []float64{5, 7, 3, nan, 10}
	base := []float64{4, 7, 5, 2, 6}
	s := DefaultSPRT(0.2)
	c := Compare("a", "b", arm, base, 1000, 1, 0.95, &s)
	if c.N != 4 || c.Wins != 2 || c.Losses != 1 || c.Ties != 1 {
		t.Fatalf("n %d, %d/%d/%d", c.N, c.Wins, c.Losses, c.Ties)
	}
	if c.MeanArm != 25.0/4 || c.MeanBase != 22.0/4 || c.Diff.Estimate != 3.0/4 {
		t.Fatalf("means %g %g, diff %g", c.MeanArm, c.MeanBase, c.Diff.Estimate)
	}
	if !(c.Diff.Lo <= c.Diff.Estimate && c.Diff.Estimate <= c.Diff.Hi) {
		t.Fatalf("interval %+v", c.Diff)
	}
	// The sequential test reads only the leading finished pairs (0..2).
	if c.SPRTPairs != 3 {
		t.Fatalf("SPRT read %d pairs, want 3", c.SPRTPairs)
	}
	// Differences 1, 0, -2, 4: non-zero |d| 1, 2, 4 ranks 1, 2, 3: W+ = 4,
	// and 6 of the 8 sign patterns lie at least 1 from the mean 3.
	if c.NonZero != 3 || c.WPlus != 4 || math.Abs(c.P-0.75) > 1e-12 {
		t.Fatalf("W+ %g over %d, p %g", c.WPlus, c.NonZero, c.P)
	}
	self := Compare("a", "a", base, base, 100, 1, 0.95, nil)
	if self.Diff.Estimate != 0 || self.Diff.Lo != 0 || self.Diff.Hi != 0 || self.P != 1 || self.Ties != 5 {
		t.Fatalf("self comparison %+v", self)
	}
}

func TestFormatP(t *testing.T) {
	for _, tc := range []struct {
		p        float64
		want, eq string
	}{
		{0.047, "0.047", "p = 0.047"},
		{4.9e-5, "4.9e-05", "p = 4.9e-05"},
		{1, "1", "p = 1"},
		{PFloor, "1e-12", "p = 1e-12"},
		{7.2e-16, "< 1e-12", "p < 1e-12"},
		{1e-300, "< 1e-12", "p < 1e-12"},
		{math.NaN(), "n/a", "p = n/a"},
	} {
		if got := FormatP(tc.p); got != tc.want {
			t.Errorf("FormatP(%g) = %q, want %q", tc.p, got, tc.want)
		}
		if got := PEquals(tc.p); got != tc.eq {
			t.Errorf("PEquals(%g) = %q, want %q", tc.p, got, tc.eq)
		}
		c := Comparison{Arm: "a", Baseline: "b", N: 2000, Wins: 1071, Losses: 687, Ties: 242, P: tc.p, PHolm: 2 * tc.p}
		v := c.Verdict()
		holm := "(Holm " + FormatP(2*tc.p) + ")" // "(Holm < 1e-12)" where p is floored
		if !strings.Contains(v, "Wilcoxon "+tc.eq+" "+holm) {
			t.Errorf("verdict %q: want %q then %q", v, tc.eq, holm)
		}
	}
}
