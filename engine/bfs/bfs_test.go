package bfs

import (
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Anchors: the peer engine and an independent port for the real rule
// (width 10), the blog's corrected tables (widths 5 and 6), and the
// blog's old width-10 table for the clear-above-bar rule.
var anchors = []struct {
	w, h     int
	rule     Rule
	score    int
	length   int
	maxWidth int64
	slow     bool
}{
	{10, 2, RuleQntm, 0, 4, 21, false},
	{10, 3, RuleQntm, 0, 6, 310, false},
	{10, 4, RuleQntm, 1, 11, 9094, false},
	{10, 5, RuleQntm, 4, 19, 174585, true},
	{10, 4, RuleClearAboveBar, 1, 11, 9095, false},
	{10, 5, RuleClearAboveBar, 4, 19, 174634, true},
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
		res, err := Search(Options{Width: a.w, Height: a.h, Rule: a.rule})
		if err != nil {
			t.Fatalf("%dx%d %v: %v", a.w, a.h, a.rule, err)
		}
		if res.Score != a.score || res.Length != a.length || res.MaxWidth != a.maxWidth || res.Unbounded {
			t.Errorf("%dx%d %v: got (%d, %d, %d, unbounded %v), want (%d, %d, %d)", a.w, a.h, a.rule,
				res.Score, res.Length, res.MaxWidth, res.Unbounded, a.score, a.length, a.maxWidth)
		}
	}
}

var _ = hatetris.S
