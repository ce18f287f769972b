package beam

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

func mustRules(t testing.TB, w, d, b int) *hatetris.Rules {
	t.Helper()
	r, err := hatetris.NewRules(w, d, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkReplay replays a result's keys and its Base2048 replay with the real
// game and compares the score and length.
func checkReplay(t *testing.T, r *hatetris.Rules, res *Result) {
	t.Helper()
	keys, _, err := replaycodec.DecodeAuto(res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{res.Keys, keys} {
		g := hatetris.NewGame(r, hatetris.HATETRIS)
		if err := g.PressAll(k); err != nil {
			t.Fatal(err)
		}
		if !g.Over || g.Score != res.Score || g.Placed() != res.Pieces {
			t.Fatalf("replay: over %v score %d pieces %d, search says %d in %d", g.Over, g.Score, g.Placed(), res.Score, res.Pieces)
		}
		if len(g.LoopChanges) != res.LoopChanges {
			t.Fatalf("loop changes: game %d, search %d", len(g.LoopChanges), res.LoopChanges)
		}
	}
}

// TestBeamVerifies runs small searches on several geometries, with and
// without quiescence, and replays every emitted game.
func TestBeamVerifies(t *testing.T) {
	cases := []struct {
		name       string
		w, d, b    int
		width, max int
		q          bool
	}{
		{"10x20 w50", 10, 20, 4, 50, 0, false},
		{"10x20 w50 q", 10, 20, 4, 50, 0, true},
		{"10x20 w200 depth20", 10, 20, 4, 200, 20, true},
		{"6x12 w100", 6, 12, 4, 100, 0, false},
		{"4x10 w30 (loops)", 4, 10, 4, 30, 60, false},
		{"5x14 w40 q", 5, 14, 4, 40, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRules(t, c.w, c.d, c.b)
			res, err := Run(context.Background(), Config{Rules: r, BeamWidth: c.width, MaxPieces: c.max, Quiescence: c.q})
			if err != nil {
				t.Fatal(err)
			}
			checkReplay(t, r, res)
			if res.Score < 0 || res.BestLevel > res.Pieces || len(res.Levels) == 0 {
				t.Fatalf("bad result %+v", res)
			}
			best := 0
			for _, ds := range res.Levels {
				best = max(best, ds.MaxScore)
				if ds.Kept > c.width {
					t.Fatalf("depth %d keeps %d > width", ds.Level, ds.Kept)
				}
			}
			if res.Score < best {
				t.Fatalf("game scores %d, beam reached %d", res.Score, best)
			}
		})
	}
}

// TestBeamLoopsAvoided: on the 4-wide well the loop rule fires inside the
// beam, and the games still replay.
func TestBeamLoopsAvoided(t *testing.T) {
	r := mustRules(t, 4, 8, 4)
	res, err := Run(context.Background(), Config{Rules: r, BeamWidth: 200, MaxPieces: 80})
	if err != nil {
		t.Fatal(err)
	}
	loops := 0
	for _, ds := range res.Levels {
		loops += ds.LoopsAvoided
	}
	if loops == 0 {
		t.Fatal("the loop rule never fired on 4x8")
	}
	checkReplay(t, r, res)
}

// TestMemoryPerWell: at width 2,000 the beam's state stays under 200 bytes
// per kept well with 2 workers (the pools dominate; the ancestry is a few
// bytes per well once compacted).
func TestMemoryPerWell(t *testing.T) {
	res, err := Run(context.Background(), Config{BeamWidth: 2000, MaxPieces: 40, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range res.Levels {
		if ds.Kept == 2000 {
			if per := float64(ds.Bytes) / float64(ds.Kept); per > 200 {
				t.Fatalf("depth %d: %.0f bytes per kept well (tree %d nodes)", ds.Level, per, ds.TreeNodes)
			}
		}
	}
	last := res.Levels[len(res.Levels)-1]
	t.Logf("depth %d: %d bytes for %d wells (%.1f per well), tree %d nodes", last.Level, last.Bytes, last.Kept,
		float64(last.Bytes)/float64(last.Kept), last.TreeNodes)
}

// TestDeterministicWorkers: 1, 2 and 5 workers give the same search.
func TestDeterministicWorkers(t *testing.T) {
	var ref *Result
	for _, n := range []int{1, 2, 5} {
		res, err := Run(context.Background(), Config{BeamWidth: 300, MaxPieces: 40, Quiescence: true, Workers: n})
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Levels {
			res.Levels[i].Seconds, res.Levels[i].Bytes = 0, 0
		}
		res.Seconds = 0
		if ref == nil {
			ref = res
			continue
		}
		if res.Keys != ref.Keys || !reflect.DeepEqual(res.Levels, ref.Levels) {
			t.Fatalf("%d workers differ from 1", n)
		}
	}
}

// TestResume: a search killed after depth 12 and resumed from its
// checkpoint ends with the same game as an uninterrupted one.
func TestResume(t *testing.T) {
	cfg := Config{BeamWidth: 100, MaxPieces: 45, Quiescence: true}
	full, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stop := errors.New("killed")
	killed := cfg
	killed.CheckpointDir = dir
	killed.Workers = 2
	killed.OnLevel = func(ds LevelStats) error {
		if ds.Level == 12 {
			return stop
		}
		return nil
	}
	if _, err := Run(context.Background(), killed); !errors.Is(err, stop) {
		t.Fatalf("killed run: %v", err)
	}
	resumed := cfg
	resumed.CheckpointDir = dir
	resumed.Resume = true
	resumed.Workers = 3
	res, err := Run(context.Background(), resumed)
	if err != nil {
		t.Fatal(err)
	}
	if res.Keys != full.Keys || res.Children != full.Children || len(res.Levels) != len(full.Levels) {
		t.Fatalf("resumed game differs: %d in %d vs %d in %d", res.Score, res.Pieces, full.Score, full.Pieces)
	}
	// A different configuration refuses the checkpoint.
	other := resumed
	other.BeamWidth = 101
	if _, err := Run(context.Background(), other); !errors.Is(err, ErrConfig) {
		t.Fatalf("resume with another width: %v", err)
	}
}

// TestLoopRuleOnRecords follows record games move by move through the
// beam's own ancestry (a chain) and path history: the piece the beam's
// expansion picks must be the real AI's at every step, including where the
// loop rule decides (once in the knewjade loop basis, 9 times in the 3711
// record), and Rebuild must reproduce the game.
func TestLoopRuleOnRecords(t *testing.T) {
	all, err := records.All()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"knewjade loop basis": 1, "David & Felipe (6)": 9, "knewjade (5)": -1}
	r := hatetris.Standard()
	for _, rec := range all {
		loops, ok := want[rec.Name]
		if !ok || !rec.Primary {
			continue
		}
		if testing.Short() && rec.Score > 1000 {
			continue
		}
		t.Run(rec.Name, func(t *testing.T) {
			keys, _, err := replaycodec.DecodeAuto(rec.Replay)
			if err != nil {
				t.Fatal(err)
			}
			g, err := hatetris.Play(r, hatetris.HATETRIS, keys)
			if err != nil {
				t.Fatal(err)
			}
			if loops >= 0 && len(g.LoopChanges) != loops {
				t.Fatalf("game has %d loop changes, want %d", len(g.LoopChanges), loops)
			}
			path := followGame(t, r, g)
			res, err := Rebuild(r, &hatetris.Well{}, 0, path)
			if err != nil {
				t.Fatal(err)
			}
			if res.Score != g.Score || res.Pieces != g.Placed() || res.LoopChanges != len(g.LoopChanges) {
				t.Fatalf("rebuilt %d in %d (%d loop changes), record %d in %d", res.Score, res.Pieces, res.LoopChanges, g.Score, g.Placed())
			}
		})
	}
}

// TestStartWell: a search from a given well and score replays from there.
func TestStartWell(t *testing.T) {
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, "LLLLDDDDDDDDDDDDDDDDDRRRRDDDDDDDDDDDDDDDDD")
	if err != nil {
		t.Fatal(err)
	}
	w := g.Well
	res, err := Run(context.Background(), Config{BeamWidth: 50, Start: &w, StartScore: 3, Eval: eval.NewHand(eval.DefaultWeights())})
	if err != nil {
		t.Fatal(err)
	}
	if res.Wells[0] != w || res.Score < 3 {
		t.Fatalf("start not honoured: score %d", res.Score)
	}
}

// TestCancel: a cancelled context stops the search with its error, and
// the checkpoint of the last finished depth resumes to the same game.
func TestCancel(t *testing.T) {
	cfg := Config{BeamWidth: 200, MaxPieces: 25}
	full, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	c := cfg
	c.CheckpointDir = dir
	c.OnLevel = func(ds LevelStats) error {
		if ds.Level == 10 {
			cancel()
		}
		return nil
	}
	if _, err := Run(ctx, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	c = cfg
	c.CheckpointDir, c.Resume = dir, true
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Keys != full.Keys {
		t.Fatal("resumed game differs")
	}
}

func TestBadConfig(t *testing.T) {
	for _, c := range []Config{{BeamWidth: 0}, {BeamWidth: 5, MaxPieces: -1}, {BeamWidth: 5, Resume: true}} {
		if _, err := Run(context.Background(), c); !errors.Is(err, ErrConfig) {
			t.Fatalf("%+v: %v", c, err)
		}
	}
}

// followGame follows a game move by move through the beam's own ancestry
// (a chain of one node per depth) and path history, checks that the
// beam's expansion sends the real AI's piece (and Mild's) at every step,
// and returns the game's path as outcome indices.
func followGame(t *testing.T, r *hatetris.Rules, g *hatetris.Game) []uint8 {
	t.Helper()
	var tr tree
	e := expander{g: hatetris.NewGenerator(r)}
	var path []uint8
	changes := 0
	for n, st := range g.Steps {
		var lv level
		lv.push(0, 0, hashWell(&st.Before), cellsOf(&st.Before))
		tr.Levels = append(tr.Levels, lv)
		e.hist.reset(r, cellsOf(&st.Before))
		tr.gather(n, 0, &e.hist)
		sent, mild, out := e.expand(&st.Before)
		if sent != st.Piece || mild != st.MildPiece {
			t.Fatalf("piece %d: beam sends %v (mild %v), game %v (mild %v)", n, sent, mild, st.Piece, st.MildPiece)
		}
		if sent != mild {
			changes++
		}
		if n+1 == len(g.Steps) {
			break
		}
		next := g.Steps[n+1].Before
		m := -1
		for i := range out {
			if out[i].Well == next && !out[i].GameOver {
				m = i
				break
			}
		}
		if m < 0 {
			t.Fatalf("piece %d: the game's next well is not an outcome", n)
		}
		path = append(path, uint8(m))
	}
	if changes != len(g.LoopChanges) {
		t.Fatalf("beam saw %d loop changes, game %d", changes, len(g.LoopChanges))
	}
	return path
}

// TestStalledBeam: on a well with a one-row bar a piece can spawn onto the
// blocks and lock without changing the well; a beam that keeps the same
// wells for StallLevels levels stops with ErrStalled instead of running on.
func TestStalledBeam(t *testing.T) {
	r := mustRules(t, 10, 17, 1)
	_, err := Run(context.Background(), Config{Rules: r, BeamWidth: 20, MaxPieces: 200, Workers: 1})
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "does not end") {
		t.Fatalf("error %v, want ErrStalled", err)
	}
}

// TestStartHistory starts a beam at the empty well whose AI has already
// seen every well the piece it would send can make: the loop rule must
// send another piece, in the search and in the real game that checks it.
func TestStartHistory(t *testing.T) {
	r := hatetris.Standard()
	g := hatetris.NewGenerator(r)
	var empty hatetris.Well
	sent, out := g.Move(&empty, hatetris.HATETRIS, nil, nil)
	var history []hatetris.Well
	for _, o := range out {
		history = append(history, o.Well)
	}
	plain, err := Run(context.Background(), Config{BeamWidth: 50, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	seen, err := Run(context.Background(), Config{BeamWidth: 50, Workers: 2, StartHistory: history})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Sequence[0] != sent {
		t.Fatalf("without history the first piece is %v, want %v", plain.Sequence[0], sent)
	}
	if seen.Sequence[0] == sent || seen.LoopChanges == 0 {
		t.Fatalf("with every outcome of %v seen, the AI still sent %v (%d loop changes)", sent, seen.Sequence[0], seen.LoopChanges)
	}
	// The game replays under the same memory, and not without it.
	game := hatetris.NewGameAfter(r, hatetris.HATETRIS, empty, 0, history)
	if err := game.PressAll(seen.Keys); err != nil || game.Score != seen.Score || !game.Over {
		t.Fatalf("replay with the memory: %v, score %d, over %v", err, game.Score, game.Over)
	}
	if g2, err := hatetris.Play(r, hatetris.HATETRIS, seen.Keys); err == nil && hatetris.PiecesString(g2.Pieces) == hatetris.PiecesString(seen.Sequence) {
		t.Fatal("the game replays the same without the memory")
	}
}

// TestWorkersShares: the workers' pools sort only their expected share of
// the next beam for the merge, which sorts the rest of a pool that gives
// more; with shares so small that the merge does so for nearly every
// pool at every level, and with 1, 3 and 16 workers, a search keeps the
// same wells, level by level, and the same game as with the default
// shares on one worker.
func TestWorkersShares(t *testing.T) {
	cfg := Config{BeamWidth: 200, MaxPieces: 20, Quiescence: true, Workers: 1}
	ref, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func(f func(int, int) int) { poolShare = f }(poolShare)
	for _, share := range []int{1, 7} {
		poolShare = func(int, int) int { return share }
		for _, n := range []int{1, 3, 16} {
			c := cfg
			c.Workers = n
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Levels {
				res.Levels[i].Seconds, res.Levels[i].Bytes = 0, 0
				ref.Levels[i].Seconds, ref.Levels[i].Bytes = 0, 0
			}
			if res.Keys != ref.Keys || !reflect.DeepEqual(res.Levels, ref.Levels) {
				t.Fatalf("share %d, %d workers: the search differs from the default's on 1 worker", share, n)
			}
		}
	}
}
