package main

import (
	"encoding/json"

	"github.com/hatelab/hatelab/dist/beamrun"
	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/internal/arenareport"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
)

func arenaCmd() *cobra.Command {
	var (
		o        beamrun.ArenaOptions
		well     flags.Well
		work     string
		asJSON   bool
		parallel int
	)
	cmd := &cobra.Command{
		Use:   "arena --arms A,B[,C...] --suite SPEC --beam-width N [--quiescence] [--out FILE] --work DIR [--json]",
		Short: "A paired match as `hatelab arena` plays it, one game an element (resumable from --out and --work)",
		Long: `Play the paired match of ` + "`hatelab arena`" + ` on Apache Beam: every arm beam-searches every
start of the suite, one game (an arm on a start) an element, each the game hatelab
arena plays. Every game is written to its own file under --work, then appended to
--out (hatelab arena's JSONL match file: a header line, then one line per game;
here in suite order, arms in --arms order within a start), and the table and
verdicts are printed as hatelab arena prints them.

Rerun the same command after a kill: games in --out are skipped, and games
finished under --work but not yet in --out are read, not played again; a FILE
made with other settings is refused. Every game is played: there is no --sprt
(its early stop reads the games in order; run hatelab arena --sprt for that).
Files the arms and the suite name are read by the Beam workers at the same paths.

Arms (evaluation specs, as hatelab-beam beam --eval takes them, and an arm's own
search settings):
` + arena.ArmHelp,
		Example: `  hatelab-beam arena --arms tuned,nnue:datasets/weights/openings-run/gen-06.hlnn --suite records:100:7 --beam-width 10000 --quiescence --out deep.jsonl --work work`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.WellWidth, o.WellDepth, o.Bar = well.Width, well.Depth, well.Bar
			if err := flags.CheckBeamWidth(flags.BeamWidthFlag, o.BeamWidth); err != nil {
				return err
			}
			if err := checkCount("--max-pieces", o.MaxPieces); err != nil {
				return err
			}
			if engine == "native" {
				m, err := o.Match()
				if err != nil {
					return err
				}
				m.Parallel = parallel
				res, err := m.Run(cmd.Context())
				if err != nil {
					return failure(err)
				}
				return printArena(cmd, m, res, asJSON)
			}
			m, res, err := beamrun.Arena(cmd.Context(), o, work, runner, cmd.ErrOrStderr())
			if err != nil {
				return failure(err)
			}
			return printArena(cmd, m, res, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Arms, "arms", "", "comma-separated arms, the first the baseline: as hatelab arena's")
	f.StringVar(&o.Suite, "suite", "openings:20:8:1", "start wells: openings:N:PIECES:SEED, empty:N, records:N:SEED, games:N:SEED:MINSCORE[:FILE], or distinct:SUITE (SUITE's first N distinct starts)")
	flags.BeamWidth(f, &o.BeamWidth, 1000, "wells kept at each level, for every arm")
	f.BoolVar(&o.Quiescence, "quiescence", false, "bird-in-hand lookahead for every arm")
	flags.DecimalVar(f, &o.MaxPieces, "max-pieces", 0, "stop each game after this many pieces (0: until the beam dies)")
	flags.Workers(f, &o.BeamWorkers, 1, "goroutines of each game's beam search (0: 1); no game depends on it")
	flags.Alias(f, &o.BeamWorkers, "beam-workers", flags.WorkersFlag)
	flags.DecimalVar(f, &parallel, "parallel", 0, "--engine native: games played at once (0: all cores); no game depends on it")
	f.StringVar(&o.Out, "out", "", "append every finished game to this JSONL match file, and resume from it")
	f.StringVar(&work, "work", "", "work folder (local or a Beam filesystem URL): a file per finished game")
	f.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	flags.WellVars(f, &well, "")
	cmd.MarkFlagRequired("arms")
	return cmd
}

// printArena prints the result as hatelab arena does.
func printArena(cmd *cobra.Command, m *arena.Match, res *arena.Result, asJSON bool) error {
	if asJSON {
		// One line, as hatelab arena writes it.
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetEscapeHTML(false)
		return failure(enc.Encode(arenareport.Summary(m, res)))
	}
	return failure(arenareport.Table(cmd.OutOrStdout(), m, res))
}
