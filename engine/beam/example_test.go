package beam_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// A tiny beam search of the real game's well: keep the best 20 wells at
// each level, for at most 12 pieces, with the hand-made evaluation and its
// default weights. The Result holds the best game, ended as fast as possible
// after its best level, with its keys and Base2048 replay; the numbers do not
// depend on the number of workers.
func ExampleRun() {
	res, err := beam.Run(context.Background(), beam.Config{BeamWidth: 20, MaxPieces: 12})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("levels", len(res.Levels), "died", res.Died, "best level", res.BestLevel)
	fmt.Println("score", res.Score, "pieces", res.Pieces, "sequence", hatetris.PiecesString(res.Sequence))
	last := res.Levels[len(res.Levels)-1]
	fmt.Println("level", last.Level, "kept", last.Kept, "of", last.Children, "children")

	// The replay plays the same game in the real game.
	keys, err := replaycodec.Decode(replaycodec.Base2048, res.Replay)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := hatetris.Play(hatetris.Standard(), hatetris.HATETRIS, keys)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replayed: score", g.Score, "pieces", g.Placed(), "over", g.Over)
	// Output:
	// levels 12 died false best level 12
	// score 0 pieces 16 sequence SSSISOOOOOOOOOOO
	// level 12 kept 20 of 180 children
	// replayed: score 0 pieces 16 over true
}

// A search until the beam dies (MaxPieces 0), on a small well 4 wide and 10
// deep with the real bar of 4 rows (height 6): every game there ends
// quickly. Workers: 1 runs on the calling core alone; the result is the
// same on any number.
func ExampleRun_smallWell() {
	r, err := hatetris.NewRules(4, 10, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := beam.Run(context.Background(), beam.Config{Rules: r, BeamWidth: 10, Workers: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("died", res.Died, "levels", len(res.Levels))
	fmt.Println("score", res.Score, "pieces", res.Pieces, "keys", res.Keys)
	// Output:
	// died true levels 8
	// score 3 pieces 8 keys DDDDDDDDDDDDUUDULDDLDDDDUDDDDURDDDUDDDDDDDLDDDDDRDDUDDLUD
}

// An invalid configuration is an ErrConfig.
func ExampleRun_invalid() {
	_, err := beam.Run(context.Background(), beam.Config{BeamWidth: 0})
	fmt.Println(errors.Is(err, beam.ErrConfig))
	fmt.Println(err)
	// Output:
	// true
	// beam: invalid configuration: beam width 0 (want 1 to 16777215)
}
