package bfs

import (
	"context"
	"fmt"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// naiveState is a state of the naive search: the whole well (its rows as
// the engine keeps them) and the lines cleared so far.
type naiveState struct {
	well  hatetris.Well
	score int
}

// naiveResult is what the naive search finds: its levels, and the wells
// (scores dropped) of each level, to check a proven period.
type naiveResult struct {
	levels []Level
	wells  []map[hatetris.Well]bool
	score  int
	length int
	peak   int64
	peakAt int
}

// naiveSearch is the obviously correct breadth-first search: level n+1 is
// the set of every live outcome of the Mild AI's piece (hatetris Move) from
// every state of level n, kept in a plain map; the score is the sum of the
// lines cleared. It stops at the first empty level or after maxLevels
// levels.
func naiveSearch(t *testing.T, width, height int, rule Rule, maxLevels int) naiveResult {
	t.Helper()
	rules, err := NewRules(width, height, rule)
	if err != nil {
		t.Fatal(err)
	}
	gen := hatetris.NewGenerator(rules)
	var res naiveResult
	level := map[naiveState]bool{{}: true}
	var children int64
	for n := 0; len(level) > 0 && n < maxLevels; n++ {
		best := -1
		next := map[naiveState]bool{}
		wells := map[hatetris.Well]bool{}
		var made int64
		for s := range level {
			best = max(best, s.score)
			wells[s.well] = true
			_, outs := gen.Move(&s.well, hatetris.Mild, nil, nil)
			for _, o := range outs {
				if o.GameOver {
					continue
				}
				made++
				next[naiveState{well: o.Well, score: s.score + o.Lines}] = true
			}
		}
		res.levels = append(res.levels, Level{Level: n, States: int64(len(level)), Children: children, BestScore: best})
		res.wells = append(res.wells, wells)
		res.score = max(res.score, best)
		res.length = n
		if int64(len(level)) > res.peak {
			res.peak, res.peakAt = int64(len(level)), n
		}
		level, children = next, made
	}
	return res
}

// TestAgainstNaive compares Search, level by level, with the naive search
// on small wells under both rules: states, children and best score of every
// level, then score, length and peak. Where Search proves a loop (width
// 4), the naive search runs as many levels and confirms the period: level
// PeriodStart+Period holds the same wells as level PeriodStart.
func TestAgainstNaive(t *testing.T) {
	type size struct{ w, h int }
	var sizes []size
	for w, maxH := range map[int]int{4: 8, 5: 8, 6: 7} {
		for h := 2; h <= maxH; h++ {
			sizes = append(sizes, size{w, h})
		}
	}
	sizes = append(sizes, size{10, 3}, size{10, 4})
	if testing.Short() {
		sizes = []size{{4, 4}, {5, 5}, {6, 4}, {10, 3}}
	}
	for _, sz := range sizes {
		for _, rule := range []Rule{RuleQntm, RuleClearAboveBar} {
			t.Run(fmt.Sprintf("%dx%d-%s", sz.w, sz.h, rule), func(t *testing.T) {
				fast, err := Search(context.Background(), Options{Width: sz.w, Height: sz.h, Rule: rule})
				if err != nil {
					t.Fatal(err)
				}
				// One level more than Search found (so a naive search that
				// goes on is caught), or as many where Search proved a loop.
				limit := len(fast.Levels) + 1
				if fast.Unbounded {
					limit = len(fast.Levels)
				}
				naive := naiveSearch(t, sz.w, sz.h, rule, limit)
				if len(naive.levels) != len(fast.Levels) {
					t.Fatalf("%d levels, the naive search %d", len(fast.Levels), len(naive.levels))
				}
				for i, want := range naive.levels {
					if got := fast.Levels[i]; got != want {
						t.Errorf("level %d: %+v, the naive search %+v", i, got, want)
					}
				}
				if fast.PeakStates != naive.peak || fast.PeakLevel != naive.peakAt {
					t.Errorf("peak %d states at level %d, the naive search %d at %d", fast.PeakStates, fast.PeakLevel, naive.peak, naive.peakAt)
				}
				if fast.Unbounded {
					a, b := naive.wells[fast.PeriodStart], naive.wells[fast.PeriodStart+fast.Period]
					if fast.Period <= 0 || len(a) != len(b) {
						t.Fatalf("period %d from %d: %d and %d wells", fast.Period, fast.PeriodStart, len(a), len(b))
					}
					for w := range a {
						if !b[w] {
							t.Fatalf("level %d is not level %d again", fast.PeriodStart+fast.Period, fast.PeriodStart)
						}
					}
					return
				}
				if fast.Score != naive.score || fast.Length != naive.length {
					t.Errorf("score %d length %d, the naive search %d %d", fast.Score, fast.Length, naive.score, naive.length)
				}
			})
		}
	}
}
