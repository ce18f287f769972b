package beamrun

import (
	"context"
	"reflect"
	"slices"
	"testing"

	beamsearch "github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// sameBeam checks a Beam result against Run's: the same game and the same
// levels (Bytes and Seconds aside).
func sameBeam(t *testing.T, got, want *beamsearch.Result) {
	t.Helper()
	if got.Keys != want.Keys || got.Replay != want.Replay || got.Score != want.Score || got.Pieces != want.Pieces ||
		got.BestLevel != want.BestLevel || got.Children != want.Children || got.Died != want.Died || len(got.Levels) != len(want.Levels) {
		t.Fatalf("got score %d pieces %d levels %d, want %d %d %d", got.Score, got.Pieces, len(got.Levels), want.Score, want.Pieces, len(want.Levels))
	}
	for i := range got.Levels {
		g, w := got.Levels[i], want.Levels[i]
		g.Bytes, w.Bytes, g.Seconds, w.Seconds = 0, 0, 0, 0
		if !slices.Equal(g.ScoreCounts, w.ScoreCounts) {
			t.Fatalf("level %d: score counts differ", i)
		}
		g.ScoreCounts, w.ScoreCounts = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("level %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestBeamMatchesNative: Beam's search gives Run's game and levels. Each
// level is a pipeline (about 0.2 s on Prism, the cost of this test), so
// the searches are short: a full beam of 1,000 in default blocks from its
// third level, a beam of 200 with quiescence in small blocks and
// partitions past its first cleared line (level 9), and a game of 6x10
// pruned to 100 wells from level 3 to its death (12 levels).
func TestBeamMatchesNative(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    BeamSearchOptions
	}{
		{"10x20 w1000 p6", BeamSearchOptions{WellWidth: 10, WellDepth: 20, Bar: 4, BeamWidth: 1000, MaxPieces: 6}},
		{"10x20 w200 q p10 small blocks", BeamSearchOptions{WellWidth: 10, WellDepth: 20, Bar: 4, BeamWidth: 200, MaxPieces: 10, Quiescence: true, BlockParents: 37, Parts: 7}},
		{"6x10 w100 to death", BeamSearchOptions{WellWidth: 6, WellDepth: 10, Bar: 4, BeamWidth: 100, BlockParents: 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.EvalName = "hand"
			r, _ := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
			ev := eval.NewHand(eval.DefaultWeights())
			want, err := beamsearch.Run(context.Background(), beamsearch.Config{Rules: r, BeamWidth: o.BeamWidth, MaxPieces: o.MaxPieces, Quiescence: o.Quiescence, Eval: ev})
			if err != nil {
				t.Fatal(err)
			}
			o.Work = t.TempDir()
			got, err := BeamSearch(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			sameBeam(t, got, want)
		})
	}
}

func TestBeamResumes(t *testing.T) {
	o := BeamSearchOptions{WellWidth: 10, WellDepth: 20, Bar: 4, BeamWidth: 50, MaxPieces: 6, EvalName: "hand", Work: t.TempDir(), Checkpoint: t.TempDir()}
	ev := eval.NewHand(eval.DefaultWeights())
	want, err := beamsearch.Run(context.Background(), beamsearch.Config{BeamWidth: 50, MaxPieces: 6, Eval: ev})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := o
	first.Progress = &cancelAfter{n: 3, cancel: cancel}
	if _, err := BeamSearch(ctx, first); err == nil {
		t.Fatal("a cancelled search succeeded")
	}
	o.Resume = true
	got, err := BeamSearch(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	sameBeam(t, got, want)
}
