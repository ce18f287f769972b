package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func init() {
	rootCmd.AddCommand(newFlatsCmd())
}

// flatsNote prints one progress line; re-point it to change where the
// flats commands report progress.
var flatsNote = func(w io.Writer, format string, a ...any) { fmt.Fprintf(w, "flats: "+format+"\n", a...) }

func newFlatsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "flats count|show|floor|experiment",
		Short: "Line-transition graphs (flats): count, show, exact floor-row clears, the G-term experiment",
		Long: `Line-transition graphs ("flats", after D&F): how the rows of a well are born,
grow, fall and die (are cleared) or stay until the game ends, counted from a
source into a JSON table of clearability (absorption, pathwise share, D&F's
max-flow reading), never-cleared shapes and row-pair permeability.`,
	}
	cmd.AddCommand(newFlatsCountCmd(), newFlatsShowCmd(), newFlatsFloorCmd(), newFlatsExperimentCmd())
	return cmd
}

// flatsCountFlags are the flags of `hatelab flats count`.
type flatsCountFlags struct {
	source, weighting, out string
	width, height          int
	games, maxPieces       int
	seed                   uint64
	beamWidths             []int
	starts, opening        int
	quiescence, quiet      bool
	alpha                  float64
	maxWells               int
	force                  bool
}

func newFlatsCountCmd() *cobra.Command {
	var fl flatsCountFlags
	cmd := &cobra.Command{
		Use:   "count --source bfs|beam|records|random [flags] --out TABLE.json",
		Short: "Count the flats of a source into a table",
		Long: `Count the flats of one source and write the analysed table (JSON, with the
command line as provenance):
  bfs      every game of a small well (--well-width, --height rows below the bar)
           against HATETRIS Mild, weighed by --weighting games|optimal|uniform
  beam     the best games of beam searches at --beam-widths from --starts
           seeded random openings of --opening pieces
  records  the 20 world-record replays (10x20)
  random   --games seeded games of random outcomes against HATETRIS
Every flag is checked before any work (caps: --games and --max-pieces
1000000, --starts 10000, --opening 1000, --beam-widths 16 widths below 2^24,
--well-width 4..12, --height 1..25 (beam: 16), --max-wells within memory).
--out must be a new path, a flats table or an empty file (--force replaces
any regular file); a device, FIFO or folder is refused.`,
		Example: `  hatelab flats count --source records --out datasets/flats/records.json
  hatelab flats count --source bfs --well-width 10 --height 5 --out 10x5.json
  hatelab flats count --source random --games 1000 --seed 1 --out random.json
  hatelab flats count --source beam --beam-widths 10,100 --starts 5 --out beam.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Nothing to save or clean before the table is written: Ctrl-C
			// ends the count at once (exit 130, one line).
			defer exitOnInterrupt()()
			if !cmd.Flags().Changed("max-wells") {
				fl.maxWells = sizedFromMemory(fl.maxWells, wellGraphBytes)
			}
			if err := checkFlatsCount(fl.source, fl.out, fl.width, fl.height, fl.games, fl.maxPieces, fl.starts, fl.opening, fl.maxWells, fl.beamWidths, fl.alpha, fl.force); err != nil {
				return err
			}
			wt, err := flats.ParseWeighting(fl.weighting)
			if err != nil {
				return fmt.Errorf("--weighting: %v", err)
			}
			counts, wname, err := fl.count(cmd, wt)
			if err != nil {
				return err
			}
			return fl.write(cmd, counts, wt, wname)
		},
	}
	fl.register(cmd)
	return cmd
}

// register defines the flags of flats count.
func (fl *flatsCountFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&fl.source, "source", "", "bfs, beam, records or random")
	f.StringVar(&fl.out, "out", "", "the table to write (JSON; - for standard output)")
	flags.WellWidth(f, &fl.width, 10, "well width (bfs, beam, random)", "width")
	flags.DecimalVar(f, &fl.height, "height", 16, "rows below the bar (bfs: keep it small, e.g. 5)")
	f.StringVar(&fl.weighting, "weighting", "games", "bfs: games (every game once), optimal (highest-scoring games) or uniform (every well once)")
	flags.DecimalVar(f, &fl.maxWells, "max-wells", 5_000_000, "bfs: fail past this many wells (default: 5000000, or fewer where less memory is left, 512 bytes a well)")
	flags.DecimalVar(f, &fl.games, "games", 1000, "random: games to play")
	flags.DecimalVar(f, &fl.maxPieces, "max-pieces", 0, "random: stop a game after this many pieces (0: at game over)")
	flags.DecimalVar(f, &fl.seed, "seed", 1, "random, beam: the seed of the games or openings")
	flags.DecimalsVar(f, &fl.beamWidths, "beam-widths", []int{10, 100}, "beam: beam widths (BeamWidth) to search at, comma-separated")
	flags.DecimalVar(f, &fl.starts, "starts", 5, "beam: seeded random openings")
	flags.DecimalVar(f, &fl.opening, "opening", 8, "beam: pieces in each opening")
	f.BoolVar(&fl.quiescence, "quiescence", true, "beam: the bird-in-hand lookahead")
	f.Float64Var(&fl.alpha, "alpha", 0, "permeability smoothing in pseudo-moves (0: 5)")
	f.BoolVar(&fl.quiet, "quiet", false, "no progress lines on standard error")
	f.BoolVar(&fl.force, "force", false, "replace --out even if it exists and is not a flats table")
}

// note writes a progress line on standard error unless --quiet.
func (fl *flatsCountFlags) note(cmd *cobra.Command, format string, a ...any) {
	if !fl.quiet {
		flatsNote(cmd.ErrOrStderr(), format, a...)
	}
}

// count counts the flats of --source; wname names the weighting of a bfs
// count ("" for the others).
func (fl *flatsCountFlags) count(cmd *cobra.Command, wt flats.Weighting) (counts *flats.Counts, wname string, err error) {
	switch fl.source {
	case "bfs":
		r, err := bfs.NewRules(fl.width, fl.height, bfs.RuleQntm)
		if err != nil {
			return nil, "", err
		}
		fl.note(cmd, "exploring every %dx%d well", fl.width, fl.height)
		g, err := bfs.BuildWellGraph(r, nil, fl.maxWells)
		if err != nil {
			return nil, "", failure(budgetNote(err, cmd.Flags().Changed("max-wells"), fl.maxWells))
		}
		fl.note(cmd, "%d wells, counting (%s)", g.Len(), wt)
		if counts, err = flats.CountWellGraph(g, wt); err != nil {
			return nil, "", failure(err)
		}
		return counts, wt.String(), nil
	case "records":
		fl.note(cmd, "replaying the world records")
		gs, err := flats.RecordGames()
		if err != nil {
			return nil, "", failure(err)
		}
		if counts, err = flats.CountGames(gs); err != nil {
			return nil, "", failure(err)
		}
		return counts, "", nil
	case "random", "beam":
		r, err := hatetris.NewRules(fl.width, fl.height+4, 4)
		if err != nil {
			return nil, "", err
		}
		var gs []flats.Game
		if fl.source == "random" {
			fl.note(cmd, "playing %d random games (seed %d)", fl.games, fl.seed)
			gs, err = flats.RandomGames(r, fl.games, fl.seed, fl.maxPieces)
		} else {
			fl.note(cmd, "beam searches: %d starts x widths %v", fl.starts, fl.beamWidths)
			gs, err = flats.BeamGames(context.Background(), r, fl.beamWidths, fl.starts, fl.opening, fl.seed, fl.quiescence)
		}
		if err != nil {
			return nil, "", failure(err)
		}
		if counts, err = flats.CountMoves(r, gs); err != nil {
			return nil, "", failure(err)
		}
		return counts, "", nil
	}
	return nil, "", fmt.Errorf("--source %q: want bfs, beam, records or random", fl.source)
}

// write analyses counts into a table, writes it to --out and prints its
// summary line.
func (fl *flatsCountFlags) write(cmd *cobra.Command, counts *flats.Counts, wt flats.Weighting, wname string) error {
	if err := counts.Conservation(); err != nil && wt != flats.StateUniform {
		return failure(err)
	}
	fl.note(cmd, "%.0f games, %.0f moves: analysing", counts.Games, counts.Moves)
	tab := flats.BuildTable(counts, fl.source, wname, provenance(cmd), fl.alpha)
	summary := cmd.OutOrStdout()
	if fl.out == "-" {
		summary = cmd.ErrOrStderr() // standard output holds the table
	}
	if err := writeTable(cmd.OutOrStdout(), fl.out, tab); err != nil {
		return failure(err)
	}
	_, err := fmt.Fprintf(summary, "%s %dx%d: %.0f games, %.0f moves, %d states, %d shapes (%d never cleared), %d row pairs -> %s\n",
		fl.source, tab.Width, tab.Height, tab.Games, tab.Moves, len(tab.States), len(tab.Shapes), countNever(tab), len(tab.Pairs), fl.out)
	return failure(err)
}

// provenance is the command line that made a table (the flags set, --out,
// --quiet and --force left out).
func provenance(cmd *cobra.Command) string {
	parts := []string{"hatelab flats count"}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name != "out" && f.Name != "quiet" && f.Name != "force" {
			v := f.Value.String()
			if sv, ok := f.Value.(pflag.SliceValue); ok {
				v = strings.Join(sv.GetSlice(), ",")
			}
			parts = append(parts, "--"+f.Name+"="+v)
		}
	})
	return strings.Join(parts, " ")
}

// writeTable writes t to path (atomically), or to stdout for "-".
func writeTable(stdout io.Writer, path string, t *flats.Table) error {
	if path == "-" {
		return t.WriteJSON(stdout)
	}
	// Atomic (a failed or interrupted write leaves the old file), and
	// without the temporary files of earlier interrupted writes.
	atomicfile.RemoveStale(path)
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return t.WriteJSON(outputSink(w)) })
}

func countNever(t *flats.Table) int {
	n := 0
	for _, s := range t.Shapes {
		if s.Never {
			n++
		}
	}
	return n
}

// flatsShowJSON is the --json output of `hatelab flats show`.
type flatsShowJSON struct {
	flats.TableInfo
	Top   []flats.ShapeRow `json:"top"`
	Never []string         `json:"never"`
}

func newFlatsShowCmd() *cobra.Command {
	var (
		top    int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "show TABLE.json [--top N] [--json]",
		Short: "Show a flats table: the most visited shapes and the never-cleared ones",
		Long: `Show a table written by 'hatelab flats count': its provenance, the --top shapes
by lives through them with their three clearability readings (B absorption,
f pathwise share, MF D&F's max-flow reading), and every shape with no path to
cleared in the data.`,
		Example: `  hatelab flats show datasets/flats/records.json
  hatelab flats show --top 5 --json datasets/flats/bfs-10x5.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if top < 0 {
				return fmt.Errorf("--top %d: want 0 or more", top)
			}
			t, err := readTableFile("TABLE", args[0])
			if err != nil {
				return err
			}
			shapes := slices.Clone(t.Shapes)
			slices.SortStableFunc(shapes, func(a, b flats.ShapeRow) int {
				switch {
				case a.N > b.N:
					return -1
				case a.N < b.N:
					return 1
				}
				return strings.Compare(a.Shape, b.Shape)
			})
			shapes = shapes[:min(top, len(shapes))]
			never := []string{}
			for _, s := range t.Shapes {
				if s.Never {
					never = append(never, s.Shape)
				}
			}
			slices.Sort(never)
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, flatsShowJSON{TableInfo: t.TableInfo, Top: shapes, Never: never})
			}
			var b strings.Builder
			name := t.Source
			if t.Weighting != "" {
				name += " (" + t.Weighting + ")"
			}
			fmt.Fprintf(&b, "%s %dx%d: %.0f games, %.0f moves, %d states, %d shapes\nprovenance: %s\n",
				name, t.Width, t.Height, t.Games, t.Moves, len(t.States), len(t.Shapes), t.Provenance)
			fmt.Fprintf(&b, "%-*s %12s %6s %6s %6s\n", t.Width, "shape", "lives", "B", "f", "MF")
			for _, s := range shapes {
				fv := "-"
				if s.F != nil {
					fv = fmt.Sprintf("%.3f", *s.F)
				}
				fmt.Fprintf(&b, "%s %12.0f %6.3f %6s %6.3f\n", s.Shape, s.N, s.B, fv, s.MF)
			}
			fmt.Fprintf(&b, "never cleared (%d): %s\n", len(never), strings.Join(never, " "))
			_, err = io.WriteString(w, b.String())
			return failure(err)
		},
	}
	flags.DecimalVar(cmd.Flags(), &top, "top", 20, "shapes to list, by lives through them")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print one JSON object {"width","height","source","weighting","provenance","games","moves","top","never"}`)
	return cmd
}

func newFlatsFloorCmd() *cobra.Command {
	var (
		width, minH, maxH, maxWells int
		row                         string
		asJSON                      bool
	)
	cmd := &cobra.Command{
		Use:   "floor --well-width W --row SHAPE [--min-height H] [--max-height H] [--json]",
		Short: "Exact: the smallest height and fewest pieces that clear a lone floor row",
		Long: `Answer D&F's "line-height-removal-required" exactly for a lone floor row: for
each height from --min-height to --max-height (rows below the bar), search
every game from the well holding only that row, against HATETRIS Mild (equal
to HATETRIS where no well repeats), and stop at the first height where a game
clears it, with the fewest pieces that do.`,
		Example: `  hatelab flats floor --well-width 10 --row 0111111110 --min-height 4 --max-height 6`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			shape, err := checkFlatsFloor(width, row, minH, maxH, &maxWells, cmd.Flags().Changed("max-wells"))
			if err != nil {
				return err
			}
			res, err := flats.MinClearHeight(width, shape, minH, maxH, maxWells)
			if err != nil {
				return failure(budgetNote(err, cmd.Flags().Changed("max-wells"), maxWells))
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, struct {
					Width     int    `json:"width"`
					Row       string `json:"row"`
					Clearable bool   `json:"clearable"`
					Height    int    `json:"height"`
					Pieces    int    `json:"pieces"`
				}{width, row, res.Clearable, res.Height, res.Pieces})
			}
			if !res.Clearable {
				_, err = fmt.Fprintf(w, "%s: never cleared at width %d, heights %d..%d (HATETRIS Mild)\n", row, width, minH, maxH)
			} else {
				_, err = fmt.Fprintf(w, "%s: cleared at width %d from height %d, in %d pieces at the fewest (HATETRIS Mild)\n", row, width, res.Height, res.Pieces)
			}
			return failure(err)
		},
	}
	f := cmd.Flags()
	flags.WellWidth(f, &width, 10, "well width", "width")
	f.StringVar(&row, "row", "", "the floor row, as binary digits (column 0 first), e.g. 0111111110")
	flags.DecimalVar(cmd.Flags(), &minH, "min-height", 4, "smallest height to try (rows below the bar)")
	flags.DecimalVar(cmd.Flags(), &maxH, "max-height", 6, "largest height to try")
	flags.DecimalVar(cmd.Flags(), &maxWells, "max-wells", 5_000_000, "fail past this many wells per search (default: 5000000, or fewer where less memory is left, 320 bytes a well)")
	f.BoolVar(&asJSON, "json", false, `print one JSON object {"width","row","clearable","height","pieces"}`)
	return cmd
}
