package bfs

import (
	"context"
	"errors"
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// HistoryOptions configure HistorySearch.
type HistoryOptions struct {
	Width, Height int
	Rule          Rule
	// MaxNodes bounds the distinct (well, history) states visited
	// (0: 10 million); MaxDepth bounds the game length explored (0: 100000).
	MaxNodes, MaxDepth int
}

// HistoryResult is the outcome of HistorySearch.
type HistoryResult struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Complete is set when the whole game tree was explored: every game
	// under the real AI ends, and Score and Length are exact.
	Complete bool `json:"complete"`
	// Score and Length are the best score and the most pieces of any game
	// found (exact when Complete).
	Score  int `json:"score"`
	Length int `json:"length"`
	// Nodes counts the distinct (well, history) states expanded, MemoHits
	// the transpositions merged, DeepestPly the longest path explored.
	Nodes      int64 `json:"nodes"`
	MemoHits   int64 `json:"memo_hits"`
	DeepestPly int   `json:"deepest_ply"`
}

// HistorySearch explores every game against the real HATETRIS AI, whose
// choice depends on the history of spawn wells (its loop rule), by a
// depth-first search over (well, history) states with transpositions
// merged by a 128-bit Zobrist hash of the history multiset plus the well (a
// hash: two different states collide with probability about 2^-128 per
// pair, which the search does not check). It settles whether the real game can go on forever in tiny wells
// (width 4), where the history-free search loops: if the tree is finite,
// the search completes and gives the exact best score and length. It
// stops, returning an error that wraps ctx.Err(), when ctx is cancelled
// (checked every 4096 states).
func HistorySearch(ctx context.Context, opt HistoryOptions) (*HistoryResult, error) {
	if opt.Width*opt.Height > 48 {
		return nil, fmt.Errorf("bfs: history search is for tiny wells (width x height <= 48), not %dx%d", opt.Width, opt.Height)
	}
	rules, err := NewRules(opt.Width, opt.Height, opt.Rule)
	if err != nil {
		return nil, err
	}
	c, err := newCodec(opt.Width, opt.Height, Bar)
	if err != nil {
		return nil, err
	}
	h := &hist{ctx: ctx, c: c, counts: map[uint64]int32{}, rules: rules}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 10_000_000
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 100_000
	}
	h.maxNodes, h.maxDepth = int64(opt.MaxNodes), opt.MaxDepth
	h.memo = map[memoKey]memoVal{}
	var w0 hatetris.Well
	h.add(&w0)
	v, err := h.dfs(&w0, 0)
	res := &HistoryResult{Width: opt.Width, Height: opt.Height, Nodes: h.nodes, MemoHits: h.hits, DeepestPly: h.deepest}
	if errors.Is(err, errBudget) {
		res.Score, res.Length = h.bestScore, h.bestLen
		return res, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("bfs: history search %dx%d stopped after %d states: %w", opt.Width, opt.Height, h.nodes, err)
		}
		return nil, err
	}
	res.Complete, res.Score, res.Length = true, int(v.lines), int(v.pieces)
	return res, nil
}

var errBudget = errors.New("bfs: history search budget exhausted")

type memoKey struct{ h1, h2, well uint64 }
type memoVal struct{ lines, pieces int32 }

// hist is the AI's memory: counts of spawn wells, with an incremental
// Zobrist hash of the multiset.
type hist struct {
	ctx               context.Context
	c                 *codec
	rules             *hatetris.Rules
	counts            map[uint64]int32
	h1, h2            uint64
	memo              map[memoKey]memoVal
	nodes, hits       int64
	maxNodes          int64
	maxDepth, deepest int
	bestScore         int
	bestLen           int
	lines             int
	gens              []*hatetris.Generator
	bufs              [][]hatetris.Outcome
}

func (h *hist) key(w *hatetris.Well) uint64 { _, lo := h.c.pack(w); return lo }

func zob(k uint64, n int32, seed uint64) uint64 {
	if n == 0 {
		return 0
	}
	return mix(mix(k^seed) + uint64(n)*0x9e3779b97f4a7c15)
}

func (h *hist) bump(w *hatetris.Well, d int32) {
	k := h.key(w)
	n := h.counts[k]
	h.h1 ^= zob(k, n, seedA) ^ zob(k, n+d, seedA)
	h.h2 ^= zob(k, n, seedB) ^ zob(k, n+d, seedB)
	if n+d == 0 {
		delete(h.counts, k)
	} else {
		h.counts[k] = n + d
	}
}

func (h *hist) add(w *hatetris.Well)    { h.bump(w, 1) }
func (h *hist) remove(w *hatetris.Well) { h.bump(w, -1) }

// Count implements hatetris.History.
func (h *hist) Count(w *hatetris.Well) int { return int(h.counts[h.key(w)]) }

// dfs returns the most lines and pieces still to come from a spawn at w
// (w already counted in the history).
func (h *hist) dfs(w *hatetris.Well, ply int) (memoVal, error) {
	mk := memoKey{h.h1, h.h2, h.key(w)}
	if v, ok := h.memo[mk]; ok {
		h.hits++
		return v, nil
	}
	h.nodes++
	if h.nodes > h.maxNodes || ply >= h.maxDepth {
		return memoVal{}, errBudget
	}
	if h.nodes&4095 == 1 {
		if err := h.ctx.Err(); err != nil {
			return memoVal{}, err
		}
	}
	h.deepest = max(h.deepest, ply)
	h.bestLen = max(h.bestLen, ply)
	h.bestScore = max(h.bestScore, h.lines)
	for len(h.gens) <= ply {
		h.gens = append(h.gens, hatetris.NewGenerator(h.rules))
		h.bufs = append(h.bufs, nil)
	}
	_, rs := h.gens[ply].Move(w, hatetris.HATETRIS, h, h.bufs[ply][:0])
	h.bufs[ply] = rs
	var best memoVal
	for i := range rs {
		r := &h.bufs[ply][i]
		if r.GameOver {
			continue
		}
		child := r.Well
		h.add(&child)
		h.lines += r.Lines
		v, err := h.dfs(&child, ply+1)
		h.lines -= r.Lines
		h.remove(&child)
		if err != nil {
			return memoVal{}, err
		}
		best.lines = max(best.lines, int32(r.Lines)+v.lines)
		best.pieces = max(best.pieces, 1+v.pieces)
	}
	h.memo[mk] = best
	return best, nil
}
