package arena

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/stats"
)

func TestParseArm(t *testing.T) {
	for _, tc := range []struct {
		spec       string
		eval       string // a part of the evaluation's name
		width      int
		quiescence string // "", "on", "off"
		error      string
	}{
		{"hand", "hand:dnf86[", 0, "", ""},
		{"tuned", "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]", 0, "", ""},
		{"weights:../../datasets/weights/tuned-03.json", "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]", 0, "", ""},
		{"tuned@w300@noq", "hand:tuned-03[", 300, "off", ""},
		{"tuned-row-transitions", "hand:tuned-03-row_transitions[0 0 0 0 0 0 -332.2211 0.5 column-transitions 10 rows-with-holes 80]", 0, "", ""},
		{"tuned+sz-two-well", "hand:tuned-03+sz-two-well[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80 sz-two-well]", 0, "", ""},
		{"tuned-holes", "", 0, "", "holes is already 0"},
		{"tuned+stack-height", "", 0, "", "no surface-height weight"},
		{"tuned-03", "", 0, "", "unknown term"},
		{"tuned:x", "", 0, "", "unknown evaluation \"tuned:x\" (want tuned, hand, score,"},
		{"score", "score-only", 0, "", ""},
		{"hand-holes", "dnf86-holes", 0, "", ""},
		{"hand-enclosed-holes", "dnf86-enclosed_holes", 0, "", ""},
		{"weights:../../datasets/weights/dnf86.json", "hand:dnf86[", 0, "", ""},
		{"nnue:../../datasets/weights/gen-00.hlnn", "", 0, "", ""},
		{"hand@w300", "hand:dnf86[", 300, "", ""},
		{"hand@noq", "hand:dnf86[", 0, "off", ""},
		{"score@q@w50", "score-only", 50, "on", ""},
		{"hand-stack_height", "", 0, "", "already 0"},
		{"hand-legs", "", 0, "", "unknown term"},
		{"hand@w0", "", 0, "", "@w0"},
		{"hand@q@noq", "", 0, "", "twice"},
		{"hand@fast", "", 0, "", "unknown setting"},
		{"nnue:", "", 0, "", "names no file"},
		{"hand@w0300", "", 0, "", "no leading zeros"},
		{"hand@w16777216", "", 0, "", "1 to 16777215"},
		{"score@", "", 0, "", "empty setting"},
		{"score@q@", "", 0, "", "empty setting"},
		{"tuned-score", "", 0, "", "cannot be removed"},
		{"nnue:/no/such.hlnn", "", 0, "", "no such"},
		{"hand+g:1", "", 0, "", "WEIGHT:TABLE"},
		{"hand+g:NaN:x.json", "", 0, "", "weight"},
		{"random", "", 0, "", "unknown evaluation"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			a, err := ParseArm(tc.spec, nil)
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("ParseArm(%q) = %v, want a one-line error about %q", tc.spec, err, tc.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Spec != tc.spec || !strings.Contains(a.Eval.Name(), tc.eval) || a.BeamWidth != tc.width {
				t.Fatalf("ParseArm(%q) = %+v (eval %s)", tc.spec, a, a.Eval.Name())
			}
			w, q := a.Settings(1000, true)
			wantQ := tc.quiescence != "off"
			if w != map[bool]int{true: tc.width, false: 1000}[tc.width != 0] || q != wantQ {
				t.Fatalf("settings %d %v", w, q)
			}
		})
	}
}

// TestTunedArm: the arm tuned plays exactly the games of the arm
// weights:datasets/weights/tuned-03.json (the same evaluation name, the
// same replays) on the first starts of the test suite, and not those of
// hand; BestHand names it.
func TestTunedArm(t *testing.T) {
	if BestHand != "tuned" {
		t.Fatalf("BestHand = %q", BestHand)
	}
	s, err := ParseSuite("openings:20:8:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Starts = s.Starts[:2]
	arms, err := ParseArms("tuned,weights:../../datasets/weights/tuned-03.json,hand", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{Suite: s, Arms: arms, BeamWidth: 30, Quiescence: true, Parallel: 2}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	games := map[string][]Game{}
	for _, g := range sortedGames(res.Games) {
		games[g.Arm] = append(games[g.Arm], g)
	}
	tuned, file, hand := games["tuned"], games["weights:../../datasets/weights/tuned-03.json"], games["hand"]
	if len(tuned) != 2 || len(file) != 2 || len(hand) != 2 {
		t.Fatalf("games %v", games)
	}
	differs := false
	for i := range tuned {
		a, b := tuned[i], file[i]
		a.Arm, b.Arm = "", ""
		if a != b || a.Replay == "" {
			t.Errorf("start %d: tuned %+v, the file's weights %+v", i, a, b)
		}
		if a.Eval != eval.NewHand(eval.TunedWeights()).Name() {
			t.Errorf("start %d: tuned's eval %q", i, a.Eval)
		}
		differs = differs || hand[i].Replay != a.Replay
	}
	if !differs {
		t.Error("tuned and hand play the same games: the test cannot tell them apart")
	}
}

// TestTunedArmCommitted: the arm tuned replays the committed test-suite
// game of weights:datasets/weights/tuned-03.json at width 1,000 with
// quiescence (datasets/arena/terms-w1000.jsonl, start 0).
func TestTunedArmCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("a game at width 1,000 with quiescence")
	}
	res, err := ReadMatchAny("../../datasets/arena/terms-w1000.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var want *Game
	for i, g := range res.Games {
		if g.Arm == "weights:datasets/weights/tuned-03.json" && g.Start == 0 {
			want = &res.Games[i]
		}
	}
	if want == nil {
		t.Fatal("no tuned-03 game of start 0 in terms-w1000.jsonl")
	}
	s, err := ParseSuite(res.Header.SuiteSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Starts = s.Starts[:1]
	arm, err := ParseArm("tuned", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{Suite: s, Arms: []Arm{arm, arm}, BeamWidth: res.Header.BeamWidth, Quiescence: res.Header.Quiescence}
	got, err := m.play(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Eval != want.Eval || got.Score != want.Score || got.Pieces != want.Pieces || got.Children != want.Children || got.Replay != want.Replay {
		t.Errorf("tuned: %s %d lines %d pieces %d children %s\ncommitted: %s %d lines %d pieces %d children %s",
			got.Eval, got.Score, got.Pieces, got.Children, got.Replay, want.Eval, want.Score, want.Pieces, want.Children, want.Replay)
	}
}

// TestReadMatchOrder: the arms named in ReadMatch's order come after the
// baseline in that order, the file's others after them as they first
// appear, with the same comparisons as in file order; an arm the file
// lacks is an error naming it.
func TestReadMatchOrder(t *testing.T) {
	const file = "../../datasets/arena/gens-w10000.jsonl"
	gen := func(g int) string { return fmt.Sprintf("nnue:datasets/weights/scale-run/gen-%02d.hlnn", g) }
	plain, err := ReadMatch(file, "score")
	if err != nil {
		t.Fatal(err)
	}
	ordered, err := ReadMatch(file, "score", gen(2), gen(3), gen(4), gen(5), gen(6))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"score", gen(2), gen(3), gen(4), gen(5), gen(6), "hand", "nnue:datasets/weights/gen-00.hlnn", "nnue:datasets/weights/gen-02-small.hlnn"}
	if got := ordered.Standings.Arms; !slices.Equal(got, want) {
		t.Fatalf("arms %q, want %q", got, want)
	}
	if !slices.Equal(plain.Standings.Arms[1:5], []string{"hand", "nnue:datasets/weights/gen-00.hlnn", "nnue:datasets/weights/gen-02-small.hlnn", gen(4)}) {
		t.Fatalf("file order %q: the test no longer reorders anything", plain.Standings.Arms)
	}
	byArm := map[string]stats.Comparison{}
	for _, c := range plain.Comparisons() {
		byArm[c.Arm] = c
	}
	for _, c := range ordered.Comparisons() {
		p := byArm[c.Arm]
		if c.Diff != p.Diff || c.P != p.P || c.PHolm != p.PHolm || c.Wins != p.Wins || *c.FamilyDiff != *p.FamilyDiff {
			t.Errorf("%s: %+v in order, %+v in file order", c.Arm, c, p)
		}
	}
	if _, err := ReadMatch(file, "score", "hand", "tuned"); err == nil || !strings.Contains(err.Error(), "no game of the arm tuned") {
		t.Errorf("an arm the file lacks: %v", err)
	}
}
