package bfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSummaryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	var want []Row
	for _, o := range []Options{{Width: 5, Height: 6}, {Width: 4, Height: 4}, {Width: 10, Height: 3, Rule: RuleClearAboveBar}} {
		res, err := Search(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := AppendSummary(path, res, 2); err != nil {
			t.Fatal(err)
		}
		want = append(want, RowOf(res, 2))
	}
	got, err := ReadSummaryFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		w := want[i]
		w.Seconds = got[i].Seconds // rounded to ms in the file
		if got[i] != w {
			t.Errorf("row %d: %+v, want %+v", i, got[i], w)
		}
	}
	if got[1].Score != -1 || !got[1].Unbounded {
		t.Errorf("width 4 row: %+v", got[1])
	}
	if err := AppendSummary(path, &Result{Truncated: true}, 1); err == nil {
		t.Error("want an error for a truncated search")
	}
}

func FuzzReadSummary(f *testing.F) {
	f.Add(strings.Join(SummaryHeader, ",") + "\n5,6,qntm,4,10,543,4,false,1488,1601,0.033,13447168,2\n")
	f.Add("width\n1\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ReadSummary(strings.NewReader(s))
		if err == nil && rows == nil {
			t.Error("nil rows without an error")
		}
	})
}

// The committed rebuilt games replay to their recorded score and length.
func TestGamesDataset(t *testing.T) {
	f, err := os.Open("../../datasets/bfs/games.jsonl")
	if err != nil {
		t.Fatalf("the committed games: %v", err)
	}
	defer f.Close()
	gs, err := ReadGames(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, gr := range gs {
		if _, err := gr.Game(); err != nil {
			t.Errorf("%dx%d %s: %v", gr.Width, gr.Height, gr.Target, err)
		}
	}
	bad := gs[len(gs)-1]
	bad.Score++
	if _, err := bad.Game(); err == nil {
		t.Error("a wrong score verifies")
	}
}

// datasetDir is the folder of the committed tables.
const datasetDir = "../../datasets/bfs"

// levelFileName is the name of a search's level file in datasets/bfs/levels.
func levelFileName(r Row) string { return fmt.Sprintf("w%d-h%d-%s.csv", r.Width, r.Height, r.Rule) }

// checkTables checks the tables of a dataset folder (summary.csv and
// levels/) and returns the summary rows and every problem found: a
// missing or unreadable summary, a level file named by a row that is
// missing, a level file with no row, a level file whose header or level
// numbers are wrong, or whose totals, peak, best score or length disagree
// with its row.
func checkTables(dir string) ([]Row, []error) {
	rows, err := ReadSummaryFile(filepath.Join(dir, "summary.csv"))
	if err != nil {
		return nil, []error{fmt.Errorf("the summary: %w", err)}
	}
	var errs []error
	if len(rows) == 0 {
		errs = append(errs, fmt.Errorf("the summary has no rows"))
	}
	named := map[string]bool{}
	for _, r := range rows {
		named[levelFileName(r)] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "levels", "*.csv"))
	if err != nil {
		return rows, append(errs, err)
	}
	for _, f := range files {
		if !named[filepath.Base(f)] {
			errs = append(errs, fmt.Errorf("level file %s has no row in summary.csv", filepath.Base(f)))
		}
	}
	header := strings.Join(LevelsHeader, ",")
	for _, r := range rows {
		what := fmt.Sprintf("%dx%d %s", r.Width, r.Height, r.Rule)
		b, err := os.ReadFile(filepath.Join(dir, "levels", levelFileName(r)))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: the level file of a summary row: %w", what, err))
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != header {
			errs = append(errs, fmt.Errorf("%s: level file header %q, want %q", what, lines[0], header))
			continue
		}
		var states, children, peak int64
		peakAt, best, last := 0, -1, 0
		bad := false
		for i, line := range lines[1:] {
			var d, bs int
			var s, c int64
			if _, err := fmt.Sscanf(line, "%d,%d,%d,%d", &d, &s, &c, &bs); err != nil || d != i {
				errs = append(errs, fmt.Errorf("%s: level file line %q: %v", what, line, err))
				bad = true
				break
			}
			states, children, best, last = states+s, children+c, max(best, bs), d
			if s > peak {
				peak, peakAt = s, d
			}
		}
		if bad {
			continue
		}
		// A loop's last level (the first repeat) is expanded but its
		// children make no level of the file.
		if states != r.States || children != r.Children && !r.Unbounded || children > r.Children ||
			peak != r.PeakStates || peakAt != r.PeakLevel {
			errs = append(errs, fmt.Errorf("%s: the level file gives states %d children %d peak %d states at level %d; the row %+v",
				what, states, children, peak, peakAt, r))
		}
		if !r.Unbounded && (best != r.Score || last != r.Length) {
			errs = append(errs, fmt.Errorf("%s: the level file gives score %d length %d; the row %+v", what, best, last, r))
		}
	}
	return rows, errs
}

// TestCommittedTables checks datasets/bfs (see checkTables: it fails, not
// skips, when a file is missing) and the anchors of the real game and of
// the old rule.
func TestCommittedTables(t *testing.T) {
	rows, errs := checkTables(datasetDir)
	for _, err := range errs {
		t.Error(err)
	}
	if rows == nil {
		t.FailNow()
	}
	type key struct {
		w, h int
		r    Rule
	}
	anchors := map[key][3]int64{
		{10, 2, RuleQntm}: {0, 4, 21}, {10, 3, RuleQntm}: {0, 6, 310}, {10, 4, RuleQntm}: {1, 11, 9094},
		{10, 5, RuleQntm}: {4, 19, 174585}, {10, 6, RuleQntm}: {8, 31, 4844154},
		{10, 4, RuleClearAboveBar}: {1, 11, 9095}, {10, 5, RuleClearAboveBar}: {4, 19, 174634},
		{10, 6, RuleClearAboveBar}: {8, 31, 4848325},
	}
	for _, r := range rows {
		if a, ok := anchors[key{r.Width, r.Height, r.Rule}]; ok {
			if int64(r.Score) != a[0] || int64(r.Length) != a[1] || r.PeakStates != a[2] {
				t.Errorf("%dx%d %s: (%d, %d, %d), want %v", r.Width, r.Height, r.Rule, r.Score, r.Length, r.PeakStates, a)
			}
			delete(anchors, key{r.Width, r.Height, r.Rule})
		}
	}
	if len(anchors) > 0 {
		t.Errorf("rows missing for the anchors %v", anchors)
	}
}

// TestCheckTablesFails: the table check finds a missing summary, a missing
// level file, a level file with no row and a wrong level file, in a small
// dataset made here (5x6 and 10x4, as the CLI writes them).
func TestCheckTablesFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "levels"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Width: 5, Height: 6}, {Width: 10, Height: 4}} {
		res, err := Search(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := AppendSummary(filepath.Join(dir, "summary.csv"), res, 2); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteLevels(&b, res); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "levels", levelFileName(RowOf(res, 2))), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, errs := checkTables(dir); len(errs) != 0 {
		t.Fatalf("a good dataset: %v", errs)
	}
	file := filepath.Join(dir, "levels", "w5-h6-qntm.csv")
	good, _ := os.ReadFile(file)
	for _, tc := range []struct {
		name  string
		spoil func() error
		want  string
	}{
		{"a missing level file", func() error { return os.Remove(file) }, "the level file of a summary row"},
		{"a level file with no row", func() error {
			return os.WriteFile(filepath.Join(dir, "levels", "w7-h3-qntm.csv"), good, 0o644)
		}, "has no row"},
		{"a wrong level", func() error {
			return os.WriteFile(file, []byte(strings.Replace(string(good), "\n1,", "\n1,9", 1)), 0o644)
		}, "the level file gives states"},
		{"a wrong header", func() error {
			return os.WriteFile(file, []byte(strings.Replace(string(good), "depth", "level", 1)), 0o644)
		}, "header"},
		{"a missing summary", func() error { return os.Remove(filepath.Join(dir, "summary.csv")) }, "the summary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(file, good, 0o644)
			os.Remove(filepath.Join(dir, "levels", "w7-h3-qntm.csv"))
			if err := tc.spoil(); err != nil {
				t.Fatal(err)
			}
			_, errs := checkTables(dir)
			if len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), tc.want) {
				t.Errorf("problems %v, want one saying %q", errs, tc.want)
			}
		})
	}
}

// TestReadLevels: WriteLevels' tables read back; malformed ones are
// refused with one line naming the line.
func TestReadLevels(t *testing.T) {
	res := &Result{Levels: []Level{{0, 1, 0, 0}, {1, 17, 17, 0}, {2, 98, 120, 1}}}
	var b strings.Builder
	if err := WriteLevels(&b, res); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLevels(strings.NewReader(b.String()))
	if err != nil || !slices.Equal(got, res.Levels) {
		t.Fatalf("read back %v, %v; want %v", got, err, res.Levels)
	}
	head := strings.Join(LevelsHeader, ",") + "\n"
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"level,states,children,best\n", "header"},
		{head + "0,1,0\n", "wrong number of fields"},
		{head + "0,1,0,0\n2,5,5,0\n", "line 3: level 2, want 1"},
		{head + "0,-1,0,0\n", "line 2: states -1 is negative"},
		{head + "0,x,0,0\n", "line 2:"},
		{head + "0,1,0,99999999999\n", "line 2:"},
		{head, "no level 0"},
		{head + "\n\n0,1,0,0\n2,5,5,0\n", "line 5: level 2, want 1"},
		{"\"a\nb\",states,children,best_score\n", "header"},
	} {
		_, err := ReadLevels(strings.NewReader(tc.in))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one line with %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadLevels(f *testing.F) {
	f.Add(strings.Join(LevelsHeader, ",") + "\n0,1,0,0\n1,17,17,0\n")
	f.Add("depth\n1\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		levels, err := ReadLevels(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if len(levels) == 0 {
			t.Fatal("no levels without an error")
		}
		for i, l := range levels {
			if l.Level != i || l.States < 0 || l.Children < 0 || l.BestScore < 0 {
				t.Fatalf("accepted level %d: %+v", i, l)
			}
		}
	})
}
