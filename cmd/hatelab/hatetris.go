package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newReplayCmd(), newMovesCmd())
}

// geometry holds the well-size flags shared by the HATETRIS commands.
type geometry struct{ width, depth, bar int }

func (g *geometry) register(cmd *cobra.Command) {
	f := cmd.Flags()
	flags.WellWidth(f, &g.width, 10, "well width (4..16)", "width")
	flags.DecimalVar(f, &g.depth, flags.WellDepthFlag, 20, "well depth in rows, bar rows included")
	flags.Alias(f, &g.depth, "depth", flags.WellDepthFlag)
	flags.DecimalVar(f, &g.bar, flags.BarFlag, 4, "rows above the bar (1..4)")
}

func (g *geometry) rules() (*hatetris.Rules, error) {
	r, err := hatetris.NewRules(g.width, g.depth, g.bar)
	return r, nameFlag(err, map[string]string{"width": "--well-width", "depth": "--well-depth", "bar": "--bar"})
}

// nameFlag puts the flag's name on an error of the engine that begins
// with the name of a value ("width 99 out of range 4..16" becomes
// "--well-width 99 out of range 4..16"), so that the line names the flag.
func nameFlag(err error, names map[string]string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	word, rest, ok := strings.Cut(msg, " ")
	if f, known := names[word]; ok && known {
		return fmt.Errorf("%s %s", f, rest)
	}
	return err
}

// rulesAndAI validates the geometry flags and an --ai flag's value.
func (g *geometry) rulesAndAI(aiName string) (*hatetris.Rules, hatetris.AI, error) {
	r, err := g.rules()
	if err != nil {
		return nil, 0, err
	}
	ai, err := hatetris.ParseAI(aiName)
	return r, ai, err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return failure(err)
	}
	return nil
}

// replayJSON is the --json output of `hatelab replay`.
// pieces_placed is the game's Pieces (the glossary's count); sequence is
// the pieces as letters. The old key pieces (the letters) stays for one
// release.
type replayJSON struct {
	Score        int    `json:"score"`
	PiecesPlaced int    `json:"pieces_placed"`
	Sequence     string `json:"sequence"`
	OldPieces    string `json:"pieces"` // deprecated: sequence
	GameOver     bool   `json:"game_over"`
	KeysUsed     int    `json:"keys_used"`
	Well         []int  `json:"well"`
}

func newReplayCmd() *cobra.Command {
	var (
		geo    geometry
		aiName string
		asJSON bool
		record string
	)
	cmd := &cobra.Command{
		Use:   "replay [--well-width W --well-depth D --bar B] [--ai hatetris|mild|lovetris|brzustowski|burgiel] [--json] REPLAY | --record NAME",
		Short: "Replay a HATETRIS game and print its score and final well",
		Long: `Replay a HATETRIS game key by key under the real game's rules and AI.
REPLAY is a replay in any format the game reads (raw keys, hex, Base65536,
Base2048; recognised in the game's own order), @FILE, or - for standard input.
Keys after game over are ignored, as in the game.
--record NAME replays a record of datasets/records instead (hatelab records
lists their ids; a name or a score works too), against its own AI unless
--ai is given.`,
		Example: `  hatelab replay --record 3711
  hatelab replay --json --record david-felipe-1
  hatelab replay --ai mild DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := replayRecordInput(cmd, record, args, &aiName)
			if err != nil {
				return err
			}
			r, ai, err := geo.rulesAndAI(aiName)
			if err != nil {
				return err
			}
			keys, _, err := replaycodec.DecodeAuto(in)
			if err != nil {
				return err
			}
			g, err := hatetris.Play(r, ai, keys)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, replayJSON{
					Score: g.Score, PiecesPlaced: g.Placed(), Sequence: hatetris.PiecesString(g.Pieces), OldPieces: hatetris.PiecesString(g.Pieces),
					GameOver: g.Over, KeysUsed: g.KeysUsed, Well: r.Rows(&g.Well),
				})
			}
			var b strings.Builder
			fmt.Fprintf(&b, "score:          %d\n", g.Score)
			fmt.Fprintf(&b, "pieces placed:  %d\n", g.Placed())
			fmt.Fprintf(&b, "sequence:       %s\n", shortSequence(hatetris.PiecesString(g.Pieces)))
			fmt.Fprintf(&b, "game over:      %v\n", g.Over)
			fmt.Fprintf(&b, "keys used:      %d of %d\n", g.KeysUsed, len(keys))
			if ai == hatetris.HATETRIS {
				fmt.Fprintf(&b, "loop rule:      changed the piece %d times\n", len(g.LoopChanges))
			}
			b.WriteString(r.Format(&g.Well))
			if _, err := io.WriteString(out, b.String()); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	geo.register(cmd)
	cmd.Flags().StringVar(&aiName, "ai", "hatetris", "enemy AI: hatetris (with the loop rule), mild, lovetris, brzustowski or burgiel")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print one JSON object {"score","pieces_placed","sequence","game_over","keys_used","well"} (and "pieces", the old name of "sequence", for one release)`)
	cmd.Flags().StringVar(&record, "record", "", "replay this record of datasets/records: an id, name or score that hatelab records lists")
	return cmd
}

// resultJSON is one outcome in the --json output of `hatelab moves`.
type resultJSON struct {
	Well     []int `json:"well"`
	Lines    int   `json:"lines"`
	GameOver bool  `json:"game_over"`
}

type movesJSON struct {
	Piece   string       `json:"piece"`
	Results []resultJSON `json:"results"`
}

func newMovesCmd() *cobra.Command {
	var (
		geo       geometry
		aiName    string
		pieceName string
		wellArg   string
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "moves [--well-width W --well-depth D --bar B] [--ai hatetris|mild] [--piece P] [--json] --well R0,R1,...",
		Short: "The AI's piece for a well and every distinct resulting well",
		Long: `Print the piece the AI sends for a well (as at the start of a game: no
history but the well itself) or the piece given with --piece, and every
distinct well that piece can leave after line clears, game-ending ones
included, sorted by their rows (top row first).
--well lists all depth rows, top first, each a width-bit number whose most
significant bit is the leftmost column; @FILE and - read it from a file or
standard input.`,
		Example: `  hatelab moves --well 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
  hatelab moves --well-width 4 --well-depth 8 --piece I --json --well 0,0,0,0,0,0,0,14`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, ai, err := geo.rulesAndAI(aiName)
			if err != nil {
				return err
			}
			if wellArg == "" {
				return fmt.Errorf("--well is required (%d comma-separated rows)", r.Depth)
			}
			text, err := readArg(wellArg)
			if err != nil {
				return err
			}
			w, err := r.ParseWellString(text)
			if err != nil {
				return err
			}
			if r.IsOver(&w) {
				return fmt.Errorf("well has blocks above the bar: the game is over, no piece spawns")
			}
			gen := hatetris.NewGenerator(r)
			var p hatetris.Piece
			if pieceName != "" {
				if p, err = hatetris.ParsePiece(pieceName); err != nil {
					return err
				}
			} else {
				p = gen.Choose(&w, ai, nil)
			}
			results := gen.Outcomes(&w, p, nil)
			hatetris.SortOutcomes(r, results)
			out := cmd.OutOrStdout()
			if asJSON {
				mj := movesJSON{Piece: p.String(), Results: make([]resultJSON, len(results))}
				for i := range results {
					mj.Results[i] = resultJSON{Well: r.Rows(&results[i].Well), Lines: results[i].Lines, GameOver: results[i].GameOver}
				}
				return writeJSON(out, mj)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "piece %s: %d distinct results\n", p, len(results))
			for i := range results {
				res := &results[i]
				fmt.Fprintf(&b, "%3d  lines %d  game over %-5v  %s\n", i, res.Lines, res.GameOver, joinInts(r.Rows(&res.Well)))
			}
			if _, err := io.WriteString(out, b.String()); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	geo.register(cmd)
	cmd.Flags().StringVar(&aiName, "ai", "hatetris", "enemy AI choosing the piece: hatetris or mild")
	cmd.Flags().StringVar(&pieceName, "piece", "", "use this piece (S Z O I L J T) instead of the AI's")
	cmd.Flags().StringVar(&wellArg, "well", "", "the well: comma-separated rows, top first (or @FILE, -)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// maxSequence bounds the sequence of pieces replay prints: a record's
// 9,309 letters are a screenful; --json has them all.
const maxSequence = 80

// shortSequence is the sequence of pieces, cut after maxSequence letters
// with a note of how many there are.
func shortSequence(seq string) string {
	if len(seq) <= maxSequence {
		return seq
	}
	n := strconv.Itoa(len(seq))
	for i := len(n) - 3; i > 0; i -= 3 {
		n = n[:i] + "," + n[i:]
	}
	return fmt.Sprintf("%s… (%s pieces; --json prints them all)", seq[:maxSequence], n)
}
