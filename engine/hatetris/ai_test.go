package hatetris

import (
	"strings"
	"testing"
)

func TestStatelessAIs(t *testing.T) {
	r := Standard()
	tests := []struct {
		ai   AI
		keys string
		want string // pieces spawned
	}{
		// Every piece dropped straight down: D locks after the fall.
		{Burgiel, strings.Repeat("D", 3*19), "SZSZ"},
		{LOVETRIS, strings.Repeat("D", 3*19), "IIII"},
	}
	for _, tc := range tests {
		g, err := Play(r, tc.ai, tc.keys)
		if err != nil {
			t.Fatal(err)
		}
		if got := PiecesString(g.Pieces); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: pieces %s, want prefix %s", tc.ai, got, tc.want)
		}
	}
}

func TestParseAI(t *testing.T) {
	for _, name := range []string{"hatetris", "mild", "lovetris", "brzustowski", "burgiel"} {
		ai, err := ParseAI(name)
		if err != nil || ai.String() != name {
			t.Errorf("ParseAI(%q) = %v, %v", name, ai, err)
		}
	}
	if _, err := ParseAI("HATETRIS Mild"); err != nil {
		t.Error(err)
	}
	if _, err := ParseAI("kind"); err == nil {
		t.Error("ParseAI accepted an unknown AI")
	}
}

func TestKeysToReachesResult(t *testing.T) {
	r := Standard()
	var w Well
	g := NewGenerator(r)
	for p := Piece(0); p < NumPieces; p++ {
		for _, res := range g.Outcomes(&w, p, nil) {
			keys, ok := r.KeysTo(&w, p, &res.Well)
			if !ok {
				t.Fatalf("%v: no keys for a result", p)
			}
			game := NewGameFrom(r, Mild, w, 0)
			game.Pieces[0] = p
			if err := game.PressAll(keys); err != nil {
				t.Fatal(err)
			}
			if game.Placed() != 1 || game.Steps[0].Piece != p {
				t.Fatalf("%v: keys %q did not lock exactly one piece", p, keys)
			}
			after := game.Steps[0]
			got := r.Lock(&w, p, after.Lock)
			if got.Well != res.Well {
				t.Fatalf("%v: keys %q reach another well", p, keys)
			}
			// 16 rows of fall below the spawn need at least 16 D presses.
			if strings.Count(keys, "D") < 16 {
				t.Fatalf("%v: %q is too short to reach the floor", p, keys)
			}
		}
	}
}
