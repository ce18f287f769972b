package arena

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/filelock"
)

// TestResumeRefusesEditedRows: a finished row is trusted only when its
// replay gives its score and pieces: an edited score, two rows' scores
// swapped, a replay changed, a replay of another start are each refused
// as an InputError naming the line, and the file (its cut last line too)
// is left byte for byte as it was.
func TestResumeRefusesEditedRows(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if _, err := smallMatch(t, "hand,score", good).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	games := make([]Game, len(lines)-1)
	for i := range games {
		if err := json.Unmarshal([]byte(lines[i+1]), &games[i]); err != nil {
			t.Fatal(err)
		}
	}
	// two games of one arm with different scores, to swap
	a, b := -1, -1
	for i := range games {
		for j := range games {
			if games[i].Arm == games[j].Arm && games[i].Score != games[j].Score && a < 0 {
				a, b = i, j
			}
		}
	}
	if a < 0 {
		t.Fatal("no two games of one arm with different scores")
	}
	// a game whose replay would give game 2 another result
	c := -1
	for j := range games {
		if games[j].Replay != games[2].Replay && (games[j].Score != games[2].Score || games[j].Pieces != games[2].Pieces) {
			c = j
		}
	}
	if c < 0 {
		t.Fatal("no game with another replay and result")
	}
	file := func(edit func(gs []Game)) string {
		gs := append([]Game(nil), games...)
		edit(gs)
		out := lines[0]
		for _, g := range gs {
			bs, _ := json.Marshal(g)
			out += string(bs) + "\n"
		}
		return out + `{"arm":"hand","sta` // a kill's cut line
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"score edited", file(func(gs []Game) { gs[0].Score += 5 }), "line 2"},
		{"pieces edited", file(func(gs []Game) { gs[1].Pieces++ }), "line 3"},
		{"scores swapped", file(func(gs []Game) { gs[a].Score, gs[b].Score = gs[b].Score, gs[a].Score }), "its replay scores"},
		{"replay changed", file(func(gs []Game) { gs[2].Replay = gs[c].Replay }), "line 4"},
		{"replay cut", file(func(gs []Game) { r := []rune(gs[0].Replay); gs[0].Replay = string(r[:len(r)/2]) }), "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.jsonl")
			os.WriteFile(path, []byte(tc.file), 0o644)
			_, err := smallMatch(t, "hand,score", path).Run(context.Background())
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Run = %v, want an InputError with %q", err, tc.want)
			}
			if after, _ := os.ReadFile(path); string(after) != tc.file {
				t.Fatal("the refused file was changed")
			}
		})
	}
	// A look-alike whose last line is unterminated is left whole.
	look := filepath.Join(dir, "look.jsonl")
	lookData := "{\"format\": \"something else\"}\nnotes without a newline"
	os.WriteFile(look, []byte(lookData), 0o644)
	if _, err := smallMatch(t, "hand,score", look).Run(context.Background()); err == nil {
		t.Fatal("a look-alike file was taken for a match")
	}
	if after, _ := os.ReadFile(look); string(after) != lookData {
		t.Fatalf("the refused look-alike lost its last line: %q", after)
	}
	// Another match's file (other width) with a cut last game: whole too.
	other := file(func([]Game) {})
	os.WriteFile(look, []byte(other), 0o644)
	m := smallMatch(t, "hand,score", look)
	m.BeamWidth = 21
	if _, err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "beam width") {
		t.Fatalf("a match of other settings: %v", err)
	}
	if after, _ := os.ReadFile(look); string(after) != other {
		t.Fatal("the refused match file lost its cut last line")
	}
}

// TestSecondWriterRefused: while one run holds a match file, another on
// the same --out is refused at once, the file untouched.
func TestSecondWriterRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.jsonl")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := filelock.TryLock(f); err != nil {
		t.Skipf("no file locks here: %v", err)
	}
	_, err = smallMatch(t, "hand,score", path).Run(context.Background())
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "another arena run") {
		t.Fatalf("a second writer: %v", err)
	}
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Fatal("the second writer wrote")
	}
}

// TestChangedTableRefused: a G table edited behind the same file name is
// another evaluation (its name carries the table's checksum), so a
// resumed match refuses the games of the old one.
func TestChangedTableRefused(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../datasets/flats/records.json")
	if err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "g.json")
	os.WriteFile(table, src, 0o644)
	r := hatetris.Standard()
	s, err := ParseSuite("openings:2:4:1", r)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.jsonl")
	run := func() error {
		as, err := ParseArms("score,score+g:30:"+table, r)
		if err != nil {
			t.Fatal(err)
		}
		_, err = (&Match{Suite: s, Arms: as, BeamWidth: 3, Out: out, Resamples: 10}).Run(context.Background())
		return err
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	var tb map[string]any
	json.Unmarshal(src, &tb)
	tb["alpha"] = tb["alpha"].(float64) + 1
	edited, _ := json.Marshal(tb)
	os.WriteFile(table, edited, 0o644)
	if err := run(); err == nil || !strings.Contains(err.Error(), "was played with evaluation") {
		t.Fatalf("a changed table resumed: %v", err)
	}
}

// TestDeadAndEndlessRefused: a suite with dead starts, and a 4-wide well
// under a bar of 1 without a piece limit, are refused before any game.
func TestDeadAndEndlessRefused(t *testing.T) {
	r := hatetris.Standard()
	s, err := ParseSuite("openings:50:20:1", r)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := ParseArms("hand,score", r)
	m := &Match{Suite: s, Arms: as, BeamWidth: 10}
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "11 of the suite's 50 starts are dead") {
		t.Fatalf("dead starts: %v", err)
	}
	tiny, _ := hatetris.NewRules(4, 5, 1)
	s, err = ParseSuite("empty:1", tiny)
	if err != nil {
		t.Fatal(err)
	}
	as, _ = ParseArms("hand,score", tiny)
	m = &Match{Suite: s, Arms: as, BeamWidth: 50}
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "need not end") {
		t.Fatalf("an endless well: %v", err)
	}
	m.MaxPieces = 100
	if err := m.Check(); err != nil {
		t.Fatalf("with a piece limit: %v", err)
	}
}

// TestRunningStandings: the running difference kept game by game is the
// full comparison's estimate.
func TestRunningStandings(t *testing.T) {
	res, err := smallMatch(t, "hand,score,hand-holes", "").Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Standings.Comparisons() {
		d, n := res.Standings.Running(i + 1)
		if n != c.N || d-c.Diff.Estimate > 1e-9 || c.Diff.Estimate-d > 1e-9 {
			t.Fatalf("arm %s: running %+.3f over %d, comparison %+.3f over %d", c.Arm, d, n, c.Diff.Estimate, c.N)
		}
	}
}
