package arena

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/stats"
)

func smallRules(t *testing.T) *hatetris.Rules {
	t.Helper()
	r, err := hatetris.NewRules(6, 12, 4)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func smallMatch(t *testing.T, arms string, out string) *Match {
	t.Helper()
	r := smallRules(t)
	s, err := ParseSuite("openings:6:4:3", r)
	if err != nil {
		t.Fatal(err)
	}
	as, err := ParseArms(arms, r)
	if err != nil {
		t.Fatal(err)
	}
	return &Match{Suite: s, Arms: as, BeamWidth: 20, Quiescence: true, Out: out, Resamples: 500}
}

// key is a game without its time.
func key(g Game) Game { g.Seconds = 0; return g }

func sortedGames(gs []Game) []Game {
	out := make([]Game, len(gs))
	for i, g := range gs {
		out[i] = key(g)
	}
	slices.SortFunc(out, func(a, b Game) int {
		if c := strings.Compare(a.Arm, b.Arm); c != 0 {
			return c
		}
		return a.Start - b.Start
	})
	return out
}

func TestSelfMatchIsAllTies(t *testing.T) {
	m := smallMatch(t, "hand,weights:../../datasets/weights/dnf86.json", "")
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := res.Standings.Comparisons()[0]
	if c.N != 6 || c.Ties != 6 || c.Diff.Estimate != 0 || c.Diff.Lo != 0 || c.Diff.Hi != 0 || c.P != 1 {
		t.Fatalf("an evaluation against itself: %+v", c)
	}
}

func TestMatchSameOnAnyParallelism(t *testing.T) {
	var runs [][]Game
	for _, p := range []int{1, 3} {
		m := smallMatch(t, "hand,score,hand-holes", "")
		m.Parallel = p
		res, err := m.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Games) != 18 {
			t.Fatalf("%d games, want 18", len(res.Games))
		}
		runs = append(runs, sortedGames(res.Games))
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Fatalf("1 and 3 games at once differ:\n%v\n%v", runs[0], runs[1])
	}
	// Each game is the beam search the suite's start gives.
	m := smallMatch(t, "hand,score", "")
	st := &m.Suite.Starts[2]
	r, err := beam.Run(context.Background(), beam.Config{Rules: m.Suite.Rules, BeamWidth: 20, Quiescence: true,
		Eval: eval.NewHand(eval.DefaultWeights()), Workers: 1, Start: &st.Well, StartScore: st.Score, StartHistory: st.History})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range runs[0] {
		if g.Arm == "hand" && g.Start == 2 && (g.Score != r.Score || g.Pieces != r.Pieces || g.Replay != r.Replay) {
			t.Fatalf("match game %+v, beam search %d/%d", g, r.Score, r.Pieces)
		}
	}
}

func TestMatchResumes(t *testing.T) {
	dir := t.TempDir()
	whole := smallMatch(t, "hand,score", filepath.Join(dir, "whole.jsonl"))
	want, err := whole.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A match stopped after a few games (its context cancelled, as a kill
	// would stop it) whose file ends in a cut line, then run again.
	out := filepath.Join(dir, "part.jsonl")
	part := smallMatch(t, "hand,score", out)
	part.Parallel = 1
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	part.OnGame = func(Game, *Standings) {
		if n++; n == 5 {
			cancel()
		}
	}
	if _, err := part.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped match: %v", err)
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"arm":"hand","start":5,"eval":"hand`)
	f.Close()
	again := smallMatch(t, "hand,score", out)
	got, err := again.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sortedGames(got.Games), sortedGames(want.Games)) {
		t.Fatalf("resumed match differs:\n%v\n%v", sortedGames(got.Games), sortedGames(want.Games))
	}
	data, _ := os.ReadFile(out)
	if lines := strings.Count(string(data), "\n"); lines != 13 {
		t.Fatalf("the file has %d lines, want a header and 12 games", lines)
	}
	// Other settings are refused, and so is a file that is not a match.
	other := smallMatch(t, "hand,score", out)
	other.BeamWidth = 21
	if _, err := other.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "beam width") {
		t.Fatalf("a match of another beam width resumed: %v", err)
	}
	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, []byte("my notes\n"), 0o644)
	m := smallMatch(t, "hand,score", foreign)
	if _, err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "not a match file") {
		t.Fatalf("a foreign file was used: %v", err)
	}
	if b, _ := os.ReadFile(foreign); string(b) != "my notes\n" {
		t.Fatalf("the foreign file was changed: %q", b)
	}
}

func TestMatchSPRTStops(t *testing.T) {
	m := smallMatch(t, "hand,score", "")
	m.Suite.Starts = append(m.Suite.Starts, m.Suite.Starts...)
	s := stats.SPRT{P0: 0.5, P1: 0.95, Alpha: 0.2, Beta: 0.2}
	m.SPRT = &s
	m.Parallel = 1
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := res.Standings.Comparisons()[0]
	if c.SPRT == stats.Continue {
		t.Skipf("undecided on this suite: %+v", c)
	}
	if !res.Stopped || len(res.Games) >= 2*len(m.Suite.Starts) {
		t.Fatalf("the decided match played %d of %d games", len(res.Games), 2*len(m.Suite.Starts))
	}
}

func TestCheckRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Match)
		want string
	}{
		{"beam width", func(m *Match) { m.BeamWidth = 0 }, "beam width"},
		{"one arm", func(m *Match) { m.Arms = m.Arms[:1] }, "arms"},
		{"twice", func(m *Match) { m.Arms[1] = m.Arms[0] }, "twice"},
		{"parallel", func(m *Match) { m.Parallel = -1 }, "at once"},
		{"sprt", func(m *Match) { m.SPRT = &stats.SPRT{P0: 0.5, P1: 1.5, Alpha: 0.05, Beta: 0.05} }, "win rates"},
		{"out folder", func(m *Match) { m.Out = os.TempDir() }, "folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := smallMatch(t, "hand,score", "")
			tc.edit(m)
			if err := m.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check = %v, want an error about %s", err, tc.want)
			}
		})
	}
}
