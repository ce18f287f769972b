package bfs

import (
	"context"
	"testing"
)

// TestCompressSame: compressed levels give the same result, level by
// level, as plain ones, for every worker count, and the stored peak level
// takes fewer bytes.
func TestCompressSame(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		rule Rule
	}{{4, 6, RuleQntm}, {5, 8, RuleQntm}, {8, 5, RuleClearAboveBar}, {9, 5, RuleQntm}, {10, 5, RuleQntm}, {7, 8, RuleQntm}, {10, 6, RuleQntm}} {
		if tc.w*tc.h >= 56 && testing.Short() {
			continue
		}
		want, err := Search(context.Background(), Options{Width: tc.w, Height: tc.h, Rule: tc.rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			got, err := Search(context.Background(), Options{Width: tc.w, Height: tc.h, Rule: tc.rule, Workers: workers, Compress: true})
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, "compressed", got, want)
			if got.PeakStoredBytes >= want.PeakStoredBytes && want.PeakStates > 100 {
				t.Errorf("%dx%d: the compressed peak level takes %d bytes, the plain one %d", tc.w, tc.h, got.PeakStoredBytes, want.PeakStoredBytes)
			}
		}
	}
}
