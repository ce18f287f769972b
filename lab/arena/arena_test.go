package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{0.001, "0.001"},
		{2e-4, "2.0e-04"},
		{1e-12, "1.0e-12"},
		{7.2e-16, "< 1e-12"}, // a table cell that is not float noise
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
	if len(tab.Rows) != 2 {
		t.Fatalf("rows %v", tab.Rows)
	}
	for i, w := range []string{"10", "20"} {
		res, _ := Load(files[i], "hand")
		c := res.Standings.Comparisons()[0]
		row := tab.Rows[i]
		if row[0] != filepath.Base(files[i]) || row[1] != "openings:3:8:1" || row[2] != w || row[3] != "3" ||
			row[6] != fmt.Sprintf("%+.2f", c.Diff.Estimate) || row[11] != pValue(c.P) {
			t.Fatalf("row %d %v, comparison %+v", i, row, c)
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
}
