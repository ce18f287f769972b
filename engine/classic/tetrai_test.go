package classic

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

type refGame struct {
	Rows   int   `json:"rows"`
	Seed   int64 `json:"seed"`
	Pieces int64 `json:"pieces"`
	Lines  int64 `json:"lines"`
}

func readRef(t testing.TB) []refGame {
	f, err := os.Open("testdata/tetr_ai_reference.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refGame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var g refGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

func mustRules(t testing.TB, rows, cols int) *Rules {
	t.Helper()
	r, err := NewRules(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTetrAIReference(t *testing.T) {
	games := readRef(t)
	if len(games) != 600 {
		t.Fatalf("%d reference games", len(games))
	}
	for _, g := range games {
		if testing.Short() && g.Rows == 10 && g.Seed%10 != 0 {
			continue
		}
		got := Play(mustRules(t, g.Rows, 10), TetrAI{}, g.Seed, 0)
		if got.Pieces != g.Pieces || got.Lines != g.Lines {
			t.Errorf("rows %d seed %d: got %d pieces %d lines, want %d %d",
				g.Rows, g.Seed, got.Pieces, got.Lines, g.Pieces, g.Lines)
		}
	}
}

func TestTetrAIReadmeGame(t *testing.T) {
	got := Play(mustRules(t, 10, 10), TetrAI{}, 6, 0)
	if got.Pieces != 30204 || got.Lines != 12073 {
		t.Fatalf("rows 10 seed 6: %+v, want 30204 pieces 12073 lines", got)
	}
}

func TestCandidateCounts(t *testing.T) {
	r := mustRules(t, 20, 10)
	want := [NumPieces]int{17, 34, 34, 9, 17, 34, 17}
	total := 0
	for p := range Piece(NumPieces) {
		if n := len(r.Candidates(p)); n != want[p] {
			t.Errorf("%v: %d candidates, want %d", p, n, want[p])
		}
		total += len(r.Candidates(p))
	}
	if total != 162 {
		t.Errorf("total %d", total)
	}
}

// TestIncrementalScore checks the incremental scorer against the full one
// on every candidate of the positions of a few games, several widths.
func TestIncrementalScore(t *testing.T) {
	for _, size := range [][2]int{{8, 10}, {12, 10}, {10, 4}, {9, 14}, {6, 7}} {
		r := mustRules(t, size[0], size[1])
		b := NewBoard(r)
		st := NewPieces(int64(size[0]*100 + size[1]))
		for range 3000 {
			p := st.Next()
			var x tetrCtx
			x.init(&b)
			for i := range r.Candidates(p) {
				c := &r.Candidates(p)[i]
				if y := b.Land(c); y >= 0 {
					if got, want := x.score(&b, c, y), TetrAIScore(&b, c, y); got != want {
						t.Fatalf("%v move %+v y %d: incremental %d, full %d\n%s", size, c.Move, y, got, want, b.String())
					}
				}
			}
			c, y := TetrAI{}.Choose(&b, p)
			if c == nil {
				b = NewBoard(r)
				continue
			}
			b.Apply(c, y)
		}
	}
}
