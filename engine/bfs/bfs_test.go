package bfs

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Anchors: the peer engine and an independent port for the real rule
// (width 10), the blog's corrected tables (widths 5 and 6), and the
// blog's old width-10 and width-8 tables for the clear-above-bar rule.
var anchors = []struct {
	w, h   int
	rule   Rule
	score  int
	length int
	peak   int64
	slow   bool
}{
	{10, 2, RuleQntm, 0, 4, 21, false},
	{10, 3, RuleQntm, 0, 6, 310, false},
	{10, 4, RuleQntm, 1, 11, 9094, false},
	{10, 5, RuleQntm, 4, 19, 174585, true},
	{10, 4, RuleClearAboveBar, 1, 11, 9095, false},
	{10, 5, RuleClearAboveBar, 4, 19, 174634, true},
	// The blog's width-8 table is also the old rule.
	{8, 4, RuleClearAboveBar, 1, 8, 1172, false},
	{8, 5, RuleClearAboveBar, 5, 17, 12447, false},
	{8, 6, RuleClearAboveBar, 6, 21, 159942, true},
	{8, 5, RuleQntm, 3, 13, 12380, false},
	{5, 2, RuleQntm, 0, 1, 3, false},
	{5, 3, RuleQntm, 0, 2, 8, false},
	{5, 4, RuleQntm, 1, 4, 41, false},
	{5, 5, RuleQntm, 3, 7, 134, false},
	{5, 6, RuleQntm, 4, 10, 543, false},
	{5, 7, RuleQntm, 5, 12, 2150, false},
	{5, 8, RuleQntm, 6, 14, 8670, false},
	{5, 9, RuleQntm, 7, 16, 35017, false},
	{5, 10, RuleQntm, 8, 19, 148656, true},
	{5, 4, RuleClearAboveBar, 2, 6, 41, false},
	{5, 6, RuleClearAboveBar, 4, 10, 544, false},
	{5, 7, RuleClearAboveBar, 5, 12, 2161, false},
	{5, 8, RuleClearAboveBar, 6, 15, 8812, false},
	{6, 2, RuleQntm, 0, 2, 4, false},
	{6, 3, RuleQntm, 0, 3, 21, false},
	{6, 4, RuleQntm, 1, 6, 139, false},
	{6, 5, RuleQntm, 2, 8, 679, false},
	{6, 6, RuleQntm, 4, 12, 3973, false},
	{6, 7, RuleQntm, 6, 15, 23126, false},
	{6, 8, RuleQntm, 7, 19, 143175, true},
	{4, 2, RuleQntm, 0, 1, 2, false},
	{4, 3, RuleQntm, 0, 2, 5, false},
}

func TestAnchors(t *testing.T) {
	for _, a := range anchors {
		if a.slow && testing.Short() {
			continue
		}
		res, err := Search(context.Background(), Options{Width: a.w, Height: a.h, Rule: a.rule})
		if err != nil {
			t.Fatalf("%dx%d %v: %v", a.w, a.h, a.rule, err)
		}
		if res.Score != a.score || res.Length != a.length || res.PeakStates != a.peak || res.Unbounded {
			t.Errorf("%dx%d %v: got (%d, %d, %d, unbounded %v), want (%d, %d, %d)", a.w, a.h, a.rule,
				res.Score, res.Length, res.PeakStates, res.Unbounded, a.score, a.length, a.peak)
		}
	}
}

// Width 4 loops under the history-free AI (the blog's "∞" row, max width
// 16 at height 4); heights 2 and 3 end.
func TestLoopsWidth4(t *testing.T) {
	tests := []struct {
		h         int
		unbounded bool
		peak      int64
	}{{2, false, 2}, {3, false, 5}, {4, true, 16}, {5, true, 34}, {6, true, 91}}
	for _, tc := range tests {
		res, err := Search(context.Background(), Options{Width: 4, Height: tc.h})
		if err != nil {
			t.Fatal(err)
		}
		if res.Unbounded != tc.unbounded || res.PeakStates != tc.peak {
			t.Errorf("4x%d: unbounded %v peak %d states, want %v %d", tc.h, res.Unbounded, res.PeakStates, tc.unbounded, tc.peak)
		}
		// After the first piece, a well where the AI's piece can complete
		// and clear one row, leaving the same well: a 1-piece loop.
		if tc.unbounded && (res.LoopPieces != 1 || res.LoopLines != 1 || res.Period < 1) {
			t.Errorf("4x%d: loop %d pieces %d lines, period %d", tc.h, res.LoopPieces, res.LoopLines, res.Period)
		}
	}
}

// Under the real AI (loop rule with history) width 4 no longer loops: the
// game tree is finite and small.
func TestHistorySearchWidth4(t *testing.T) {
	tests := []struct{ h, score, length int }{{2, 0, 1}, {3, 0, 2}, {4, 1, 3}, {5, 1, 4}, {6, 3, 7}, {8, 5, 10}}
	for _, tc := range tests {
		r, err := HistorySearch(context.Background(), HistoryOptions{Width: 4, Height: tc.h})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete || r.Score != tc.score || r.Length != tc.length {
			t.Errorf("4x%d: %+v, want complete (%d, %d)", tc.h, r, tc.score, tc.length)
		}
	}
	// A history-free search and the history search agree where no well
	// can repeat: width 5 (no single-line loop is possible in 4 pieces
	// before... the AIs only differ on repeats).
	r, err := HistorySearch(context.Background(), HistoryOptions{Width: 5, Height: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Score > 4 || r.Length > 10 {
		t.Errorf("5x6 history search %+v exceeds the Mild bounds (4, 10)", r)
	}
	if _, err := HistorySearch(context.Background(), HistoryOptions{Width: 10, Height: 6}); err == nil {
		t.Error("want an error for a large well")
	}
	if r, _ := HistorySearch(context.Background(), HistoryOptions{Width: 4, Height: 10, MaxNodes: 100}); r == nil || r.Complete {
		t.Errorf("budget: %+v", r)
	}
}

// The result is the same for any number of workers, and so are the level
// files (byte for byte).
func TestDeterminism(t *testing.T) {
	var files [][]byte
	for _, nw := range []int{1, 2, 3} {
		dir := t.TempDir()
		res, err := Search(context.Background(), Options{Width: 6, Height: 6, Workers: nw, LevelDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if res.PeakStates != 3973 {
			t.Fatalf("workers %d: peak %d states", nw, res.PeakStates)
		}
		b, err := os.ReadFile(levelPath(dir, res.PeakLevel))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	for i := 1; i < len(files); i++ {
		if !bytes.Equal(files[0], files[i]) {
			t.Errorf("level file differs between worker counts")
		}
	}
}

// Rebuilt games replay in the engine to the searched score and length.
func TestReconstruct(t *testing.T) {
	tests := []struct {
		w, h   int
		rule   Rule
		target Target
		score  int
		length int
	}{
		{5, 8, RuleQntm, Longest, -1, 14},
		{5, 8, RuleQntm, HighestScoring, 6, -1},
		{10, 4, RuleQntm, Longest, -1, 11},
		{10, 4, RuleQntm, HighestScoring, 1, -1},
		{5, 8, RuleClearAboveBar, Longest, -1, 15},
		{6, 6, RuleQntm, HighestScoring, 4, -1},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		if _, err := Search(context.Background(), Options{Width: tc.w, Height: tc.h, Rule: tc.rule, LevelDir: dir}); err != nil {
			t.Fatal(err)
		}
		g, err := Reconstruct(dir, tc.target)
		if err != nil {
			t.Fatalf("%dx%d: %v", tc.w, tc.h, err)
		}
		if tc.score >= 0 && g.Score != tc.score || tc.length >= 0 && g.Length != tc.length {
			t.Errorf("%dx%d %v: game score %d length %d", tc.w, tc.h, tc.target, g.Score, g.Length)
		}
		if err := g.Verify(); err != nil {
			t.Error(err)
		}
		g.Keys = g.Keys[:len(g.Keys)-1]
		if g.Verify() == nil {
			t.Error("a truncated replay verifies")
		}
	}
}

// A search from a given well equals the sub-search of the empty well's
// tree: from a level-3 state of 5x6, the length is at most 10-3.
func TestSearchFromWell(t *testing.T) {
	rules, _ := NewRules(5, 6, RuleQntm)
	g := hatetris.NewGenerator(rules)
	var w hatetris.Well
	_, rs := g.Move(&w, hatetris.Mild, nil, nil)
	start := rs[0].Well
	res, err := Search(context.Background(), Options{Width: 5, Height: 6, Start: &start, StartScore: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Length > 9 || res.Length < 1 || res.Score < 2 || res.Score > 6 {
		t.Errorf("from a child of the empty well: %+v", res)
	}
	over := start
	over[0] = 1
	if _, err := Search(context.Background(), Options{Width: 5, Height: 6, Start: &over}); err == nil {
		t.Error("want an error for a well with blocks above the bar")
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, sz := range [][2]int{{4, 4}, {10, 6}, {10, 7}, {10, 8}, {16, 5}, {6, 14}} {
		c, err := newCodec(sz[0], sz[1], Bar)
		if err != nil {
			t.Fatal(err)
		}
		rng := uint64(12345)
		for i := 0; i < 2000; i++ {
			var w hatetris.Well
			for r := 0; r < sz[1]; r++ {
				rng = mix(rng + 1)
				w[Bar+r] = uint16(rng & c.rowMask)
			}
			p, word := c.encode(&w)
			if int(p) >= c.parts() {
				t.Fatalf("partition %d out of range", p)
			}
			var back hatetris.Well
			c.decode(p, word, &back)
			if back != w {
				t.Fatalf("%v: round trip %v -> %v", sz, w, back)
			}
		}
	}
	if _, err := newCodec(16, 12, Bar); err == nil {
		t.Error("want an error for a too large well")
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"qntm", "clear-above-bar", "old", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err == nil {
			if r2, err := ParseRule(r.String()); err != nil || r2 != r {
				t.Errorf("%q: %v does not round trip", s, r)
			}
		}
	})
}

// Disk mode (levels in files, children spilled over a tiny budget) gives
// the same levels and the same level files as the in-memory search. The
// budgets make the three workers spill some seven times in all a search
// (a spill writes up to 256 partition files: the cost of this test).
func TestSpill(t *testing.T) {
	for _, sz := range [][3]int{{10, 4, 1 << 17}, {5, 8, 1 << 16}} {
		memDir, diskDir := t.TempDir(), t.TempDir()
		a, err := Search(context.Background(), Options{Width: sz[0], Height: sz[1], LevelDir: memDir})
		if err != nil {
			t.Fatal(err)
		}
		spill := t.TempDir()
		b, err := Search(context.Background(), Options{Width: sz[0], Height: sz[1], LevelDir: diskDir, SpillDir: spill, MemoryBudget: int64(sz[2]), Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Levels) != len(b.Levels) || a.PeakStates != b.PeakStates || a.Score != b.Score || a.Length != b.Length {
			t.Fatalf("%v: memory %+v, disk %+v", sz, a, b)
		}
		for i := range a.Levels {
			if a.Levels[i] != b.Levels[i] {
				t.Errorf("%v level %d: %+v vs %+v", sz, i, a.Levels[i], b.Levels[i])
			}
			x, _ := os.ReadFile(levelPath(memDir, i))
			y, _ := os.ReadFile(levelPath(diskDir, i))
			if !bytes.Equal(x, y) {
				t.Errorf("%v level %d: files differ", sz, i)
			}
		}
		if ents, _ := os.ReadDir(spill); len(ents) != 0 {
			t.Errorf("spill folder not cleaned: %d entries", len(ents))
		}
	}
}

// Every child of every state of a small search passes the reconstruction
// filter (it may only reject impossible parents).
func TestWindowFilter(t *testing.T) {
	for _, rule := range []Rule{RuleQntm, RuleClearAboveBar} {
		rules, _ := NewRules(6, 6, rule)
		g := hatetris.NewGenerator(rules)
		cur := map[hatetris.Well]bool{{}: true}
		n := 0
		for len(cur) > 0 {
			next := map[hatetris.Well]bool{}
			for w := range cur {
				_, rs := g.Move(&w, hatetris.Mild, nil, nil)
				for _, r := range rs {
					if r.GameOver {
						continue
					}
					n++
					if !window(&w, &r.Well, r.Lines, rules.Depth) || r.Lines == 0 && !subset(&w, &r.Well) {
						t.Fatalf("filter rejects a real move (%d lines):\n%s\n->\n%s", r.Lines, rules.Format(&w), rules.Format(&r.Well))
					}
					next[r.Well] = true
				}
			}
			cur = next
		}
		if n < 10000 {
			t.Errorf("only %d moves checked", n)
		}
	}
}

// TestLoopsWithoutGraph: with the loop graph given up at once, a loop is
// still proven, by a level repeating an earlier one, with the same max
// width as when the graph proves it.
func TestLoopsWithoutGraph(t *testing.T) {
	for h := 4; h <= 8; h++ {
		want, err := Search(context.Background(), Options{Width: 4, Height: h})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Search(context.Background(), Options{Width: 4, Height: h, LoopWells: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !want.Unbounded || want.LoopPieces == 0 {
			t.Fatalf("4x%d: the graph should prove the loop: %+v", h, want)
		}
		if !got.Unbounded || got.LoopPieces != 0 || got.Period == 0 || got.PeakStates != want.PeakStates {
			t.Errorf("4x%d without the graph: unbounded %v, period %d from %d, peak %d states; want peak %d states",
				h, got.Unbounded, got.Period, got.PeriodStart, got.PeakStates, want.PeakStates)
		}
	}
}
