package hatetris

import (
	"slices"
	"testing"

	"github.com/hatelab/hatelab/internal/testvectors"
)

type knownReplay struct {
	Name         string
	AI           string
	Encoding     string
	Keys         string
	KeysUsed     int     `json:"keys_used"`
	FinalScore   int     `json:"final_score"`
	PiecesPlaced int     `json:"pieces_placed"`
	Pieces       string  `json:"pieces"`
	GameOver     bool    `json:"game_over"`
	FinalWell    []int   `json:"final_well"`
	LoopChanges  [][]any `json:"loop_rule_changes"`
	LivePiece    *struct {
		ID      string
		X, Y, O int
	} `json:"live_piece"`
	Width, Depth, Bar int
}

func TestKnownReplays(t *testing.T) {
	recs := testvectors.ReadJSONL[knownReplay](t, "testdata/known_replays.jsonl")
	if len(recs) != 61 {
		t.Fatalf("read %d records, want 61", len(recs))
	}
	played := 0
	for _, rec := range recs {
		ai, err := ParseAI(rec.AI)
		if err != nil {
			t.Fatal(err)
		}
		played++
		t.Run(rec.Name+"/"+rec.Encoding, func(t *testing.T) {
			r, err := NewRules(rec.Width, rec.Depth, rec.Bar)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Play(r, ai, rec.Keys)
			if err != nil {
				t.Fatal(err)
			}
			if g.Score != rec.FinalScore || g.Placed() != rec.PiecesPlaced || g.Over != rec.GameOver || g.KeysUsed != rec.KeysUsed {
				t.Fatalf("score %d placed %d over %v keys %d; want %d %d %v %d",
					g.Score, g.Placed(), g.Over, g.KeysUsed, rec.FinalScore, rec.PiecesPlaced, rec.GameOver, rec.KeysUsed)
			}
			if got := PiecesString(g.Pieces); got != rec.Pieces {
				t.Fatalf("pieces differ at %d", firstDiff(got, rec.Pieces))
			}
			if !slices.Equal(r.Rows(&g.Well), rec.FinalWell) {
				t.Fatalf("final well %v, want %v", r.Rows(&g.Well), rec.FinalWell)
			}
			if ai == HATETRIS {
				if len(g.LoopChanges) != len(rec.LoopChanges) {
					t.Fatalf("%d loop changes, want %d", len(g.LoopChanges), len(rec.LoopChanges))
				}
				for i, lc := range g.LoopChanges {
					want := rec.LoopChanges[i]
					if float64(lc.Index) != want[0].(float64) || lc.Mild.String() != want[1] || lc.Sent.String() != want[2] {
						t.Fatalf("loop change %d: %+v, want %v", i, lc, want)
					}
				}
			}
			if rec.LivePiece != nil {
				if g.Over || g.Piece().String() != rec.LivePiece.ID || g.Live != (Position{rec.LivePiece.X, rec.LivePiece.Y, rec.LivePiece.O}) {
					t.Fatalf("live piece %v at %+v, want %+v", g.Piece(), g.Live, *rec.LivePiece)
				}
			}
		})
	}
	if played != 61 {
		t.Fatalf("played only %d records", played)
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

type vecMove struct {
	N            int
	Well         []int
	Score        int
	SeenBefore   int `json:"well_seen_before"`
	Piece        string
	MildPiece    string `json:"mild_piece"`
	AILoops      []int  `json:"ai_loops"`
	AIPeaks      []int  `json:"ai_peaks"`
	Results      [][]int
	ResultsLines []int `json:"results_lines"`
	Chosen       int
	Keys         string
	Lock         [3]int
	ScoreAfter   int  `json:"score_after"`
	GameOver     bool `json:"game_over"`
}

type vecGame struct {
	Game, Width, Depth, Bar int
	Strategy                string
	PrefixKeys              string `json:"prefix_keys"`
	PrefixPieces            int    `json:"prefix_pieces"`
	PiecesPlaced            int    `json:"pieces_placed"`
	FinalScore              int    `json:"final_score"`
	GameOver                bool   `json:"game_over"`
	Pieces                  string
	FinalWell               []int  `json:"final_well"`
	ReplayKeys              string `json:"replay_keys"`
	Moves                   []vecMove
}

func TestRandomGamesSmall(t *testing.T) { checkGames(t, "testdata/random_games_small.jsonl.gz", 308) }
func TestRandomGames(t *testing.T)      { checkGames(t, "testdata/random_games.jsonl.gz", 213) }

func checkGames(t *testing.T, path string, wantGames int) {
	games := testvectors.ReadJSONL[vecGame](t, path)
	if len(games) != wantGames {
		t.Fatalf("%d games, want %d", len(games), wantGames)
	}
	moves, loopMoves := 0, 0
	for _, vg := range games {
		r, err := NewRules(vg.Width, vg.Depth, vg.Bar)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewGenerator(r)
		g := NewGame(r, HATETRIS)
		if err := g.PressAll(vg.PrefixKeys); err != nil {
			t.Fatal(err)
		}
		for _, m := range vg.Moves {
			moves++
			if m.Piece != m.MildPiece {
				loopMoves++
			}
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("game %d (%dx%d) move %d: "+format, append([]any{vg.Game, vg.Width, vg.Depth, m.N}, args...)...)
			}
			if g.Placed() != m.N || g.Score != m.Score || !slices.Equal(r.Rows(&g.Well), m.Well) {
				fail("state differs before the move")
			}
			if g.Seen.Count(&g.Well)-1 != m.SeenBefore {
				fail("seen before %d, want %d", g.Seen.Count(&g.Well)-1, m.SeenBefore)
			}
			rk := gen.Rank(&g.Well, g.Seen)
			if !slices.Equal(rk.Loops[:], m.AILoops) || !slices.Equal(rk.Peak[:], m.AIPeaks) {
				fail("ranking loops %v peaks %v, want %v %v", rk.Loops, rk.Peak, m.AILoops, m.AIPeaks)
			}
			if g.Piece().String() != m.Piece || g.mild.String() != m.MildPiece {
				fail("piece %v (mild %v), want %s (%s)", g.Piece(), g.mild, m.Piece, m.MildPiece)
			}
			if p := gen.Choose(&g.Well, HATETRIS, g.Seen); p.String() != m.Piece {
				fail("Choose gives %v, want %s", p, m.Piece)
			}
			if p := gen.Choose(&g.Well, Mild, nil); p.String() != m.MildPiece {
				fail("Choose(Mild) gives %v, want %s", p, m.MildPiece)
			}
			res := gen.Outcomes(&g.Well, g.Piece(), nil)
			naive := r.NaiveOutcomes(&g.Well, g.Piece())
			SortOutcomes(r, res)
			SortOutcomes(r, naive)
			if len(res) != len(m.Results) || len(naive) != len(m.Results) {
				fail("%d results (naive %d), want %d", len(res), len(naive), len(m.Results))
			}
			for i := range res {
				if !slices.Equal(r.Rows(&res[i].Well), m.Results[i]) || res[i].Lines != m.ResultsLines[i] || !sameOutcome(&res[i], &naive[i]) {
					fail("result %d differs", i)
				}
			}
			chosen := res[m.Chosen]
			keys, ok := r.KeysTo(&g.Well, g.Piece(), &chosen.Well)
			if !ok || len(keys) > len(m.Keys) {
				fail("KeysTo gives %q %v; the game used %q", keys, ok, m.Keys)
			}
			if err := g.PressAll(m.Keys); err != nil {
				fail("%v", err)
			}
			st := g.Steps[len(g.Steps)-1]
			if st.Lock != (Position{m.Lock[0], m.Lock[1], m.Lock[2]}) || g.Score != m.ScoreAfter || g.Over != m.GameOver || chosen.GameOver != m.GameOver {
				fail("after the move: lock %+v score %d over %v", st.Lock, g.Score, g.Over)
			}
			if chosen.Well != g.Well && !m.GameOver {
				fail("chosen result is not the played well")
			}
		}
		whole, err := Play(r, HATETRIS, vg.ReplayKeys)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Well != g.Well || whole.Score != g.Score || whole.Over != g.Over {
			t.Fatalf("game %d: replaying replay_keys differs from the move-by-move game", vg.Game)
		}
		if g.Placed() != vg.PiecesPlaced || g.Score != vg.FinalScore || g.Over != vg.GameOver || PiecesString(g.Pieces) != vg.Pieces || !slices.Equal(r.Rows(&g.Well), vg.FinalWell) {
			t.Fatalf("game %d: final state differs", vg.Game)
		}
	}
	t.Logf("%d games, %d moves, %d loop-rule moves", len(games), moves, loopMoves)
}
