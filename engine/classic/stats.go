package classic

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Stats summarises the games of one agent at one board size.
type Stats struct {
	Agent      string
	Rows, Cols int
	N          int
	// Mean, Median (of two middle values for even N, as tetr-ai prints it)
	// and Median/ln2 (the mean of an exponential with that median) of lines.
	Mean, Median, MedianLn2 float64
	// SD is the sample standard deviation; CILo..CIHi the 95% normal
	// confidence interval of the mean (mean ± 1.96 SD/√N).
	SD, CILo, CIHi float64
	// MeanPieces is the mean number of pieces.
	MeanPieces float64
	// Exponential-shape check: CV = SD/Mean is 1 for an exponential; KS is
	// the Kolmogorov-Smirnov distance between the lines and an exponential
	// of the same mean (continuity-corrected for integer counts), and
	// KSCrit the Lilliefors 5% critical value 1.06/√N for an estimated
	// mean. Exponential reports KS < KSCrit.
	CV, KS, KSCrit float64
	Exponential    bool
}

// Summarize groups records by agent and board size (sorted by agent, cols,
// rows) and computes their statistics.
func Summarize(recs []Result) []Stats {
	type key struct {
		agent      string
		rows, cols int
	}
	groups := map[key][]Result{}
	for _, r := range recs {
		k := key{r.Agent, r.Rows, r.Cols}
		groups[k] = append(groups[k], r)
	}
	var out []Stats
	for k, g := range groups {
		lines := make([]float64, len(g))
		var pieces float64
		for i, r := range g {
			lines[i] = float64(r.Lines)
			pieces += float64(r.Pieces)
		}
		s := Describe(lines)
		s.Agent, s.Rows, s.Cols = k.agent, k.rows, k.cols
		s.MeanPieces = pieces / float64(len(g))
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Stats) int {
		return cmp.Or(cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Cols, b.Cols), cmp.Compare(a.Rows, b.Rows))
	})
	return out
}

// Describe computes the statistics of a sample of line counts (fields other
// than Agent, Rows, Cols and MeanPieces). The sum runs in sorted order, so
// the result does not depend on the order of xs.
func Describe(xs []float64) Stats {
	n := len(xs)
	s := Stats{N: n}
	if n == 0 {
		return s
	}
	v := slices.Clone(xs)
	slices.Sort(v)
	var sum float64
	for _, x := range v {
		sum += x
	}
	s.Mean = sum / float64(n)
	if n%2 == 1 {
		s.Median = v[n/2]
	} else {
		s.Median = (v[n/2-1] + v[n/2]) / 2
	}
	s.MedianLn2 = s.Median / math.Ln2
	if n > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(ss / float64(n-1))
	}
	half := 1.96 * s.SD / math.Sqrt(float64(n))
	s.CILo, s.CIHi = s.Mean-half, s.Mean+half
	if s.Mean > 0 {
		s.CV = s.SD / s.Mean
		// KS distance at the steps of the empirical CDF; integer counts
		// are compared with the exponential at x+0.5.
		for i := 0; i < n; {
			j := i
			for j < n && v[j] == v[i] {
				j++
			}
			f := 1 - math.Exp(-(v[i]+0.5)/s.Mean)
			fPrev := 1 - math.Exp(-(v[i]-0.5)/s.Mean)
			s.KS = max(s.KS, math.Abs(float64(j)/float64(n)-f), math.Abs(float64(i)/float64(n)-max(fPrev, 0)))
			i = j
		}
	}
	s.KSCrit = 1.06 / math.Sqrt(float64(n))
	s.Exponential = s.KS < s.KSCrit
	return s
}

// FormatStats renders statistics as an aligned text table.
func FormatStats(st []Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %4s %4s %5s %14s %12s %14s %25s %6s %6s %s\n",
		"agent", "cols", "rows", "n", "mean", "median", "median/ln2", "95% CI", "CV", "KS", "exp")
	for _, s := range st {
		fmt.Fprintf(&b, "%-12s %4d %4d %5d %14.2f %12.1f %14.2f %12.1f..%-12.1f %6.3f %6.4f %v\n",
			s.Agent, s.Cols, s.Rows, s.N, s.Mean, s.Median, s.MedianLn2, s.CILo, s.CIHi, s.CV, s.KS, s.Exponential)
	}
	return b.String()
}

// Published is one row of tetr-ai's README table (1000 seeds per height,
// seeds R*1000 .. R*1000+999, width 10).
type Published struct {
	Rows                    int
	Mean, Median, MedianLn2 float64
}

// TetrAIPublished is tetr-ai v2.0's per-height table, heights 5..17.
var TetrAIPublished = []Published{
	{5, 26.85, 18.0, 25.97},
	{6, 90.07, 65.5, 94.50},
	{7, 272.31, 182.0, 262.57},
	{8, 825.20, 573.5, 827.39},
	{9, 2670.43, 1791.0, 2583.87},
	{10, 7519.81, 4942.5, 7130.52},
	{11, 21551.13, 15461.5, 22306.23},
	{12, 68485.57, 46994.5, 67798.73},
	{13, 196402.45, 137416.0, 198249.38},
	{14, 577329.26, 408859.0, 589858.85},
	{15, 1713508.46, 1196521.5, 1726215.63},
	{16, 4814532.13, 3327912.5, 4801162.86},
	{17, 12649009.52, 9280883.0, 13389483.88},
}

// TetrAIPredicted is tetr-ai's README fit prediction of the mean at heights
// 18, 19 and 20.
var TetrAIPredicted = map[int]float64{18: 36515278.30, 19: 100457853.25, 20: 273537447.00}
