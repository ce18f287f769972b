// Package stats holds the statistics of paired comparisons: the mean
// difference with a bootstrap interval (MeanInterval), the exact Wilcoxon
// signed-rank test (Wilcoxon), Holm's adjustment with intervals of the
// same family-wise level (Adjust), two sequential tests (SPRT on the win
// rate, MeanSPRT on the mean difference, fishtest's GSPRT), p-values
// written for people (FormatP) and a one-line verdict (Comparison).
// engine/arena's matches, the flats experiment and the lab's tables use
// it; it knows nothing of games.
package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"

	"github.com/hatelab/hatelab/internal/humanize"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a point estimate with a bootstrap percentile interval.
type Interval struct {
	Estimate float64 `json:"estimate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	// Level is the coverage (0.95 for a 95% interval); Resamples the
	// number of resamples.
	Level     float64 `json:"level"`
	Resamples int     `json:"resamples"`
}

// MeanInterval returns the mean of xs with a seeded bootstrap percentile
// interval (resamples of xs with replacement; no interval, NaN bounds, when
// resamples < 1 or xs is empty).
func MeanInterval(xs []float64, resamples int, seed uint64, level float64) Interval {
	iv := Interval{Level: level, Lo: math.NaN(), Hi: math.NaN(), Estimate: math.NaN()}
	if len(xs) == 0 {
		return iv
	}
	iv.Estimate = stat.Mean(xs, nil)
	if resamples < 1 {
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0x7061697265))
	means := make([]float64, resamples)
	for k := range means {
		s := 0.0
		for range xs {
			s += xs[rng.IntN(len(xs))]
		}
		means[k] = s / float64(len(xs))
	}
	sort.Float64s(means)
	iv.Resamples = resamples
	q := func(p float64) float64 {
		i := int(math.Floor(p * float64(resamples-1)))
		return means[min(max(i, 0), resamples-1)]
	}
	iv.Lo, iv.Hi = q((1-level)/2), q(1-(1-level)/2)
	return iv
}

// WilcoxonExactMax is the most non-zero differences for which Wilcoxon
// computes the exact null distribution; above it, the normal approximation
// with the tie correction (and a continuity correction) is used.
const WilcoxonExactMax = 400

// Wilcoxon is the two-sided Wilcoxon signed-rank test of paired
// differences d against a symmetric distribution around zero. Zero
// differences are dropped (Wilcoxon's method); tied absolute values get
// their mean rank. With at most WilcoxonExactMax non-zero differences, P is
// exact: the null distribution of W+ is enumerated over all 2^n sign
// patterns of the (mid)ranks, tied ranks included, and P is the
// probability of a W+ at least as far from its mean as the one observed.
// N is the number of non-zero differences and WPlus the sum of the
// positive ones' ranks. With no non-zero difference P is 1.
func Wilcoxon(d []float64) (p, wPlus float64, n int, exact bool) {
	var abs []float64
	var pos []bool
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			abs = append(abs, math.Abs(x))
			pos = append(pos, x > 0)
		}
	}
	n = len(abs)
	if n == 0 {
		return 1, 0, 0, true
	}
	ranks := midranks(abs)
	for i, r := range ranks {
		if pos[i] {
			wPlus += r
		}
	}
	mean := float64(n*(n+1)) / 4
	if n > WilcoxonExactMax {
		return wilcoxonNormal(ranks, wPlus), wPlus, n, false
	}
	// Midranks are multiples of 1/2: count sign patterns by twice the sum.
	total := 0
	twice := make([]int, n)
	for i, r := range ranks {
		twice[i] = int(math.Round(2 * r))
		total += twice[i]
	}
	ways := make([]float64, total+1) // ways[s]: sign patterns with 2·W+ = s
	ways[0] = 1
	reach := 0
	for _, t := range twice {
		for s := reach; s >= 0; s-- {
			if ways[s] != 0 {
				ways[s+t] += ways[s]
			}
		}
		reach += t
	}
	obs := math.Abs(2*wPlus - 2*mean)
	tail := 0.0
	for s, c := range ways {
		// A tolerance of 1/4 in twice-units: sums are integers.
		if math.Abs(float64(s)-2*mean) >= obs-0.25 {
			tail += c
		}
	}
	p = tail / math.Pow(2, float64(n))
	return math.Min(p, 1), wPlus, n, true
}

// PFloor is the smallest p the arena writes as a number (FormatP): below
// it a p is written "< 10⁻¹²". The exact test's p is exact there, but the
// normal approximation's (above WilcoxonExactMax non-zero differences) is
// not accurate that far into the tail, and no decision turns on the
// digits. The JSON reports keep the computed value.
const PFloor = 1e-12

// FormatP writes a p-value for people: two significant figures
// ("0.047", "4.9·10⁻⁵", the project's one number style, never "4.9e-05"),
// more where two would hide on which side of a threshold (Alpha, 0.01) it
// lies ("0.0496", not "0.05"), "< 10⁻¹²" below PFloor, "n/a" for NaN.
func FormatP(p float64) string {
	if math.IsNaN(p) {
		return "n/a"
	}
	if p < PFloor {
		return "< " + humanize.Sci(strconv.FormatFloat(PFloor, 'g', -1, 64))
	}
	for digits := 2; ; digits++ {
		s := strconv.FormatFloat(p, 'g', digits, 64)
		if digits >= 6 || !hidesSide(p, s) {
			return humanize.Sci(s)
		}
	}
}

// hidesSide reports whether s, p rounded, reads as on the other side of
// a threshold than p, or as the threshold itself when p is not.
func hidesSide(p float64, s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	for _, t := range []float64{Alpha, 0.01} {
		if (v < t) != (p < t) || (v == t && p != t) {
			return true
		}
	}
	return false
}

// PEquals is "p = X" (FormatP), or "p < 10⁻¹²" below PFloor.
func PEquals(p float64) string {
	if p < PFloor {
		return "p " + FormatP(p)
	}
	return "p = " + FormatP(p)
}

// wilcoxonNormal is the normal approximation of the two-sided p, with the
// variance corrected for ties and a continuity correction of 1/2.
func wilcoxonNormal(ranks []float64, wPlus float64) float64 {
	n := float64(len(ranks))
	mean := n * (n + 1) / 4
	v := 0.0
	for _, r := range ranks {
		v += r * r
	}
	v /= 4
	z := (math.Abs(wPlus-mean) - 0.5) / math.Sqrt(v)
	if z < 0 {
		return 1
	}
	// CDF(-z) is computed with Erfc, accurate far into the tail, where
	// Survival (1 - Erf) loses every digit below about 1e-16.
	return math.Min(1, 2*distuv.UnitNormal.CDF(-z))
}

// midranks returns the ranks of xs (1 = smallest), ties given their mean
// rank.
func midranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	ranks := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		r := float64(i+j+2) / 2
		for k := i; k <= j; k++ {
			ranks[idx[k]] = r
		}
		i = j + 1
	}
	return ranks
}

// Holm adjusts p-values for multiplicity by Holm's step-down method
// (family-wise error rate), in the order given.
func Holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	out := make([]float64, m)
	run := 0.0
	for k, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-k)*ps[i]))
		out[i] = run
	}
	return out
}

// Sequential is a sequential test read along paired differences: it
// stops a match as soon as it decides (SPRT, MeanSPRT).
type Sequential interface {
	// Check reports a test that cannot decide.
	Check() error
	// Decide reads the differences in order and returns the verdict
	// (Continue, AcceptH0, AcceptH1), the pairs read and the LLR.
	Decide(diffs []float64) (verdict string, used int, llr float64)
	// Hypotheses says what H0 and H1 state, for verdicts.
	Hypotheses() (h0, h1 string)
	// Bounds returns Wald's bounds of the LLR: the test accepts H0 at or
	// below lower and H1 at or above upper.
	Bounds() (lower, upper float64)
	// FirstPairs is the number of pairs from which the LLR is read.
	FirstPairs() int
}

// SPRT is a sequential probability ratio test on the win rate among
// non-tied pairs: H0 p = P0 against H1 p = P1, with error rates Alpha
// (accepting H1 when H0 holds) and Beta (accepting H0 when H1 holds).
type SPRT struct {
	P0, P1      float64
	Alpha, Beta float64
}

// DefaultSPRT tests p = 0.5 against p = 0.7 (δ = 0.2) at α = β = 0.05.
func DefaultSPRT(delta float64) SPRT {
	return SPRT{P0: 0.5, P1: 0.5 + delta, Alpha: 0.05, Beta: 0.05}
}

// Check reports a test that cannot decide.
func (s SPRT) Check() error {
	switch {
	case !(s.P0 > 0 && s.P0 < 1 && s.P1 > 0 && s.P1 < 1) || s.P0 == s.P1:
		return fmt.Errorf("sprt: win rates %g and %g: want two different values in (0, 1)", s.P0, s.P1)
	case s.P1 < s.P0: // verdicts read an accepted H1 as "better"
		return fmt.Errorf("sprt: H1's win rate %g below H0's %g: want a gain", s.P1, s.P0)
	case !(s.Alpha > 0 && s.Alpha < 0.5) || !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("sprt: alpha %g, beta %g: want each in (0, 0.5)", s.Alpha, s.Beta)
	}
	return nil
}

// The verdicts of a sequential test.
const (
	Continue = "continue" // neither bound reached
	AcceptH1 = "H1"       // the arm wins more often than P0
	AcceptH0 = "H0"       // the arm does not win at rate P1
)

// Bounds returns the log-likelihood-ratio bounds: below lower accept H0,
// above upper accept H1 (Wald's approximations).
func (s SPRT) Bounds() (lower, upper float64) { return bounds(s.Alpha, s.Beta) }

func bounds(alpha, beta float64) (lower, upper float64) {
	return math.Log(beta / (1 - alpha)), math.Log((1 - beta) / alpha)
}

// Hypotheses implements Sequential.
func (s SPRT) Hypotheses() (h0, h1 string) {
	return fmt.Sprintf("win rate %g", s.P0), fmt.Sprintf("win rate %g", s.P1)
}

// FirstPairs implements Sequential: the win-rate test reads its LLR from
// the first pair on.
func (s SPRT) FirstPairs() int { return 1 }

// LLR is the log-likelihood ratio of H1 against H0 after wins and losses.
func (s SPRT) LLR(wins, losses int) float64 {
	return float64(wins)*math.Log(s.P1/s.P0) + float64(losses)*math.Log((1-s.P1)/(1-s.P0))
}

// Decide runs the test along a sequence of paired differences (in the
// order given; zeros are ties and carry no information) and returns the
// verdict and the number of pairs it read: it stops at the first pair
// whose LLR leaves the bounds.
func (s SPRT) Decide(diffs []float64) (verdict string, used int, llr float64) {
	lo, hi := s.Bounds()
	w, l := 0, 0
	for i, d := range diffs {
		switch {
		case d > 0:
			w++
		case d < 0:
			l++
		}
		llr = s.LLR(w, l)
		if llr >= hi {
			return AcceptH1, i + 1, llr
		}
		if llr <= lo {
			return AcceptH0, i + 1, llr
		}
	}
	return Continue, len(diffs), llr
}

// Comparison is one arm against the baseline over the starts where both
// finished.
type Comparison struct {
	Arm      string  `json:"arm"`
	Baseline string  `json:"baseline"`
	N        int     `json:"n"`
	MeanArm  float64 `json:"mean_arm"`
	MeanBase float64 `json:"mean_baseline"`
	// Diff is the mean of arm − baseline with a bootstrap interval.
	Diff   Interval `json:"diff"`
	Wins   int      `json:"wins"`
	Losses int      `json:"losses"`
	Ties   int      `json:"ties"`
	// P is the exact Wilcoxon signed-rank p (two-sided), PHolm the same
	// after Holm's correction over the match's comparisons.
	P       float64 `json:"p"`
	PHolm   float64 `json:"p_holm"`
	Exact   bool    `json:"exact"`
	WPlus   float64 `json:"w_plus"`
	NonZero int     `json:"non_zero"`
	// SPRT is the sequential verdict (empty when not asked), read along
	// the starts in suite order up to the first start either arm has not
	// finished; SPRTPairs the pairs it read.
	SPRT      string  `json:"sprt,omitempty"`
	SPRTPairs int     `json:"sprt_pairs,omitempty"`
	LLR       float64 `json:"llr,omitempty"`
	// LLRLower and LLRUpper are the test's bounds of the LLR, so that a
	// match still running shows how far it is from a decision.
	LLRLower float64 `json:"llr_lower,omitempty"`
	LLRUpper float64 `json:"llr_upper,omitempty"`
	// LLRFrom is the pairs from which the test reads its LLR (0 without a test).
	LLRFrom int `json:"llr_from,omitempty"`
	// H0 and H1 say what the sequential test's hypotheses state.
	H0 string `json:"sprt_h0,omitempty"`
	H1 string `json:"sprt_h1,omitempty"`
	// Family is the number of comparisons PHolm and FamilyDiff are
	// adjusted over (Adjust; 0 or 1: none).
	Family int `json:"family,omitempty"`
	// FamilyDiff, set by Adjust for a family of two or more, is the mean
	// difference's interval at the family's level (FamilyLevel: together
	// the family's intervals cover at Diff's level); Diff stays the
	// comparison's own interval. Verdicts read FamilyDiff when it is set.
	FamilyDiff *Interval `json:"family_diff,omitempty"`
	// Stopped tells that the sequential test stopped the match: the games
	// played depend on the results, so the fixed-sample p and interval do
	// not hold and the verdict is the sequential test's.
	Stopped bool `json:"stopped_by_sprt,omitempty"`
	// Diffs are the paired differences by start index (NaN: not both
	// finished).
	Diffs []float64 `json:"-"`
}

// Compare pairs the scores of arm and base by start (NaN where a game is
// missing) and computes the comparison: a seeded bootstrap interval of the
// given level, the Wilcoxon p and, when seq is not nil, the sequential
// verdict on the leading run of finished pairs. A family of comparisons
// is adjusted with Adjust.
func Compare(armName, baseName string, arm, base []float64, resamples int, seed uint64, level float64, seq Sequential) Comparison {
	c := Comparison{Arm: armName, Baseline: baseName}
	var diffs, lead []float64
	leading := true
	c.Diffs = make([]float64, len(arm))
	for i := range arm {
		c.Diffs[i] = math.NaN()
		if math.IsNaN(arm[i]) || math.IsNaN(base[i]) {
			leading = false
			continue
		}
		d := arm[i] - base[i]
		c.Diffs[i] = d
		diffs = append(diffs, d)
		if leading {
			lead = append(lead, d)
		}
		c.MeanArm += arm[i]
		c.MeanBase += base[i]
		switch {
		case d > 0:
			c.Wins++
		case d < 0:
			c.Losses++
		default:
			c.Ties++
		}
	}
	c.N = len(diffs)
	if c.N > 0 {
		c.MeanArm /= float64(c.N)
		c.MeanBase /= float64(c.N)
	}
	c.Diff = MeanInterval(diffs, resamples, seed, level)
	c.P, c.WPlus, c.NonZero, c.Exact = Wilcoxon(diffs)
	c.PHolm = c.P
	if seq != nil {
		c.SPRT, c.SPRTPairs, c.LLR = seq.Decide(lead)
		c.H0, c.H1 = seq.Hypotheses()
		c.LLRLower, c.LLRUpper = seq.Bounds()
		c.LLRFrom = seq.FirstPairs()
	}
	return c
}

// FamilyLevel is the level of each of m intervals whose family covers
// at level (Bonferroni: 1 − (1 − level)/m).
func FamilyLevel(level float64, m int) float64 {
	if m <= 1 {
		return level
	}
	return 1 - (1-level)/float64(m)
}

// Adjust makes a family of comparisons (every arm against one baseline)
// agree with itself: PHolm is Holm's adjustment of the p-values over the
// family, and FamilyDiff each interval recomputed (same resamples and
// seed) at FamilyLevel(level, len(cs)), the width at which a family-wise
// verdict and its intervals say the same; Diff keeps the comparison's own
// interval. Family records the size. One comparison is left as it is.
func Adjust(cs []Comparison, resamples int, seed uint64, level float64) {
	ps := make([]float64, len(cs))
	for i, c := range cs {
		ps[i] = c.P
	}
	for i, p := range Holm(ps) {
		cs[i].PHolm = p
		cs[i].Family = len(cs)
	}
	if len(cs) < 2 {
		return
	}
	lv := FamilyLevel(level, len(cs))
	for i := range cs {
		var d []float64
		for _, x := range cs[i].Diffs {
			if !math.IsNaN(x) {
				d = append(d, x)
			}
		}
		iv := MeanInterval(d, resamples, seed, lv)
		cs[i].FamilyDiff = &iv
	}
}

// VerdictInterval is the interval a verdict reads: FamilyDiff when the
// comparison belongs to a family (Adjust), Diff otherwise.
func (c Comparison) VerdictInterval() Interval {
	if c.Family > 1 && c.FamilyDiff != nil {
		return *c.FamilyDiff
	}
	return c.Diff
}

// Alpha is the significance level of a verdict.
const Alpha = 0.05

// Verdict says in one line what the comparison shows and by which test:
// the mean difference with its interval (family-wide when Family > 1),
// the wins, losses and ties, the Wilcoxon p (Holm-adjusted when it
// differs), and a conclusion at level Alpha on the adjusted p, which says
// when the rank test and the interval of the mean disagree. After a
// sequential stop (Stopped) it gives the sequential test's decision
// instead of the fixed-sample p and interval; while the test has not
// decided, its LLR and bounds, and no fixed-sample verdict ("undecided"
// once every start is paired).
func (c Comparison) Verdict() string {
	if c.N == 0 {
		return fmt.Sprintf("%s vs %s: no paired games yet", c.Arm, c.Baseline)
	}
	head := fmt.Sprintf("%s vs %s: %+.2f lines", c.Arm, c.Baseline, c.Diff.Estimate)
	counts := fmt.Sprintf("over %s starts, %s wins %s losses %s ties", humanize.Int(int64(c.N)), humanize.Int(int64(c.Wins)), humanize.Int(int64(c.Losses)), humanize.Int(int64(c.Ties)))
	if c.Stopped && c.SPRT != "" && c.SPRT != Continue {
		accepted, other := c.H1, c.H0
		what := "better"
		if c.SPRT == AcceptH0 {
			accepted, other, what = c.H0, c.H1, "no gain of that size"
		}
		return fmt.Sprintf("%s %s; the sequential test stopped the match after %d pairs, accepting %s against %s: %s (no fixed-sample p or interval after a sequential stop)",
			head, counts, c.SPRTPairs, accepted, other, what)
	}
	p := PEquals(c.P)
	if c.PHolm != c.P {
		p += " (Holm " + FormatP(c.PHolm) + ")"
	}
	d := c.VerdictInterval()
	iv := fmt.Sprintf("[%+.2f, %+.2f]", d.Lo, d.Hi)
	if c.Family > 1 && c.FamilyDiff != nil {
		iv += fmt.Sprintf(" (family-wide, %s each)", strconv.FormatFloat(100*d.Level, 'g', 4, 64)+"%")
	}
	s := fmt.Sprintf("%s %s %s, Wilcoxon %s", head, iv, counts, p)
	if c.SPRT != "" {
		s += fmt.Sprintf(", SPRT %s after %d pairs", c.SPRT, c.SPRTPairs)
	}
	if c.SPRT == Continue {
		if c.SPRTPairs < c.LLRFrom {
			s += fmt.Sprintf(" (the LLR is read from %d pairs on, then decides at %.2f or %+.2f)", c.LLRFrom, c.LLRLower, c.LLRUpper)
		} else {
			s += fmt.Sprintf(" (LLR %+.2f, deciding at %.2f or %+.2f)", c.LLR, c.LLRLower, c.LLRUpper)
		}
		if len(c.Diffs) > 0 && c.SPRTPairs >= len(c.Diffs) {
			return s + fmt.Sprintf(": undecided: the sequential test did not decide in all %d starts (a sequential match gets no fixed-sample verdict)", len(c.Diffs))
		}
		return s + ": the sequential test is running; the p and interval above are interim and decide nothing"
	}
	if math.IsNaN(d.Lo) {
		if c.PHolm < Alpha {
			return s + ": " + map[bool]string{true: "better", false: "worse"}[c.Diff.Estimate > 0]
		}
		return s + ": no difference detected"
	}
	excludes := d.Lo > 0 || d.Hi < 0
	switch {
	case c.PHolm < Alpha && excludes:
		return s + ": " + map[bool]string{true: "better", false: "worse"}[c.Diff.Estimate > 0]
	case c.PHolm < Alpha:
		return s + fmt.Sprintf(": %s by the rank test (p < %g), though the mean's interval includes 0: the size of the difference is not settled",
			map[bool]string{true: "better", false: "worse"}[c.Diff.Estimate > 0], Alpha)
	case excludes:
		return s + fmt.Sprintf(": not decided: the rank test does not reach p < %g though the mean's interval excludes 0; more starts needed", Alpha)
	}
	return s + fmt.Sprintf(": no difference detected (p ≥ %g; the interval allows %+.2f to %+.2f lines)", Alpha, d.Lo, d.Hi)
}
