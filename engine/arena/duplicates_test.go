package arena

import (
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/stats"
)

func TestDuplicates(t *testing.T) {
	var a, b hatetris.Well
	a[19] = 0b0111111110
	b[19] = 0b0111111100
	hist := []hatetris.Well{a, b}
	for _, tc := range []struct {
		name   string
		starts []Start
		want   []int
	}{
		{"none", []Start{{Well: a}, {Well: b}}, []int{-1, -1}},
		{"same well", []Start{{Well: a}, {Well: b}, {Well: a}, {Well: a}}, []int{-1, -1, 0, 0}},
		{"other score", []Start{{Well: a, Score: 1}, {Well: a, Score: 2}}, []int{-1, -1}},
		{"other tie seed", []Start{{Well: a, TieSeed: 1}, {Well: a, TieSeed: 2}}, []int{-1, -1}},
		{"other memory, same length", []Start{{Well: a, History: hist[:1]}, {Well: a, History: hist[1:]}}, []int{-1, -1}},
		{"other memory length", []Start{{Well: a, History: hist[:1]}, {Well: a, History: hist}}, []int{-1, -1}},
		{"same memory, other backing", []Start{{Well: a, History: hist}, {Well: b}, {Well: a, History: []hatetris.Well{a, b}}}, []int{-1, -1, 0}},
		{"label ignored", []Start{{Well: a, Label: "x"}, {Well: a, Label: "y"}}, []int{-1, 0}},
	} {
		s := &Suite{Starts: tc.starts}
		got := Duplicates(s)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: Duplicates = %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		n := 0
		for _, j := range tc.want {
			if j >= 0 {
				n++
			}
		}
		if c := CountDuplicates(s); c != n {
			t.Errorf("%s: CountDuplicates = %d, want %d", tc.name, c, n)
		}
	}
}

// A records: suite draws with replacement, and records that open alike
// share wells: records:600:4621 holds 72 starts that repeat an earlier one
// (528 distinct), some of them the same position reached in two records
// (start 596, knewjade's second record at piece 17, is start 203,
// Deasuke's at piece 17).
func TestRecordSuiteDuplicates(t *testing.T) {
	s, err := ParseSuite("records:600:4621", nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Duplicates(s)
	if n := CountDuplicates(s); n != 72 {
		t.Errorf("records:600:4621: %d duplicate starts, want 72", n)
	}
	if d[596] != 203 || s.Starts[596].Label != "record knewjade (2) piece 17" || s.Starts[203].Label != "record Deasuke piece 17" {
		t.Errorf("start 596 (%q) repeats %d, want 203 (%q)", s.Starts[596].Label, d[596], s.Starts[203].Label)
	}
}

func TestCountOnce(t *testing.T) {
	var a, b, c hatetris.Well
	a[19], b[19], c[19] = 0b0111111110, 0b0111111100, 0b0011111100
	suite := &Suite{Starts: []Start{{Well: a}, {Well: b}, {Well: a}, {Well: c}}} // start 2 repeats start 0
	nan := math.NaN()
	sprt := stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct {
		name      string
		base, arm []float64
		seq       stats.Sequential
		want      Once
		err       string
	}{
		{name: "repeat left out", base: []float64{10, 10, 10, 10}, arm: []float64{13, 11, 13, 9},
			want: Once{Arm: "arm", Pairs: 4, Distinct: 3, Mean: 1, P: 0.75}}, // differences 3, 1, -1: W+ 4.5 of 6
		{name: "unplayed start", base: []float64{10, 10, 10, nan}, arm: []float64{12, 10, 12, 9},
			want: Once{Arm: "arm", Pairs: 3, Distinct: 2, Mean: 1, P: 1}},
		{name: "leading run", base: []float64{10, nan, 10, 10}, arm: []float64{12, nan, 12, 14}, seq: sprt,
			want: Once{Arm: "arm", Pairs: 3, Distinct: 2, Mean: 3, P: 0.5, Verdict: stats.Continue, VerdictPairs: 1}},
		{name: "an unplayed repeat does not end the run", base: []float64{10, 10, nan, 10}, arm: []float64{12, 12, nan, 13}, seq: sprt,
			want: Once{Arm: "arm", Pairs: 3, Distinct: 3, Mean: 7.0 / 3, P: 0.25, Verdict: stats.Continue, VerdictPairs: 3}},
		{name: "a repeat scored otherwise", base: []float64{10, 10, 11, 10}, arm: []float64{10, 10, 10, 10},
			err: "base scored 10 on start 0 and 11 on start 2, which repeats it"},
	} {
		st := &Standings{Arms: []string{"base", "arm"}, Starts: 4, Scores: [][]float64{tc.base, tc.arm}}
		got, err := CountOnce(st, suite, tc.seq)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %v, %v", tc.name, got, err)
		}
		g := got[0]
		g.LLR = 0
		if g != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, g, tc.want)
		}
	}
	st := &Standings{Arms: []string{"base", "arm"}, Starts: 3, Scores: [][]float64{{1, 1, 1}, {1, 1, 1}}}
	if _, err := CountOnce(st, suite, nil); err == nil || !strings.Contains(err.Error(), "standings of 3 starts, suite of 4") {
		t.Errorf("standings of another size: %v", err)
	}
}
