package stats

import (
	"fmt"
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
	if err := (SPRT{P0: 0.5, P1: 0.3, Alpha: 0.05, Beta: 0.05}).Check(); err == nil || !strings.Contains(err.Error(), "want a gain") {
		t.Errorf("a loss as H1: %v, want an error (verdicts read an accepted H1 as better)", err)
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
		{4.9e-5, "4.9·10⁻⁵", "p = 4.9·10⁻⁵"},
		{1, "1", "p = 1"},
		{PFloor, "10⁻¹²", "p = 10⁻¹²"},
		{7.2e-16, "< 10⁻¹²", "p < 10⁻¹²"},
		{1e-300, "< 10⁻¹²", "p < 10⁻¹²"},
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
		holm := "(Holm " + FormatP(2*tc.p) + ")" // "(Holm < 10⁻¹²)" where p is floored
		if !strings.Contains(v, "Wilcoxon "+tc.eq+" "+holm) {
			t.Errorf("verdict %q: want %q then %q", v, tc.eq, holm)
		}
	}
}

// TestMeanSPRT: the LLR is fishtest's LLR_alt2 times n (values computed
// with its formula outside Go: mean 1.1, variance 2.89 over 10 pairs),
// the test waits for MinPairs, continues while the variance is 0 and
// decides both ways.
func TestMeanSPRT(t *testing.T) {
	d := []float64{1, 2, -1, 3, 0, 2, 1, -2, 4, 1}
	s := MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05, MinPairs: 10}
	if v, used, llr := s.Decide(d); v != Continue || used != 10 || math.Abs(llr-2.0761245674740483) > 1e-12 {
		t.Fatalf("Decide = %s %d %g", v, used, llr)
	}
	if v, _, _ := s.Decide([]float64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}); v != Continue {
		t.Fatalf("zero variance decided %s", v)
	}
	wins := make([]float64, 200)
	losses := make([]float64, 200)
	for i := range wins {
		wins[i] = float64(1 + i%3)
		losses[i] = -float64(i % 3)
	}
	if v, used, _ := s.Decide(wins); v != AcceptH1 || used < 10 || used > 40 {
		t.Fatalf("wins: %s after %d", v, used)
	}
	if v, _, _ := s.Decide(losses); v != AcceptH0 {
		t.Fatalf("losses: %s", v)
	}
	if v, used, _ := (MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05}).Decide(wins[:19]); v != Continue || used != 19 {
		t.Fatalf("before DefaultMinPairs: %s after %d", v, used)
	}
	for _, bad := range []MeanSPRT{{D0: 1, D1: 1, Alpha: 0.05, Beta: 0.05}, {D0: 0, D1: math.NaN(), Alpha: 0.05, Beta: 0.05}, {D0: 0, D1: -3, Alpha: 0.05, Beta: 0.05},
		{D0: 0, D1: 1, Alpha: 0.6, Beta: 0.05}, {D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05, MinPairs: -1}} {
		if bad.Check() == nil {
			t.Errorf("Check(%+v) passed", bad)
		}
	}
}

// TestVerdictRunningSPRT: a sequential match not yet decided says where
// its LLR stands against the test's bounds; a decided one does not.
func TestVerdictRunningSPRT(t *testing.T) {
	base := make([]float64, 10)
	arm := []float64{1, 2, -1, 3, 0, 2, 1, -2, 4, 1}
	s := MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05, MinPairs: 10}
	c := Compare("a", "b", arm, base, 200, 1, 0.95, s)
	lo, hi := s.Bounds()
	if c.LLRLower != lo || c.LLRUpper != hi || lo >= 0 || hi <= 0 {
		t.Fatalf("bounds %g %g, want %g %g", c.LLRLower, c.LLRUpper, lo, hi)
	}
	if v, want := c.Verdict(), "SPRT continue after 10 pairs (LLR +2.08, deciding at -2.94 or +2.94)"; !strings.Contains(v, want) {
		t.Fatalf("verdict %q lacks %q", v, want)
	}
	c = Compare("a", "b", arm[:5], base[:5], 200, 1, 0.95, s)
	if v, want := c.Verdict(), "SPRT continue after 5 pairs (the LLR is read from 10 pairs on, then decides at -2.94 or +2.94)"; !strings.Contains(v, want) {
		t.Fatalf("verdict %q lacks %q", v, want)
	}
	sign := SPRT{P0: 0.5, P1: 0.7, Alpha: 0.05, Beta: 0.05}
	c = Compare("a", "b", arm[:3], base[:3], 200, 1, 0.95, sign)
	if v, want := c.Verdict(), fmt.Sprintf("SPRT continue after 3 pairs (LLR %+.2f, deciding at", sign.LLR(2, 1)); !strings.Contains(v, want) {
		t.Fatalf("verdict %q lacks %q", v, want)
	}
	open := []float64{3, -2, 3, -2, 3, -2, 3, -2, 3, -2, 3, -2} // mean 0.5, halfway: LLR 0
	c = Compare("a", "b", open, make([]float64, len(open)), 200, 1, 0.95, s)
	if v := c.Verdict(); c.SPRT != Continue || !strings.HasSuffix(v, "undecided: the sequential test did not decide in all 12 starts (a sequential match gets no fixed-sample verdict)") {
		t.Fatalf("exhausted test: %s, %q", c.SPRT, v)
	}
	partial := append(append([]float64(nil), open...), math.NaN())
	c = Compare("a", "b", partial, make([]float64, len(partial)), 200, 1, 0.95, s)
	if v := c.Verdict(); !strings.HasSuffix(v, "the sequential test is running; the p and interval above are interim and decide nothing") {
		t.Fatalf("a start left to play: %q", v)
	}
	won := make([]float64, 60)
	for i := range won {
		won[i] = float64(1 + i%3)
	}
	c = Compare("a", "b", won, make([]float64, 60), 200, 1, 0.95, s)
	if c.SPRT != AcceptH1 || strings.Contains(c.Verdict(), "deciding at") {
		t.Fatalf("decided match: %s, %q", c.SPRT, c.Verdict())
	}
}

// TestFormatPSide: a p near a threshold gets the digits that tell its
// side.
func TestFormatPSide(t *testing.T) {
	for p, want := range map[float64]string{0.0496: "0.0496", 0.0504: "0.0504", 0.05: "0.05", 0.0499999: "0.05", 0.00996: "0.00996",
		0.051: "0.051", 0.047: "0.047", 0.5: "0.5"} {
		got := FormatP(p)
		if p == 0.0499999 {
			want = "0.0499999"
		}
		if got != want {
			t.Errorf("FormatP(%g) = %q, want %q", p, got, want)
		}
	}
}

// TestVerdictAgrees: the verdict's conclusion never contradicts the
// interval printed beside it, and says which test decided.
func TestVerdictAgrees(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      Comparison
		wanted string
	}{
		{"both", Comparison{N: 40, P: 0.001, PHolm: 0.001, Diff: Interval{Estimate: 1, Lo: 0.5, Hi: 1.5}}, ": better"},
		{"worse", Comparison{N: 40, P: 0.001, PHolm: 0.001, Diff: Interval{Estimate: -1, Lo: -1.5, Hi: -0.5}}, ": worse"},
		// The case: 4 wins of 4, interval above 0, exact p 0.125.
		{"rank test only fails", Comparison{N: 4, Wins: 4, P: 0.125, PHolm: 0.125, Diff: Interval{Estimate: 1.5, Lo: 1, Hi: 2}},
			": not decided: the rank test does not reach p < 0.05 though the mean's interval excludes 0; more starts needed"},
		{"interval only fails", Comparison{N: 40, P: 0.01, PHolm: 0.01, Diff: Interval{Estimate: 0.4, Lo: -0.1, Hi: 0.9}},
			": better by the rank test (p < 0.05), though the mean's interval includes 0"},
		{"neither", Comparison{N: 40, P: 0.4, PHolm: 0.4, Diff: Interval{Estimate: 0.4, Lo: -0.5, Hi: 1.3}},
			": no difference detected (p ≥ 0.05; the interval allows -0.50 to +1.30 lines)"},
		{"sequential stop", Comparison{N: 23, P: 0.001, PHolm: 0.001, SPRT: AcceptH1, SPRTPairs: 23, H0: "win rate 0.5", H1: "win rate 0.7", Stopped: true,
			Diff: Interval{Estimate: 1, Lo: 0.5, Hi: 1.5}},
			"the sequential test stopped the match after 23 pairs, accepting win rate 0.7 against win rate 0.5: better (no fixed-sample p or interval after a sequential stop)"},
	} {
		tc.c.Arm, tc.c.Baseline = "a", "b"
		v := tc.c.Verdict()
		if !strings.Contains(v, tc.wanted) || strings.Contains(v, "\n") {
			t.Errorf("%s: %q, want %q", tc.name, v, tc.wanted)
		}
		if tc.c.Stopped && (strings.Contains(v, "Wilcoxon") || strings.Contains(v, "[+")) {
			t.Errorf("%s: a fixed-sample p or interval after a sequential stop: %q", tc.name, v)
		}
	}
}

// TestAdjust: a family's p-values are Holm's and its family intervals are
// at the Bonferroni level, wider than each alone, beside each comparison's
// own interval, which is kept; one comparison is left; verdicts read the
// family interval.
func TestAdjust(t *testing.T) {
	base := []float64{10, 12, 9, 14, 11, 13, 10, 12, 15, 9}
	arm1 := []float64{12, 13, 10, 15, 13, 15, 11, 14, 16, 10}
	arm2 := []float64{9, 13, 9, 13, 12, 12, 11, 12, 14, 10}
	one := []Comparison{Compare("a", "b", arm1, base, 2000, 1, 0.95, nil)}
	Adjust(one, 2000, 1, 0.95)
	if one[0].PHolm != one[0].P || one[0].Diff.Level != 0.95 || one[0].Family != 1 || one[0].FamilyDiff != nil {
		t.Fatalf("one comparison adjusted: %+v", one[0])
	}
	cs := []Comparison{Compare("a", "b", arm1, base, 2000, 1, 0.95, nil), Compare("c", "b", arm2, base, 2000, 1, 0.95, nil)}
	Adjust(cs, 2000, 1, 0.95)
	holm := Holm([]float64{cs[0].P, cs[1].P})
	for i, c := range cs {
		if c.PHolm != holm[i] || c.Family != 2 || c.Diff.Level != 0.95 || c.FamilyDiff == nil || c.FamilyDiff.Level != 0.975 {
			t.Fatalf("comparison %d: PHolm %g (want %g), family %d, own level %g, family interval %+v", i, c.PHolm, holm[i], c.Family, c.Diff.Level, c.FamilyDiff)
		}
		if i == 0 && (c.Diff != one[0].Diff || c.FamilyDiff.Hi-c.FamilyDiff.Lo < one[0].Diff.Hi-one[0].Diff.Lo) {
			t.Errorf("own interval %+v (alone %+v), family interval %+v: not kept, or the family's narrower", c.Diff, one[0].Diff, *c.FamilyDiff)
		}
		if c.VerdictInterval() != *c.FamilyDiff || !strings.Contains(c.Verdict(), fmt.Sprintf("[%+.2f, %+.2f] (family-wide, 97.5%% each)", c.FamilyDiff.Lo, c.FamilyDiff.Hi)) {
			t.Errorf("verdict %q does not read the family interval %+v", c.Verdict(), *c.FamilyDiff)
		}
	}
	if one[0].VerdictInterval() != one[0].Diff {
		t.Error("one comparison's verdict does not read its own interval")
	}
}
