// Package targets computes NNUE training targets the way knewjade and D&F
// do: from each sampled well, a small beam (width ~512, ~10 pieces, no
// quiescence, the real AI with its loop rule) guided by the current
// evaluation; the target is the best value among the wells it keeps after
// the last piece, squashed into [-1, 1] (tanh of the engine's value, the
// training output of the network), or -1 if the beam dies before. Each
// target beam starts at score 0, so an evaluation's score weight (the
// generation-0 network's) rewards only the lines cleared within it.
//
// Target beams run in parallel across wells, each on one goroutine, and
// every result goes to its well's index, so the targets do not depend on
// the number of workers.
package targets

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// Config describes the target beams.
type Config struct {
	Rules *hatetris.Rules // nil: the real game's 10x20, bar 4
	Eval  eval.Evaluator
	// Width and Pieces of each target beam (0: 512 and 10).
	Width, Pieces int
	// Squash maps a beam value into [-1, 1] (nil: tanh).
	Squash func(float64) float64
	// Workers run target beams in parallel (0: GOMAXPROCS).
	Workers int
	// OnTarget, when set, is called (from any worker) after each target.
	OnTarget func(done int)
}

// Compute returns one target per well.
func Compute(ctx context.Context, cfg Config, wells []hatetris.Well) ([]float32, error) {
	if cfg.Eval == nil {
		return nil, errors.New("targets: no evaluation")
	}
	if cfg.Width == 0 {
		cfg.Width = 512
	}
	if cfg.Pieces == 0 {
		cfg.Pieces = 10
	}
	if cfg.Squash == nil {
		cfg.Squash = math.Tanh
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	out := make([]float32, len(wells))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(wells) || ctx.Err() != nil {
					return
				}
				t, err := One(ctx, cfg, &wells[i])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("targets: well %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
				out[i] = t
				if cfg.OnTarget != nil {
					cfg.OnTarget(int(done.Add(1)))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// One is the target of one well.
func One(ctx context.Context, cfg Config, w *hatetris.Well) (float32, error) {
	if cfg.Squash == nil {
		cfg.Squash = math.Tanh
	}
	start := *w
	res, err := beam.Run(ctx, beam.Config{Rules: cfg.Rules, BeamWidth: cfg.Width, MaxPieces: cfg.Pieces, Eval: cfg.Eval,
		Workers: 1, Start: &start})
	if err != nil {
		return 0, err
	}
	if len(res.Levels) < cfg.Pieces || res.Levels[cfg.Pieces-1].Kept == 0 {
		return -1, nil
	}
	v := cfg.Squash(res.Levels[cfg.Pieces-1].BestValue)
	return float32(min(max(v, -1), 1)), nil
}
