package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/internal/testvectors"
	"github.com/spf13/cobra"
)

// run executes a fresh command in-process and returns its output.
func run(t *testing.T, cmd *cobra.Command, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

// runJSON runs a command with --json output and returns its standard
// output alone, checking that standard error is empty and that the output
// still holds want (a key kept for one release).
func runJSON(t *testing.T, cmd *cobra.Command, want string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	// The deprecated keys are kept in the output, documented in --help,
	// and not announced on standard error at every call.
	if e := strings.TrimSpace(errb.String()); err == nil && (e != "" || !strings.Contains(out.String(), want)) {
		t.Fatalf("standard error %q, output %q: want no note, and the old key %s kept", e, out.String(), want)
	}
	return out.String(), err
}

// TestReplayCommand replays every HATETRIS and Mild record of the vectors
// in its published encoding through `hatelab replay --json`.
func TestReplayCommand(t *testing.T) {
	n := 0
	testvectors.EachLine(t, "testdata/known_replays.jsonl", func(line []byte) {
		var rec struct {
			Name, AI, Encoding, Replay string
			replayJSON
			FinalScore int   `json:"final_score"`
			FinalWell  []int `json:"final_well"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		ai := map[string]string{"HATETRIS": "hatetris", "HATETRIS Mild": "mild", "LOVETRIS": "lovetris", "Brzustowski": "brzustowski"}[rec.AI]
		if ai == "" {
			t.Fatalf("unknown AI %q", rec.AI)
		}
		n++
		out, err := runJSON(t, newReplayCmd(), `"pieces"`, "--json", "--ai", ai, rec.Replay)
		if err != nil {
			t.Fatalf("%s: %v", rec.Name, err)
		}
		var got replayJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v in %q", rec.Name, err, out)
		}
		want := rec.replayJSON
		want.Score, want.Well = rec.FinalScore, rec.FinalWell
		if got.Score != want.Score || got.PiecesPlaced != want.PiecesPlaced || want.OldPieces == "" || got.Sequence != want.OldPieces || got.OldPieces != want.OldPieces ||
			got.GameOver != want.GameOver || got.KeysUsed != want.KeysUsed || !slices.Equal(got.Well, want.Well) {
			t.Errorf("%s (%s): got %+v", rec.Name, rec.Encoding, got)
		}
	})
	if n != 61 {
		t.Fatalf("replayed %d records, want 61", n)
	}
}

// TestMovesCommand checks `hatelab moves --json` against the first move of
// every small-well vector game (no history: the AI's piece) and against
// every move's result set with --piece.
func TestMovesCommand(t *testing.T) {
	games := 0
	testvectors.EachLine(t, "testdata/random_games_small.jsonl.gz", func(line []byte) {
		var g struct {
			Width, Depth, Bar int
			Moves             []struct {
				N            int
				Well         []int
				Piece        string
				MildPiece    string `json:"mild_piece"`
				SeenBefore   int    `json:"well_seen_before"`
				Results      [][]int
				ResultsLines []int `json:"results_lines"`
			}
		}
		if err := json.Unmarshal(line, &g); err != nil {
			t.Fatal(err)
		}
		games++
		geo := []string{"--well-width", fmt.Sprint(g.Width), "--well-depth", fmt.Sprint(g.Depth), "--bar", fmt.Sprint(g.Bar)}
		for i, m := range g.Moves {
			if i%4 != 0 { // a quarter of the moves keeps the test quick
				continue
			}
			well := joinInts(m.Well)
			args := append(slices.Clone(geo), "--json", "--well", well)
			if m.N > 0 || m.SeenBefore > 0 {
				args = append(args, "--piece", m.Piece)
			}
			out, err := run(t, newMovesCmd(), args...)
			if err != nil {
				t.Fatal(err)
			}
			var got movesJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Piece != m.Piece || len(got.Results) != len(m.Results) {
				t.Fatalf("%dx%d move %d: piece %s with %d results, want %s with %d", g.Width, g.Depth, m.N, got.Piece, len(got.Results), m.Piece, len(m.Results))
			}
			for k, res := range got.Results {
				if !slices.Equal(res.Well, m.Results[k]) || res.Lines != m.ResultsLines[k] {
					t.Fatalf("%dx%d move %d result %d differs", g.Width, g.Depth, m.N, k)
				}
			}
		}
	})
	if games != 308 {
		t.Fatalf("%d games", games)
	}
}

func TestHatetrisBadInput(t *testing.T) {
	empty := strings.TrimSuffix(strings.Repeat("0,", 20), ",")
	tests := []struct {
		name string
		cmd  func() *cobra.Command
		args []string
		want string
	}{
		{"foreign character", newReplayCmd, []string{"hello, world"}, "not in the repertoire"},
		{"bad width", newReplayCmd, []string{"--well-width", "3", "DDD"}, "width 3 out of range"},
		{"bad ai", newReplayCmd, []string{"--ai", "nice", "DDD"}, "unknown AI"},
		{"missing file", newReplayCmd, []string{"@/nonexistent/replay"}, "cannot read"},
		{"row count", newMovesCmd, []string{"--well", "0,0,0"}, "well has 3 rows, want 20"},
		{"row too wide", newMovesCmd, []string{"--well-width", "4", "--well-depth", "5", "--well", "0,0,0,0,16"}, "does not fit a 4-wide well"},
		{"not a number", newMovesCmd, []string{"--well", strings.Replace(empty, "0", "x", 1)}, `"x" is not a number`},
		{"width out of range", newMovesCmd, []string{"--well-width", "17", "--well", empty}, "width 17 out of range"},
		{"unknown piece", newMovesCmd, []string{"--piece", "Q", "--well", empty}, `unknown piece "Q"`},
		{"game over well", newMovesCmd, []string{"--well", "0,0,0,1," + strings.Repeat("1,", 15) + "1"}, "above the bar"},
		{"no well", newMovesCmd, nil, "--well is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, tc.cmd(), tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestShortSequence(t *testing.T) {
	long := strings.Repeat("SZ", 5000)
	for _, c := range []struct{ in, want string }{
		{"SZOI", "SZOI"},
		{long[:maxSequence], long[:maxSequence]},
		{long, long[:maxSequence] + "… (10,000 pieces; --json prints them all)"},
	} {
		if got := shortSequence(c.in); got != c.want {
			t.Errorf("shortSequence(%d letters) = %q, want %q", len(c.in), got, c.want)
		}
	}
}
