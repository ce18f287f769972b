package flats

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// RecordGames replays the primary replay of every world record of
// datasets/records (kind "record", in file order) against its AI on the
// standard well (records.Record.Play).
func RecordGames() ([]*hatetris.Game, error) {
	recs, err := records.WorldRecords()
	if err != nil {
		return nil, err
	}
	out := make([]*hatetris.Game, 0, len(recs))
	for _, rec := range recs {
		_, g, err := rec.Play()
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// CountGames counts replayed games (all on the rules of the first). The
// games are shared among up to GOMAXPROCS counters, balanced by their
// moves (longest first, each to the least loaded counter, ties to the
// lowest), and the counters are merged in order: every count is a sum of
// whole numbers, so the result is the same on any number of cores.
func CountGames(games []*hatetris.Game) (*Counts, error) {
	if len(games) == 0 {
		return nil, fmt.Errorf("flats: no games to count")
	}
	r := games[0].Rules
	for i, g := range games {
		if g.Rules.Width != r.Width || g.Rules.Depth != r.Depth {
			return nil, fmt.Errorf("game %d: flats: a %v game in a %v counter", i, g.Rules, r)
		}
	}
	shards := shareGames(games, min(runtime.GOMAXPROCS(0), len(games)))
	counters := make([]*Counter, len(shards))
	errs := make([]error, len(games))
	var wg sync.WaitGroup
	for s, idx := range shards {
		k, err := NewCounter(r)
		if err != nil {
			return nil, err
		}
		counters[s] = k
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range idx {
				if err := k.CountGame(games[i]); err != nil {
					errs[i] = fmt.Errorf("game %d: %w", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, e := range errs {
			if e != nil {
				return nil, e // the first failing game
			}
		}
	}
	out := counters[0].Counts
	for _, k := range counters[1:] {
		out.merge(k.Counts)
	}
	return out, nil
}

// shareGames splits the game indices into n groups of about equal moves:
// longest first (ties: lower index first), each to the group with the
// fewest moves so far (ties: the lowest group); each group in game order.
func shareGames(games []*hatetris.Game, n int) [][]int {
	order := make([]int, len(games))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(games[b].Steps) - len(games[a].Steps) })
	groups := make([][]int, n)
	load := make([]int, n)
	for _, i := range order {
		g := 0
		for j := 1; j < n; j++ {
			if load[j] < load[g] {
				g = j
			}
		}
		groups[g] = append(groups[g], i)
		load[g] += len(games[i].Steps)
	}
	for _, g := range groups {
		slices.Sort(g)
	}
	return groups
}
