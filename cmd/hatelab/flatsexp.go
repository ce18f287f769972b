package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	flatsdata "github.com/hatelab/hatelab/datasets/flats"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newFlatsExperimentCmd() *cobra.Command {
	var (
		out, ckpt, mainName, otherName, weightsFile string
		widths                                      []int
		starts, tuneStarts, tuneBeamWidth, opening  int
		seed, placeboSeed                           uint64
		grid                                        []float64
		workers                                     int
		matched, quiet                              bool
		resamples                                   int
	)
	cmd := &cobra.Command{
		Use:   "experiment --beam-widths 300,1000 --starts 20 --out results.json [--checkpoint DIR]",
		Short: "Does the graph term G help a beam search? Paired runs of five arms",
		Long: `The experiment D&F could not afford (design note §4), every arm with quiescence:
  A0 the hand-made evaluation (dnf86)       A1 hand + G (--main table)
  A2 G + score only                          A3 hand + placebo G (B shuffled within popcount classes)
  A4 hand + G from --other table
The start wells are the wells after --opening pieces of seeded random openings:
the first --starts are the test starts, the next --tune-starts the tuning ones.
The weight of G (A1, and A2 on its own) is tuned on the tuning starts at
--tune-beam-width over --grid (best mean score), then frozen (A3, A4 take A1's).
Then every arm plays every test start at every --beam-widths beam width, and A0
plays again at the beam width that costs what A1 costs (matched time).
Results are saved atomically to --out after every run; a rerun of the same
command skips the finished runs (--beam-widths may grow). --checkpoint keeps the
running search's beam checkpoint so that it resumes mid-search after a kill.
At the end the paired differences against A0 are printed with bootstrap
95% intervals.`,
		Example: `  hatelab flats experiment --beam-widths 300,1000 --starts 20 --out results.json --checkpoint ck
  hatelab flats experiment --beam-widths 10 --starts 2 --tune-starts 1 --tune-beam-width 10 --grid 1,100 --out tiny.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkExperimentFlags(out, ckpt, weightsFile, widths, starts, tuneStarts, tuneBeamWidth, opening, grid, workers, resamples); err != nil {
				return err
			}
			cfg := experiment.Config{BeamWidths: widths, Starts: starts, TuneStarts: tuneStarts, Opening: opening, Seed: seed,
				TuneBeamWidth: tuneBeamWidth, Grid: grid, PlaceboSeed: placeboSeed, Matched: matched}
			if err := cfg.Validate(); err != nil {
				return errors.New(strings.TrimPrefix(err.Error(), "flats: "))
			}
			hand := eval.DefaultWeights()
			if weightsFile != "" {
				w, err := eval.LoadWeights(weightsFile)
				if err != nil {
					return err
				}
				hand = w
			}
			mainT, err := loadTable("--main", mainName)
			if err != nil {
				return err
			}
			otherT, err := loadTable("--other", otherName)
			if err != nil {
				return err
			}
			cfg.Hand, cfg.Main, cfg.Other = hand.Name, mainName, otherName
			e, err := loadExperiment(out)
			if err != nil {
				return err
			}
			if e != nil {
				if err := e.Resume(cfg); err != nil {
					return fmt.Errorf("%s: %v", out, strings.TrimPrefix(err.Error(), "flats: "))
				}
				if err := checkResults(e, e.Config); err != nil {
					return fmt.Errorf("--out %s: %v", out, err)
				}
				// The latest command line (only its beam widths may differ)
				// reproduces every run.
				e.Provenance = experimentProvenance(cmd, grid)
			} else {
				e = experiment.New(cfg, experimentProvenance(cmd, grid))
			}
			errw := cmd.ErrOrStderr()
			setup := experiment.Setup{Rules: hatetris.Standard(), Hand: hand, Main: mainT, Other: otherT, Workers: workers,
				CheckpointDir: ckpt,
				Save:          func(e *experiment.Results) error { return saveExperiment(out, e) },
			}
			if !quiet {
				setup.Note = func(format string, a ...any) { flatsNote(errw, format, a...) }
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			if err := experiment.Run(ctx, e, setup); err != nil {
				return failure(err)
			}
			if err := saveExperiment(out, e); err != nil {
				return failure(err)
			}
			return failure(printPaired(cmd.OutOrStdout(), e, resamples))
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "the results file (JSON; resumed if it exists)")
	f.StringVar(&ckpt, "checkpoint", "", "folder for the running search's beam checkpoint")
	flags.DecimalsVar(f, &widths, "beam-widths", []int{300, 1000}, "test beam widths, comma-separated")
	flags.DecimalsAlias(f, &widths, "widths", "beam-widths")
	flags.DecimalVar(cmd.Flags(), &starts, "starts", 20, "test start wells (at most 10000)")
	flags.DecimalVar(cmd.Flags(), &tuneStarts, "tune-starts", 10, "tuning start wells (others than the test starts; at most 10000)")
	flags.DecimalVar(f, &tuneBeamWidth, "tune-beam-width", 1000, "beam width of the tuning runs")
	flags.Alias(f, &tuneBeamWidth, "tune-width", "tune-beam-width")
	f.Float64SliceVar(&grid, "grid", experiment.LogGrid(1, 10000, 9), "weights of G tried in tuning")
	flags.DecimalVar(cmd.Flags(), &opening, "opening", 8, "pieces of each seeded random opening (at most 1000)")
	flags.DecimalVar(f, &seed, "seed", 1, "the openings' seed")
	flags.DecimalVar(f, &placeboSeed, "placebo-seed", 1, "the placebo table's shuffle seed (A3)")
	f.StringVar(&mainName, "main", "records.json", "table of A1, A2, A3: a datasets/flats table name or a file")
	f.StringVar(&otherName, "other", "bfs-10x5-optimal.json", "table of A4: a datasets/flats table name or a file")
	f.StringVar(&weightsFile, "weights", "", "hand-made weights (default: datasets/weights/dnf86.json)")
	f.BoolVar(&matched, "matched-time", true, "also run A0 at the beam width that costs A1's time")
	flags.DecimalVar(cmd.Flags(), &workers, "workers", 1, "goroutines per beam search, 0..1024 (the results do not depend on it)")
	flags.DecimalVar(cmd.Flags(), &resamples, "resamples", 10000, "bootstrap resamples of the starts for the intervals (at most 1000000)")
	f.BoolVar(&quiet, "quiet", false, "no progress lines on standard error")
	return cmd
}

// loadTable reads a committed table by name, or a table file.
func loadTable(flag, name string) (*flats.Table, error) {
	for _, n := range flatsdata.Names {
		if n == name {
			return flatsdata.Table(n)
		}
	}
	if _, err := os.Stat(name); err != nil {
		return nil, fmt.Errorf("%s: table %s: not in datasets/flats (%s) and cannot read it: %v", flag, name, strings.Join(flatsdata.Names, ", "), unwrapPathError(err))
	}
	return readTableFile(flag, name)
}

// experimentProvenance is the command line of an experiment (--out,
// --checkpoint, --quiet, --workers and --resamples left out: they do not
// change the games).
// renamedFlags maps flats experiment's deprecated flag names to the new
// ones (issue 27: beam widths have one name).
var renamedFlags = map[string]string{"widths": "beam-widths", "tune-width": "tune-beam-width"}

func experimentProvenance(cmd *cobra.Command, grid []float64) string {
	parts := []string{"hatelab flats experiment"}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "out", "checkpoint", "quiet", "workers", "resamples":
			return
		}
		name := f.Name
		if now, ok := renamedFlags[name]; ok {
			name = now // a deprecated alias: recorded by its new name
		}
		v := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		if f.Name == "grid" {
			g := make([]string, len(grid))
			for i, x := range grid {
				g[i] = fmt.Sprint(x)
			}
			v = strings.Join(g, ",")
		}
		parts = append(parts, "--"+name+"="+v)
	})
	return strings.Join(parts, " ")
}

func saveExperiment(path string, e *experiment.Results) error {
	data, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, 0o644, append(data, '\n'))
}

// printPaired prints the tuned weights and the paired differences.
func printPaired(w io.Writer, e *experiment.Results, resamples int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "tuned weights: A1 %g, A2 %g (A3, A4 take A1's)\n", e.Tuned[experiment.ArmHandG], e.Tuned[experiment.ArmGScore])
	fmt.Fprintf(&b, "%-4s %10s %3s %8s %8s %8s %18s %9s\n", "arm", "beam width", "n", "mean A0", "mean arm", "diff", "95% interval", "W/L/T")
	for _, d := range e.Paired(resamples, 1, 0.95) {
		name, bw := d.Arm, fmt.Sprint(d.BeamWidth)
		if d.Matched {
			name = "A1~"
			bw = fmt.Sprintf("%d/%d", d.BeamWidth, d.MatchedBeamWidth)
		}
		fmt.Fprintf(&b, "%-4s %10s %3d %8.2f %8.2f %+8.2f [%+7.2f, %+7.2f] %3d/%d/%d\n", name, bw, d.N, d.MeanBase, d.MeanArm,
			d.Diff.Estimate, d.Diff.Lo, d.Diff.Hi, d.Wins, d.Losses, d.Ties)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
