package classic

import "testing"

func boardFrom(t *testing.T, rows []string) Board {
	t.Helper()
	r := mustRules(t, len(rows), len(rows[0]))
	b := NewBoard(r)
	for i, s := range rows {
		for c := range s {
			if s[c] == '#' {
				b.Cells[i] |= 1 << c
			}
		}
		if b.Cells[i] != 0 && b.Top == r.Rows {
			b.Top = i
		}
	}
	b.rebuildHeights()
	return b
}

func TestFeatures(t *testing.T) {
	tests := []struct {
		name  string
		board []string
		move  Move
		want  Features
	}{
		{"O on empty", []string{"....", "....", "....", "....", "...."}, Move{10, 0},
			Features{Landing2: 3, RowTransitions: 10, ColTransitions: 4, MaxHeight: 2}},
		{"O clears", []string{"....", "....", "....", "....", "..##"}, Move{10, 0},
			Features{Cleared: 1, Eroded: 2, Landing2: 3, RowTransitions: 10, ColTransitions: 4, MaxHeight: 1}},
		{"holes", []string{"....", "....", "....", "#.#.", "##.#"}, Move{10, 0},
			Features{Landing2: 7, RowTransitions: 2 + 2 + 2 + 4 + 2, ColTransitions: 1 + 3 + 3 + 1,
				Holes: 2, HoleDepth: 2 + 1, RowsWithHoles: 2, CumWells: 3, MaxHeight: 4}},
	}
	for _, tc := range tests {
		b := boardFrom(t, tc.board)
		c := b.R.Candidate(tc.move)
		y := b.Land(c)
		var f Features
		var after Board
		f.Compute(&b, c, y, &after)
		tc.want.Before, tc.want.After, tc.want.Cand, tc.want.Y = &b, &after, c, y
		if f != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v\n%s", tc.name, f, tc.want, after.String())
		}
	}
}

// TestAgentGames pins games of the non-reference agents (regression values
// from this implementation, not external truth) and checks that every
// agent is deterministic.
func TestAgentGames(t *testing.T) {
	tests := []struct {
		agent         string
		rows          int
		seed          int64
		pieces, lines int64
	}{
		{"dellacherie", 8, 8000, 2024, 803},
		{"bcts", 8, 8000, 431, 166},
		{"wkb", 5, 5000, 50, 16},
		{"wkb", 6, 6000, 398, 155},
	}
	for _, tc := range tests {
		for range 2 {
			a, err := NewAgent(tc.agent)
			if err != nil {
				t.Fatal(err)
			}
			got := Play(mustRules(t, tc.rows, 10), a, tc.seed, 0)
			if got.Pieces != tc.pieces || got.Lines != tc.lines {
				t.Errorf("%s rows %d seed %d: %d pieces %d lines, want %d %d",
					tc.agent, tc.rows, tc.seed, got.Pieces, got.Lines, tc.pieces, tc.lines)
			}
		}
	}
	if _, err := NewAgent("nope"); err == nil {
		t.Error("unknown agent accepted")
	}
}

func TestGameStep(t *testing.T) {
	r := mustRules(t, 5, 10)
	g := NewGame(r, TetrAI{}, 5000)
	for g.Step() {
	}
	if g.Pieces != 299 || g.Lines != 116 || !g.Over {
		t.Fatalf("game: %d %d %v", g.Pieces, g.Lines, g.Over)
	}
	// Replaying the moves through Board.Place gives the same board.
	b := NewBoard(r)
	st := NewPieces(5000)
	a := TetrAI{}
	for range 50 {
		c, y := a.Choose(&b, st.Next())
		before := b
		n1 := b.Apply(c, y)
		n2, ok := before.Place(c.Move)
		if !ok || n1 != n2 || before.Cells != b.Cells || before.H != b.H || before.Top != b.Top {
			t.Fatal("Place differs from Apply")
		}
	}
}
