package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/stats"
)

func TestStudyPlaysThenReadsBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "m.jsonl")
	spec := Spec{File: file, Arms: "hand,score", Suite: "openings:3:8:1", BeamWidth: 20, Quiescence: true}
	first, err := Study(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Games) != 6 {
		t.Fatalf("%d games, want 6", len(first.Games))
	}
	data, _ := os.ReadFile(file)
	again, err := Study(spec)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(data) {
		t.Fatal("reading a finished match back changed its file")
	}
	if a, b := first.Standings.Comparisons()[0], again.Standings.Comparisons()[0]; a.Diff.Estimate != b.Diff.Estimate || a.P != b.P {
		t.Fatalf("read back %+v, played %+v", b, a)
	}
	loaded, err := Load(file, "hand")
	if err != nil {
		t.Fatal(err)
	}
	if c := loaded.Standings.Comparisons()[0]; c.Arm != "score" || c.N != 3 {
		t.Fatalf("loaded %+v", c)
	}
	// Another beam width is refused rather than mixed in.
	spec.BeamWidth = 30
	if _, err := Study(spec); err == nil || !strings.Contains(err.Error(), "beam width") {
		t.Fatalf("a match of another width was mixed in: %v", err)
	}
	tab := Table(again)
	if len(tab.Rows) != 2 || tab.Rows[0][3] != "baseline" {
		t.Fatalf("table %v", tab.Rows)
	}
	if v := string(Verdicts(again)); !strings.Contains(v, "score vs hand") {
		t.Fatalf("verdicts %q", v)
	}
	svg, err := Chart(again, "score")
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("chart: %v", err)
	}
	if _, err := Chart(again, "nnue"); err == nil {
		t.Fatal("a chart of an arm that did not play")
	}
}

func TestPValue(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{0.047, "0.047"},
		{0.41079, "0.41"},
		{0.001452, "0.0015"}, // two significant figures, not 0.001
		{2e-4, "0.0002"},
		{4.6e-5, "4.6·10⁻⁵"},
		{1e-12, "10⁻¹²"},
		{7.2e-16, "< 10⁻¹²"}, // a table cell that is not float noise
	} {
		if got := pValue(tc.p); got != tc.want {
			t.Errorf("pValue(%g) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestAcross(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, w := range []int{10, 20} {
		f := filepath.Join(dir, fmt.Sprintf("m-w%d.jsonl", w))
		if _, err := Study(Spec{File: f, Arms: "hand,score", Suite: "openings:3:8:1", BeamWidth: w, Quiescence: true}); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	tab, err := Across("hand", "score", files...)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 || !strings.Contains(tab.Title, "with quiescence") {
		t.Fatalf("title %q rows %v", tab.Title, tab.Rows)
	}
	for i, w := range []string{"10", "20"} {
		// The expected cells from the games themselves.
		res, _ := Load(files[i], "hand")
		score := map[string]map[int]int{}
		for _, g := range res.Games {
			if score[g.Arm] == nil {
				score[g.Arm] = map[int]int{}
			}
			score[g.Arm][g.Start] = g.Score
		}
		var sumH, sumS, wins, losses, ties int
		for start, h := range score["hand"] {
			s := score["score"][start]
			sumH, sumS = sumH+h, sumS+s
			switch {
			case s > h:
				wins++
			case s < h:
				losses++
			default:
				ties++
			}
		}
		want := []string{filepath.Base(files[i]), "openings:3:8:1", w, "3", fmt.Sprintf("%.2f", float64(sumH)/3),
			fmt.Sprintf("%.2f", float64(sumS)/3), fmt.Sprintf("%+.2f", float64(sumS-sumH)/3), "",
			fmt.Sprint(wins), fmt.Sprint(losses), fmt.Sprint(ties)}
		row := tab.Rows[i]
		for k, c := range want {
			if k != 7 && row[k] != c {
				t.Fatalf("row %d column %q: %q, want %q (row %v)", i, tab.Headers[k], row[k], c, row)
			}
		}
		if !strings.HasPrefix(row[7], "[") || row[11] == "" {
			t.Fatalf("row %d: interval %q, p %q", i, row[7], row[11])
		}
	}
	for _, arm := range []string{"nnue", "hand"} { // absent; the baseline itself
		if _, err := Across("hand", arm, files...); err == nil || !strings.Contains(err.Error(), "no arm") {
			t.Fatalf("arm %q: %v", arm, err)
		}
	}
	if _, err := Across("score2", "score", files[0]); err == nil {
		t.Fatal("a baseline that did not play was accepted")
	}
	if _, err := Across("hand", "score"); err == nil || !strings.Contains(err.Error(), "no match file") {
		t.Fatalf("no file: %v", err)
	}
	noq := filepath.Join(dir, "m-noq.jsonl")
	if _, err := Study(Spec{File: noq, Arms: "hand,score", Suite: "openings:3:8:1", BeamWidth: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := Across("hand", "score", files[0], noq); err == nil || !strings.Contains(err.Error(), "quiescence") {
		t.Fatalf("quiescence mixed in: %v", err)
	}
}

// TestRegimes: a row per comparison with its short-game and deep cells,
// each that file's paired comparison (checked against Across, which
// computes one file's); a missing arm is an error naming the file.
func TestRegimes(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.jsonl")
	deep := filepath.Join(dir, "deep.jsonl")
	if _, err := Study(Spec{File: short, Arms: "hand,score,tuned", Suite: "openings:3:8:1", BeamWidth: 10, Quiescence: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Study(Spec{File: deep, Arms: "hand,score,tuned", Suite: "openings:4:12:2", BeamWidth: 20, Quiescence: true}); err != nil {
		t.Fatal(err)
	}
	tab, err := Regimes(deep, Regime{Arm: "score", Baseline: "hand", Short: short}, Regime{Arm: "hand", Baseline: "tuned", Short: short, Label: "D&F"},
		Regime{Arm: "score", Baseline: "hand", Short: short, DeepArm: "tuned", DeepBaseline: "score"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3 || tab.Rows[1][0] != "D&F" || tab.Rows[0][2] != "short.jsonl (10)" || !strings.Contains(tab.Title, "deep.jsonl (openings:4:12:2, 4 starts, beam width 20)") {
		t.Fatalf("title %q rows %v", tab.Title, tab.Rows)
	}
	for i, r := range []struct{ base, arm string }{{"hand", "score"}, {"tuned", "hand"}} {
		for k, f := range []string{short, deep} {
			a, err := Across(r.base, r.arm, f)
			if err != nil {
				t.Fatal(err)
			}
			ar := a.Rows[0] // starts, difference, interval, wins, losses, p at 3, 6, 7, 8, 9, 11
			got := tab.Rows[i][3+4*k : 7+4*k]
			want := []string{ar[3], ar[6] + " " + ar[7], ar[8] + "–" + ar[9], ar[11]}
			if !slices.Equal(got, want) {
				t.Fatalf("row %d file %d: %v, want %v", i, k, got, want)
			}
		}
	}
	// The third row: score against hand in the short file, tuned against score in the deep one.
	a, _ := Across("score", "tuned", deep)
	if got, want := tab.Rows[2][8], a.Rows[0][6]+" "+a.Rows[0][7]; got != want {
		t.Fatalf("deep arm names: %q, want %q", got, want)
	}
	if _, err := Regimes(deep, Regime{Arm: "nnue", Baseline: "hand", Short: short}); err == nil || !strings.Contains(err.Error(), "short.jsonl: no arm") {
		t.Fatalf("missing arm: %v", err)
	}
	if _, err := Regimes(deep); err == nil {
		t.Fatal("no rows accepted")
	}
}

// TestSequentialTable: the committed match the sequential test stopped
// (the teacher run's match 3), read back with its test, shows the test's
// verdict and no fixed-sample interval or p; without it, the fixed-sample
// ones.
func TestSequentialTable(t *testing.T) {
	const file = "datasets/arena/teacher-records-sprt-w1000.jsonl"
	res, err := Load(file, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	plain := Table(res).Text()
	res.WithSequential(stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05})
	seq, verdicts := Table(res).Text(), string(Verdicts(res))
	if !res.Stopped || !strings.Contains(seq, "sequential") || strings.Contains(seq, "0.0011") ||
		!strings.Contains(verdicts, "stopped the match after 219 pairs, accepting mean +1 lines") {
		t.Errorf("read with its test:\n%s\n%s", seq, verdicts)
	}
	if !strings.Contains(plain, "0.0011") || strings.Contains(plain, "sequential") {
		t.Errorf("read without it:\n%s", plain)
	}
}

// TestSequentialComplete: a file that holds every game of its suite was not
// stopped by a sequential test, even one that would decide on its first
// pairs: its verdicts stay fixed-sample ones, with the test's beside them.
func TestSequentialComplete(t *testing.T) {
	res, err := Load("datasets/arena/teacher-openings-w10000.jsonl", "tuned")
	if err != nil {
		t.Fatal(err)
	}
	res.WithSequential(stats.MeanSPRT{D0: 0, D1: 50, Alpha: 0.05, Beta: 0.05})
	c := res.Comparisons()[0]
	if res.Stopped || c.SPRT != stats.AcceptH0 || c.SPRTPairs != stats.DefaultMinPairs {
		t.Fatalf("stopped %v, %s after %d pairs", res.Stopped, c.SPRT, c.SPRTPairs)
	}
	if v := c.Verdict(); !strings.Contains(v, "Wilcoxon p = 0.0017, SPRT H0 after 20 pairs: better") {
		t.Errorf("verdict %q", v)
	}
}

// TestCountedOnce: the teacher run's match 3, whose suite repeats starts,
// read with each distinct start counted once: 221 pairs, 213 distinct,
// and its test would not have decided on them; an openings match repeats none.
func TestCountedOnce(t *testing.T) {
	res, err := Load("datasets/arena/teacher-records-sprt-w1000.jsonl", "tuned")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := CountedOnce(res, stats.MeanSPRT{D0: 0, D1: 1, Alpha: 0.01, Beta: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 || fmt.Sprint(tab.Rows[0][1:5]) != "[221 213 +1.49 –]" || tab.Rows[0][5] != "continue" || tab.Rows[0][6] != "213" {
		t.Errorf("match 3 counted once:\n%s", tab.Text())
	}
	res.Header.Suite = "000000000000"
	if _, err := CountedOnce(res, nil); err == nil || !strings.Contains(err.Error(), "rebuilds to ID 5e36d5a9729a with 600 starts, the match file says 000000000000") {
		t.Errorf("a match file whose suite rebuilds to another ID: %v", err)
	}
	if res, err = Load("datasets/arena/teacher-openings-w10000.jsonl", "tuned"); err != nil {
		t.Fatal(err)
	}
	if tab, err = CountedOnce(res, nil); err != nil || fmt.Sprint(tab.Rows[0][1:3]) != "[100 100]" || tab.Rows[0][5] != "" {
		t.Errorf("an openings match counted once: %v\n%s", err, tab.Text())
	}
}
