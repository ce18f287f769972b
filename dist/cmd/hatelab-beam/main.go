// Command hatelab-beam runs hatelab's large searches on Apache Beam: the
// exhaustive search (bfs), the beam search (beam), the classic sweep and
// the NNUE target generation, each with --engine beam (the default here)
// or native (the engine's own, for comparison). Pipelines run in process
// on Prism unless --runner and --endpoint name a job server; `hatelab-beam
// worker-pool` serves Go workers for --environment-type EXTERNAL, and
// `hatelab-beam prism` a standalone Prism job server.
//
// It lives in its own module (dist/) so that the core module's build does
// not pull in Beam's dependencies; build it with `make hatelab-beam`. Its
// flags are hatelab's (internal/flags defines the shared ones once), so
// both CLIs parse them alike. In dist/, "beam" is Apache Beam; the
// engine's beam search (engine/beam) is imported as beamsearch.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hatelab/hatelab/dist/beamrun"
	beamsearch "github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/targets"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/flags"
	"github.com/spf13/cobra"
)

// runtimeError marks a failure that is not the user's input (exit 1).
type runtimeError struct{ err error }

func (e runtimeError) Error() string { return e.err.Error() }
func (e runtimeError) Unwrap() error { return e.err }

// failure classes err: bad input stays as it is (exit 2), anything else
// exits 1.
func failure(err error) error {
	if err == nil || beamrun.IsInput(err) {
		return err
	}
	return runtimeError{err}
}

var (
	engine string
	runner beamrun.Runner
	logTo  string
)

func main() {
	// In a worker process started by a runner, beam.Init runs the worker
	// harness and never returns.
	beamrun.Init()
	root := &cobra.Command{
		Use:           "hatelab-beam",
		Short:         "hatelab's large searches on Apache Beam (in process on Prism, or on a cluster)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&engine, "engine", "beam", "beam (Apache Beam pipelines) or native (the engine's own)")
	pf.StringVar(&runner.Name, "runner", "prism", "Beam runner: prism (in process unless --endpoint), universal (any job server), flink, spark or dataflow")
	pf.StringVar(&runner.Endpoint, "endpoint", "", "job server host:port (empty with prism: an in-process one)")
	pf.StringVar(&runner.EnvironmentType, "environment-type", "", "where the Go workers run: LOOPBACK (this process), EXTERNAL (a worker pool, --environment-config host:port), DOCKER or PROCESS")
	pf.StringVar(&runner.EnvironmentConfig, "environment-config", "", "the worker pool's host:port for EXTERNAL (or the image/command for DOCKER/PROCESS)")
	pf.StringArrayVar(&runner.Options, "beam-option", nil, "more Beam flags, name=value (repeatable), e.g. project=P for Dataflow")
	pf.StringVar(&logTo, "beam-log", "", "file for Beam's and Prism's log lines (default: dropped)")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if engine != "beam" && engine != "native" {
			return fmt.Errorf("--engine %q: want beam or native", engine)
		}
		switch runner.Name {
		case "prism", "dataflow":
		case "universal", "flink", "spark":
			if runner.Endpoint == "" {
				return fmt.Errorf("--runner %s needs --endpoint HOST:PORT (its job server)", runner.Name)
			}
		default:
			return fmt.Errorf("--runner %q: want prism, universal, flink, spark or dataflow", runner.Name)
		}
		if err := checkRunner(cmd); err != nil {
			return err
		}
		if logTo != "" {
			if err := atomicfile.CheckTarget(logTo); err != nil {
				return fmt.Errorf("--beam-log: %v", err)
			}
			f, err := os.OpenFile(logTo, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				return fmt.Errorf("--beam-log: %v", err)
			}
			runner.Log = f
		}
		return nil
	}
	classicCmd := &cobra.Command{Use: "classic", Short: "Classic Tetris agent runs"}
	classicCmd.AddCommand(sweepCmd())
	nnueCmd := &cobra.Command{Use: "nnue", Short: "NNUE training data"}
	nnueCmd.AddCommand(targetsCmd())
	root.AddCommand(bfsCmd(), beamCmd(), classicCmd, nnueCmd, workerPoolCmd(), prismCmd())
	root.AddCommand(arenaCmd())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := root.ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hatelab-beam: "+oneLine(err))
		var re runtimeError
		if errors.As(err, &re) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// oneLine keeps the first line of an error (Beam's are long) and, when
// that line only announces a failure ("job … failed:"), the error's last
// line: the cause (a worker's own error, after Beam's plan and "caused
// by:" lines).
func oneLine(err error) string {
	s := strings.TrimSpace(err.Error())
	first, _, multi := strings.Cut(s, "\n")
	first = strings.TrimSpace(first)
	if !multi {
		return first
	}
	last := strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
	if strings.HasSuffix(first, ":") && last != "" {
		return first + " " + last
	}
	return first
}

// environmentTypes are the values of --environment-type.
var environmentTypes = []string{"LOOPBACK", "EXTERNAL", "DOCKER", "PROCESS"}

// dialTimeout bounds the check that a job server or worker pool answers.
const dialTimeout = 5 * time.Second

// checkRunner checks the runner flags before any work: a malformed
// --endpoint or --environment-config, an unknown --environment-type,
// EXTERNAL without a worker pool, and a job server or worker pool that
// does not answer, each in one line naming the flag (without this, Beam
// waits 120 s and says only "connecting to job service", or panics).
// Commands that serve (worker-pool, prism) and the native engine use no
// runner.
func checkRunner(cmd *cobra.Command) error {
	if n := cmd.Name(); n == "worker-pool" || n == "prism" || engine == "native" {
		return nil
	}
	envType := strings.ToUpper(runner.EnvironmentType)
	if envType != "" && !slices.Contains(environmentTypes, envType) {
		return fmt.Errorf("--environment-type %q: want LOOPBACK, EXTERNAL, DOCKER or PROCESS", runner.EnvironmentType)
	}
	if envType == "EXTERNAL" {
		if runner.EnvironmentConfig == "" {
			return errors.New("--environment-type EXTERNAL needs --environment-config HOST:PORT, a worker pool (hatelab-beam worker-pool --port N)")
		}
		if err := reachable("--environment-config", runner.EnvironmentConfig, "worker pool"); err != nil {
			return err
		}
	}
	if runner.Endpoint != "" && runner.Name != "dataflow" {
		if err := reachable("--endpoint", runner.Endpoint, "job server"); err != nil {
			return err
		}
	}
	return nil
}

// reachable checks that addr (flag's value) is host:port with a port in
// 1..65535 and that something listens there (what: a job server...).
func reachable(flag, addr, what string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: want HOST:PORT (%v)", flag, addr, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 || host == "" {
		return fmt.Errorf("%s %q: want HOST:PORT with a port 1..65535", flag, addr)
	}
	c, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return fmt.Errorf("%s %s: no %s answers there (%v)", flag, addr, what, err)
	}
	return c.Close()
}

// checkOut checks an output file flag before any work: a new path, or a
// regular file (never a device, FIFO or folder, which an atomic write
// would replace), in a folder it can be written to, and none of the
// command's inputs.
func checkOut(flag, path string, inputs ...string) error {
	if err := atomicfile.CheckWritable(path); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	if in := atomicfile.SameFile(path, inputs...); in != "" {
		return fmt.Errorf("%s %s is the input %s: name another file for the output", flag, path, in)
	}
	return nil
}

// checkCount refuses a negative count flag (0 is its default).
func checkCount(flag string, v int) error {
	if v < 0 {
		return fmt.Errorf("%s %d: want 0 (the default) or more", flag, v)
	}
	return nil
}

func bfsCmd() *cobra.Command {
	var (
		width, height, maxLevels, block int
		group                           int
		ruleName, work, levelsDir, out  string
		summary                         string
		asJSON, progress                bool
	)
	cmd := &cobra.Command{
		Use:   "bfs --well-width W --height H [--rule qntm|clear-above-bar] --work DIR [--levels-dir DIR] [--out FILE.csv]",
		Short: "Exhaustive search of a small well, one Beam pipeline per level (resumable from --work)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rule, err := bfs.ParseRule(ruleName)
			if err != nil {
				return fmt.Errorf("--rule: %v", err)
			}
			opt := bfs.Options{Width: width, Height: height, Rule: rule, MaxLevels: maxLevels, LevelDir: levelsDir}
			if err := bfs.ValidateFlags(opt); err != nil {
				return err
			}
			if err := errors.Join(checkCount("--block-states", block), checkCount("--group-states", group)); err != nil {
				return err
			}
			if out != "" {
				if err := checkOut("--out", out); err != nil {
					return err
				}
			}
			if summary != "" {
				if err := bfs.CheckSummaryFile(summary); err != nil {
					return err
				}
			}
			var res *bfs.Result
			if engine == "native" {
				res, err = bfs.Search(cmd.Context(), opt)
				if err != nil && errors.Is(err, bfs.ErrInput) {
					return err
				}
			} else {
				var pw io.Writer
				if progress {
					pw = cmd.ErrOrStderr()
				}
				res, err = beamrun.BFS(cmd.Context(), beamrun.BFSOptions{Search: opt, Work: work, BlockStates: block, GroupStates: group, Runner: runner, Progress: pw})
			}
			if err != nil {
				return failure(err)
			}
			if out != "" {
				// Atomically: a failed write leaves no partial file.
				if err := atomicfile.Write(out, 0o644, func(w io.Writer) error { return bfs.WriteLevels(w, res) }); err != nil {
					return failure(fmt.Errorf("--out: %w", err))
				}
			}
			if summary != "" {
				if err := bfs.AppendSummary(summary, res, 1); err != nil {
					return failure(err)
				}
			}
			return failure(printBFS(cmd.OutOrStdout(), res, asJSON))
		},
	}
	f := cmd.Flags()
	flags.WellWidth(f, &width, 10, "well width (4..16)", "width")
	flags.DecimalVar(f, &height, "height", 4, "rows below the bar")
	f.StringVar(&ruleName, "rule", "qntm", "line-clear rule: qntm or clear-above-bar")
	flags.DecimalVar(f, &maxLevels, "max-levels", 0, "stop after this many levels (0: no limit)")
	f.StringVar(&work, "work", "", "work folder (local or a Beam filesystem URL such as gs://b/dir): partition files and the states the search resumes from")
	f.StringVar(&levelsDir, "levels-dir", "", "write every level file (level-NNNNN.bin) and meta.json here, as `hatelab bfs --levels-dir` does")
	f.StringVar(&out, "out", "", "write the levels table (CSV) here")
	f.StringVar(&summary, "append-summary", "", "append the summary row to this CSV")
	flags.DecimalVar(f, &block, "block-states", 0, "states per expansion block (0: 524288, 4 MiB)")
	flags.DecimalVar(f, &group, "group-states", 0, "children per group of partitions, the unit of the shuffle and of the level files (0: 524288)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&progress, "progress", false, "a line per level on standard error")
	return cmd
}

// printBFS prints the result as `hatelab bfs` does (bfs.WriteText), or as
// JSON; truncated says that score, length and peak are lower bounds
// (--max-levels).
func printBFS(w io.Writer, res *bfs.Result, asJSON bool) error {
	if asJSON {
		return writeJSON(w, map[string]any{"score": res.Score, "length": res.Length, "peak_states": res.PeakStates,
			"peak_level": res.PeakLevel, "unbounded": res.Unbounded, "truncated": res.Truncated, "levels": res.Levels, "seconds": res.Seconds,
			"cpu_seconds": res.CPUSeconds, "peak_rss": res.PeakRSS})
	}
	return bfs.WriteText(w, res)
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func beamCmd() *cobra.Command {
	var (
		o    beamrun.BeamSearchOptions
		well flags.Well
	)
	var asJSON, progress, quiescence bool
	cmd := &cobra.Command{
		Use:   "beam --beam-width N [--quiescence] [--eval SPEC] [--weights FILE] [--max-pieces P] --work DIR [--json]",
		Short: "Beam search, one Beam pipeline per level: the same game as `hatelab beam`",
		Long: `Beam search, one Beam pipeline per level: the same game as hatelab beam with
the same flags. The first line on standard error names the evaluation.

Evaluations (--eval; the same specs as hatelab beam --eval and the arms of
hatelab arena; files must be readable by the Beam workers):
` + evalspec.Help,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Quiescence = quiescence
			o.WellWidth, o.WellDepth, o.Bar = well.Width, well.Depth, well.Bar
			if err := flags.CheckBeamWidth(flags.BeamWidthFlag, o.BeamWidth); err != nil {
				return err
			}
			if o.MaxPieces < 0 {
				return fmt.Errorf("--max-pieces %d: want 0 or more", o.MaxPieces)
			}
			if err := errors.Join(checkCount("--block-parents", o.BlockParents), checkCount("--parts", o.Parts)); err != nil {
				return err
			}
			r, err := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
			if err != nil {
				return fmt.Errorf("--well-width/--well-depth/--bar: %v", err)
			}
			if o.Weights != "" && !cmd.Flags().Changed("eval") {
				o.EvalName = "hand" // --weights FILE alone: FILE's hand-made weights, as hatelab beam reads it
			}
			ev, err := beamrun.Evaluator(o.EvalName, o.Weights, r)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "evaluation %s\n", ev.Name())
			var res *beamsearch.Result
			if engine == "native" {
				res, err = beamsearch.Run(cmd.Context(), beamsearch.Config{Rules: r, BeamWidth: o.BeamWidth, MaxPieces: o.MaxPieces, Quiescence: o.Quiescence, Eval: ev,
					CheckpointDir: o.Checkpoint, Resume: o.Resume})
				if errors.Is(err, beamsearch.ErrConfig) {
					return err
				}
			} else {
				if progress {
					o.Progress = cmd.ErrOrStderr()
				}
				o.Runner = runner
				res, err = beamrun.BeamSearch(cmd.Context(), o)
			}
			if err != nil {
				return failure(err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return failure(writeJSON(out, map[string]any{"score": res.Score, "pieces_placed": res.Pieces, "keys": res.Keys,
					"replay": res.Replay, "seconds": res.Seconds, "children": res.Children}))
			}
			_, err = fmt.Fprintf(out, "score:          %d\npieces placed:  %d\nbest at level:  %d\nloop rule:      changed the piece %d times\nseconds:        %.2f\nchildren:       %d\nreplay:         %s\n",
				res.Score, res.Pieces, res.BestLevel, res.LoopChanges, res.Seconds, res.Children, res.Replay)
			return failure(err)
		},
	}
	f := cmd.Flags()
	flags.BeamWidth(f, &o.BeamWidth, 1000, "wells kept at each level")
	flags.DecimalVar(f, &o.MaxPieces, "max-pieces", 0, "stop after this many pieces (0: until the beam dies)")
	f.BoolVar(&quiescence, "quiescence", false, "value wells by their best single-line-clear chain (bird in hand)")
	f.StringVar(&o.EvalName, "eval", evalspec.BestHand, "the evaluation, a spec (Evaluations above)")
	f.StringVar(&o.Weights, "weights", "", "weights file (readable by the Beam workers): JSON for --eval hand (--eval weights:FILE; --weights without --eval is --eval hand), .hlnn for --eval nnue (--eval nnue:FILE)")
	flags.WellVars(f, &well, "")
	f.StringVar(&o.Work, "work", "", "work folder (local or a Beam filesystem URL): blocks of parents and kept children")
	f.StringVar(&o.Checkpoint, "checkpoint", "", "local folder for a checkpoint after every level (the native engine's format)")
	f.BoolVar(&o.Resume, "resume", false, "continue from the checkpoint in --checkpoint")
	flags.DecimalVar(f, &o.BlockParents, "block-parents", 0, "parents per block (0: the beam/16, 32 to 4096)")
	flags.DecimalVar(f, &o.Parts, "parts", 0, "hash partitions of the children (0: 16)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	f.BoolVar(&progress, "progress", false, "a line per level on standard error")
	return cmd
}

func sweepCmd() *cobra.Command {
	var (
		rows                     []int
		cols, seeds, block       int
		agent, out, work, rowsSp string
	)
	cmd := &cobra.Command{
		Use:   "sweep --rows 5-12 --seeds N --agent NAME --out FILE.csv --work DIR",
		Short: "Play seeds R*1000.. at each height as a parallel map (resumable: games in FILE are skipped)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if rows, err = parseRows(rowsSp); err != nil {
				return err
			}
			if err := checkCount("--block-jobs", block); err != nil {
				return err
			}
			if err := checkOut("--out", out); err != nil {
				return err
			}
			a, err := classic.CheckSweep(rows, cols, seeds, 1000, agent, out)
			if err != nil {
				return err
			}
			w, err := classic.OpenCSV(out)
			if err != nil {
				return err
			}
			jobs := classic.Remaining(classic.Jobs(rows, cols, seeds), a.Name(), w.Done)
			var res []classic.Result
			if engine == "native" {
				err = classic.Sweep(cmd.Context(), jobs, func() classic.Agent { a, _ := classic.NewAgent(agent); return a }, 0,
					func(r classic.Result) error { res = append(res, r); return nil }, nil)
			} else {
				res, err = beamrun.Sweep(cmd.Context(), jobs, agent, work, block, runner)
			}
			for _, r := range res {
				if err == nil {
					err = w.Write(r)
				}
			}
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d games played, %d already in %s\n", len(jobs), len(w.Done), out)
			return failure(err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&rowsSp, "rows", "5-12", "heights: 5-12, 7 or 5,7,9")
	flags.DecimalVar(f, &cols, "cols", 10, "board width")
	flags.DecimalVar(f, &seeds, "seeds", 1000, "games per height")
	f.StringVar(&agent, "agent", "tetr-ai", "agent: "+strings.Join(classic.AgentNames, ", "))
	f.StringVar(&out, "out", "", "sweep CSV to append to")
	f.StringVar(&work, "work", "", "work folder for the blocks' results")
	flags.DecimalVar(f, &block, "block-jobs", 0, "games per block (0: 16)")
	return cmd
}

// parseRows reads 5-12, 7 or 5,7,9 (each height once), in plain
// decimal as hatelab does (flags.ParseDecimal: 010 is refused).
func parseRows(s string) ([]int, error) {
	var rows []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a64, err := flags.ParseDecimal(lo)
		b64 := a64
		if err == nil && isRange {
			b64, err = flags.ParseDecimal(hi)
		}
		a, b := int(a64), int(b64)
		if err != nil || a < 1 || b < a || b-a > 100 {
			return nil, fmt.Errorf("--rows %q: want 5-12, 7 or 5,7,9", s)
		}
		for r := a; r <= b; r++ {
			if seen[r] {
				return nil, fmt.Errorf("--rows %q: height %d twice", s, r)
			}
			seen[r] = true
			rows = append(rows, r)
		}
	}
	return rows, nil
}

func targetsCmd() *cobra.Command {
	var (
		o            beamrun.TargetOptions
		well         flags.Well
		samples, out string
		work         string
		block        int
		force        bool
	)
	cmd := &cobra.Command{
		Use:   "targets --samples FILE --out TARGETS.json [--eval nnue --weights NET.hlnn] [--target-beam-width 512 --target-pieces 10] --work DIR",
		Short: "NNUE training targets of sampled wells (an nnue cycle's samples file, or JSON with \"wells\") as a parallel map",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("nnue targets needs --out FILE.json")
			}
			if err := checkOut("--out", out, samples, o.Weights); err != nil {
				return err
			}
			if err := checkTargetsOut(out, force); err != nil {
				return err
			}
			o.WellWidth, o.WellDepth, o.Bar = well.Width, well.Depth, well.Bar
			if err := flags.CheckBeamWidth("target-beam-width", o.BeamWidth); err != nil {
				return err
			}
			if o.Pieces < 1 || o.Pieces > maxTargetPieces {
				return fmt.Errorf("--target-pieces %d: want 1..%d", o.Pieces, maxTargetPieces)
			}
			if err := checkCount("--block-wells", block); err != nil {
				return err
			}
			r, err := hatetris.NewRules(o.WellWidth, o.WellDepth, o.Bar)
			if err != nil {
				return fmt.Errorf("--well-width/--well-depth/--bar: %v", err)
			}
			b, err := readSamplesFile(samples)
			if boundedfile.IsRefused(err) {
				return fmt.Errorf("--samples %s: %v", samples, err)
			} else if err != nil {
				return fmt.Errorf("--samples: %v", err)
			}
			wells, err := parseSamples(b, r)
			if err != nil {
				return fmt.Errorf("--samples %s: %v", samples, err)
			}
			var ts []float32
			if engine == "native" {
				ev, err := beamrun.Evaluator(o.EvalName, o.Weights, r)
				if err != nil {
					return err
				}
				ts, err = targets.Compute(cmd.Context(), targets.Config{Rules: r, Eval: ev, BeamWidth: o.BeamWidth, Pieces: o.Pieces}, wells)
				if err != nil {
					return failure(err)
				}
			} else if ts, err = beamrun.Targets(cmd.Context(), o, wells, work, block, runner); err != nil {
				return failure(err)
			}
			js, err := json.Marshal(map[string]any{"targets": ts})
			if err == nil {
				// Atomically (issue 27 item 6): a kill leaves the old
				// file or the whole new one.
				err = atomicfile.WriteBytes(out, 0o644, append(js, '\n'))
			}
			return failure(err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&samples, "samples", "", "samples file: nnue cycle's (HLSAMP1), or JSON with \"wells\"")
	f.StringVar(&out, "out", "", "targets file to write (JSON {\"targets\": [...]}; an existing file of another kind needs --force)")
	f.BoolVar(&force, "force", false, "replace an existing --out that is not a targets file")
	f.StringVar(&o.EvalName, "eval", "hand", "the evaluation, a spec as hatelab-beam beam --eval takes it (hand, tuned, nnue, nnue:FILE, ...)")
	f.StringVar(&o.Weights, "weights", "", "weights file (readable by the Beam workers)")
	flags.DecimalVar(f, &o.BeamWidth, "target-beam-width", 512, "beam width of each target beam")
	flags.Alias(f, &o.BeamWidth, "target-width", "target-beam-width")
	flags.DecimalVar(f, &o.Pieces, "target-pieces", 10, "pieces of each target beam")
	flags.WellVars(f, &well, "")
	f.StringVar(&work, "work", "", "work folder for the blocks' targets")
	flags.DecimalVar(f, &block, "block-wells", 0, "wells per block (0: 64)")
	return cmd
}

// checkTargetsOut refuses to replace an existing, non-empty --out that
// is not a targets file (its JSON opens with "targets"), unless force.
func checkTargetsOut(path string, force bool) error {
	if force {
		return nil
	}
	f, st, err := boundedfile.Open(path, math.MaxInt64, "targets file")
	if err != nil {
		return nil // a new path (checkOut refused what is no file)
	}
	defer f.Close()
	head := make([]byte, len(`{"targets":`))
	if _, err := io.ReadFull(f, head); st.Size() == 0 || err == nil && string(head) == `{"targets":` {
		return nil
	}
	return fmt.Errorf("--out %s exists and is not a targets file: refusing to replace it (name a new file, or add --force)", path)
}

func workerPoolCmd() *cobra.Command {
	var port int
	cmd := &cobra.Command{
		Use:   "worker-pool --port N",
		Short: "Serve a Go worker pool for runners given --environment-type EXTERNAL --environment-config HOST:N",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if port < 0 || port > 65535 {
				return fmt.Errorf("--port %d: want 1..65535, or 0 for any free port", port)
			}
			addr, stop, err := beamrun.WorkerPool(cmd.Context(), port, runner.Log)
			if err != nil {
				return failure(err)
			}
			defer stop()
			fmt.Fprintf(cmd.OutOrStdout(), "worker pool on %s\n", addr)
			<-cmd.Context().Done()
			return nil
		},
	}
	flags.DecimalVar(cmd.Flags(), &port, "port", 50000, "port")
	return cmd
}

func prismCmd() *cobra.Command {
	var port int
	cmd := &cobra.Command{
		Use:   "prism --job-port N",
		Short: "Serve a standalone Prism job server (as Beam's cmd/prism, without the web UI)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if port < 1 || port > 65535 {
				return fmt.Errorf("--job-port %d: want 1..65535", port)
			}
			if err := beamrun.JobServer(cmd.Context(), port, runner.Log); err != nil {
				return failure(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "prism job server on localhost:%d\n", port)
			<-cmd.Context().Done()
			return nil
		},
	}
	flags.DecimalVar(cmd.Flags(), &port, "job-port", 8073, "job management port")
	return cmd
}
