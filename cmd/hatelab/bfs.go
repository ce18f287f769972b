package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/lab/progressview"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newBFSCmd(), newBFSReplayCmd())
}

func parseTarget(s string) (bfs.Target, error) {
	switch s {
	case "longest":
		return bfs.Longest, nil
	case "score":
		return bfs.HighestScoring, nil
	}
	return 0, fmt.Errorf("--replay %q: want longest or score", s)
}

func newBFSReplayCmd() *cobra.Command {
	var (
		target string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "bfs-replay [--replay longest|score] [--json] LEVELS-DIR",
		Short: "Rebuild a longest or highest-scoring game from the level files of a finished bfs search",
		Long: `Rebuild one game from the levels that 'hatelab bfs --levels-dir DIR' wrote, walking
the level files backward (one level streamed at a time), and print its replay,
verified by replaying it in the engine against HATETRIS Mild.`,
		Example: `  hatelab bfs --width 10 --height 6 --levels-dir /tmp/l6 --quiet
  hatelab bfs-replay --replay score /tmp/l6`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := parseTarget(target)
			if err != nil {
				return err
			}
			if _, err := os.Stat(args[0]); err != nil {
				return err
			}
			g, err := bfs.Reconstruct(args[0], t)
			if err != nil {
				return searchError(err)
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, bfs.GameRecord{Width: g.Width, Height: g.Height, Rule: g.Rule.String(), Score: g.Score,
					Length: g.Length, Pieces: piecesString(g), Replay: g.Keys, Target: target})
			}
			_, err = fmt.Fprintf(w, "%dx%d %s, %s game: score %d, %d pieces %s, verified: %s\n", g.Width, g.Height, g.Rule,
				target, g.Score, g.Length, piecesString(g), g.Keys)
			return failure(err)
		},
	}
	cmd.Flags().StringVar(&target, "replay", "longest", "which game: longest or score")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the game as JSON")
	return cmd
}

// bfsJSON is the --json output of `hatelab bfs`.
type bfsJSON struct {
	Score      int        `json:"score"`
	Length     int        `json:"length"`
	PeakStates int64      `json:"peak_states"`
	PeakLevel  int        `json:"peak_level"`
	Levels     []bfsLevel `json:"levels"`
	Seconds    float64    `json:"seconds"`
	PeakRSS    int64      `json:"peak_rss_bytes"`
	Unbounded  bool       `json:"unbounded,omitempty"`
	// Truncated: --max-levels stopped the search, so score, length and
	// the peak are lower bounds (the text output says ">=").
	Truncated bool   `json:"truncated"`
	Replay    string `json:"replay,omitempty"`
	// PeakStoredBytes: the bytes that held the peak level, with --compress.
	PeakStoredBytes int64 `json:"peak_stored_bytes,omitempty"`
	// Deprecated keys, kept for one release: max_width is peak_states,
	// max_width_depth is peak_level.
	MaxWidth      int64 `json:"max_width"`
	MaxWidthDepth int   `json:"max_width_depth"`
}

// bfsLevel is one level of the --json output.
type bfsLevel struct {
	Level     int   `json:"level"`
	States    int64 `json:"states"`
	Children  int64 `json:"children"`
	BestScore int   `json:"best_score"`
	// Depth is the deprecated key of Level, kept for one release.
	Depth int `json:"depth"`
}

// jsonDeprecation is the note on the --json keys renamed by the glossary.
const jsonDeprecation = "the keys max_width, max_width_depth and a level's depth are deprecated aliases of peak_states, peak_level and level, kept for one release"

func newBFSCmd() *cobra.Command {
	var (
		width, height int
		ruleName      string
		asJSON, quiet bool
		out           string
		workers       int
		maxLevels     int
		levelsDir     string
		replay        string
		summary       string
		spillDir      string
		memBudget     int64
		history       bool
		checkpoint    string
		ckEvery       time.Duration
		compress      bool
		estimate      bool
		diskBudget    int64
	)
	cmd := &cobra.Command{
		Use:   "bfs --width W --height H [--rule qntm|clear-above-bar] [--json] [--out FILE.csv]",
		Short: "Search every game of a small HATETRIS well (exact best score, length, peak level)",
		Long: `Search every game of a W x H HATETRIS well (H rows below the bar, 4 above)
against the history-free AI, level by level (one level per piece),
deduplicating on (well, score). Prints per level the distinct states, the
children generated and the best score, then the best score, the length (the
most pieces any game places before the piece that ends it) and the peak (the
largest level: its states and its level; the blog's "max width"). A proven loop
(a well that repeats with a higher score, width 4) is reported as unbounded.

--json prints score, length, peak_states, peak_level, truncated (true when
--max-levels stopped the search: the values are then lower bounds) and the
levels (level, states, children, best_score); ` + jsonDeprecation + `.

--rule clear-above-bar is the old rule behind the blog's first width-10 table.
--checkpoint DIR saves the level about to be expanded and the results so far
(atomically, at most every --checkpoint-every); the same command run again
resumes from there with nothing lost, and once finished it prints the saved
result.
--out writes the levels as CSV; --replay longest|score rebuilds one such game
from level files (kept in --levels-dir, else under the --checkpoint folder
(DIR/levels, so a killed search resumes), else in a temporary folder) and
prints its keys, verified by the engine.

Before the search: the memory it needs is estimated from datasets/bfs (the
measured peak RSS of each size, extrapolated past the tallest known well)
and a search that cannot fit in the available memory is refused, pointing to
disk mode (--spill-dir); --max-levels skips the estimate. --out and
--append-summary are checked (writable; an existing summary must be a bfs
summary CSV, left as it is otherwise); they are written atomically after the
result is printed. Checkpoints, level files and meta.json carry CRC-32C
checksums: a damaged or edited one is refused with one line. The next run of
a search removes what killed runs left (temporary files, old frontier files,
spill folders of dead processes). Exit status: 0, 1 (a failure of the
machine: I/O...), 2 (bad input: flags, a damaged or foreign checkpoint or
level file), 130 (Ctrl-C: "hatelab: interrupted"; a checkpoint stays valid).`,
		Example: `  hatelab bfs --width 10 --height 5
  hatelab bfs --width 10 --height 6 --json
  hatelab bfs --width 10 --height 6 --rule clear-above-bar --out 10x6-old.csv
  hatelab bfs --width 5 --height 8 --replay longest
  hatelab bfs --width 4 --height 8 --history
  hatelab bfs --width 10 --height 7 --checkpoint ck7 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rule, err := bfs.ParseRule(ruleName)
			if err != nil {
				return err
			}
			if memBudget < 0 || memBudget > maxMemBudget {
				return fmt.Errorf("--mem-budget %d: want 0..%d MiB", memBudget, maxMemBudget)
			}
			if ckEvery < 0 {
				return fmt.Errorf("--checkpoint-every %v: want a duration of 0 or more", ckEvery)
			}
			opt := bfs.Options{Width: width, Height: height, Rule: rule, Workers: workers, MaxLevels: maxLevels,
				SpillDir: spillDir, MemoryBudget: memBudget << 20, Checkpoint: checkpoint, CheckpointEvery: ckEvery, Compress: compress}
			if err := bfs.Validate(opt); err != nil {
				return err
			}
			if diskBudget < 0 || diskBudget > maxMemBudget {
				return fmt.Errorf("--disk-budget %d: want 0..%d MiB", diskBudget, maxMemBudget)
			}
			// The first interrupt stops the search (between levels, or
			// within a level's expansion; a checkpoint already saved stays
			// valid); a second one kills the process.
			ctx, stop, interrupted := interruptible()
			defer stop()
			if estimate {
				if history || maxLevels > 0 {
					return fmt.Errorf("--estimate runs the first levels itself: not with --history or --max-levels")
				}
				e, err := estimateSearch(ctx, opt)
				if err != nil {
					return searchError(interrupted(err))
				}
				avail, _ := availableMemory()
				if err := estimateUsable(e); err != nil {
					return err
				}
				if err := printEstimate(cmd.OutOrStdout(), opt, e, avail); err != nil {
					return failure(err)
				}
				return estimateFits(opt, e, avail, diskBudget<<20)
			}
			if history {
				hr, err := bfs.HistorySearch(ctx, bfs.HistoryOptions{Width: width, Height: height, Rule: rule})
				if err != nil {
					return interrupted(err)
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), hr)
				}
				state := "exact: every game ends"
				if !hr.Complete {
					state = "budget exhausted, lower bounds"
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "%dx%d %s, real AI with its memory: score %d, length %d (%s; %d game states, %d transpositions)\n",
					width, height, rule, hr.Score, hr.Length, state, hr.Nodes, hr.MemoHits)
				return failure(err)
			}
			var target bfs.Target
			if replay != "" {
				if target, err = parseTarget(replay); err != nil {
					return err
				}
			}
			dir := levelsDir
			if replay != "" && dir == "" && checkpoint != "" {
				// Kept with the checkpoint, so that a resumed search
				// finds the levels written before the kill.
				dir = filepath.Join(checkpoint, "levels")
			} else if replay != "" && dir == "" {
				if dir, err = os.MkdirTemp("", "hatelab-bfs-"); err != nil {
					return failure(err)
				}
				defer os.RemoveAll(dir)
			}
			opt.LevelDir = dir
			avail, source := availableMemory()
			if err := memoryCheckFrom(opt, avail, source); err != nil {
				return err
			}
			// The output files are checked before the search, so that an
			// hour of search is not lost to a bad path.
			if out != "" {
				if err := bfs.CheckWritable(out); err != nil {
					return err
				}
			}
			if summary != "" {
				if maxLevels > 0 {
					return fmt.Errorf("--append-summary with --max-levels: a truncated search has no summary row")
				}
				if err := bfs.CheckSummaryFile(summary); err != nil {
					return err
				}
			}
			if !quiet {
				opt.Progress = progressview.Auto(fmt.Sprintf("bfs %dx%d", width, height))
			}
			res, err := bfs.Search(ctx, opt)
			if err != nil {
				return searchError(interrupted(err))
			}
			var game *bfs.Game
			if replay != "" && !res.Unbounded && !res.Truncated {
				if game, err = bfs.Reconstruct(dir, target); err != nil {
					return searchError(err)
				}
			}
			// The result is printed first: a file that cannot be written
			// at the end (a full disk) loses nothing.
			if asJSON {
				fmt.Fprintln(cmd.ErrOrStderr(), "hatelab bfs --json: "+jsonDeprecation)
			}
			if err := printBFS(cmd.OutOrStdout(), res, game, asJSON, replay); err != nil {
				return failure(err)
			}
			if out != "" {
				if err := writeLevelsCSV(out, res); err != nil {
					return failure(fmt.Errorf("the result is above, but %w", err))
				}
			}
			if summary != "" && !res.Truncated {
				if err := bfs.AppendSummary(summary, res, opt.Workers); err != nil {
					return failure(fmt.Errorf("the result is above, but %w", err))
				}
			}
			return nil
		},
	}
	f := cmd.Flags()

	decimalVar(cmd, &width, "width", 10, "well width (4..16)")
	decimalVar(cmd, &height, "height", 4, "rows below the bar")
	f.StringVar(&ruleName, "rule", "qntm", "line-clear rule: qntm (the real game) or clear-above-bar (the blog's old tables)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON (max_width, max_width_depth, depth: deprecated aliases of peak_states, peak_level, level, kept for one release)")
	f.StringVar(&out, "out", "", "write the levels as CSV (depth,states,children,best_score; depth is the level)")
	decimalVar(cmd, &workers, "workers", 0, "goroutines (0: all cores, at most "+strconv.Itoa(bfs.MaxWorkers)+"); the result does not depend on it")
	decimalVar(cmd, &maxLevels, "max-levels", 0, "stop after this many levels (0: no limit; skips the memory check)")
	f.StringVar(&levelsDir, "levels-dir", "", "write every level to this folder (for --replay, or later reconstruction)")
	f.StringVar(&replay, "replay", "", "rebuild and print one game: longest or score")
	f.StringVar(&spillDir, "spill-dir", "", "disk mode: keep levels in files under this folder and spill children past --mem-budget")
	decimalVar(cmd, &memBudget, "mem-budget", 1024, "disk mode: MiB of children buffered in memory before spilling")
	f.StringVar(&checkpoint, "checkpoint", "", "save progress in this folder between levels; run again with it to resume after a kill")
	f.DurationVar(&ckEvery, "checkpoint-every", 5*time.Minute, "least time between checkpoints (0: after every level)")
	f.StringVar(&summary, "append-summary", "", "append one summary row to this CSV (created with a header if new)")
	f.BoolVar(&history, "history", false, "instead: search every game against the real AI with its memory (loop rule); tiny wells only")
	f.BoolVar(&quiet, "quiet", false, "no progress on standard error")
	f.BoolVar(&estimate, "estimate", false, "instead: run the first levels and predict the peak states, memory and disk; exit 2 when it cannot fit")
	decimalVar(cmd, &diskBudget, "disk-budget", 0, "with --estimate in disk mode: MiB of disk the search may take (0: no check)")
	f.BoolVar(&compress, "compress", false, "keep every level as a compressed run of sorted keys (about 2.5-3 bytes a state instead of 8; memory mode)")
	return cmd
}

// printBFS prints the result of `hatelab bfs` (and its rebuilt game).
func printBFS(w io.Writer, res *bfs.Result, game *bfs.Game, asJSON bool, replay string) error {
	width, height, rule := res.Width, res.Height, res.Rule
	if asJSON {
		j := bfsJSON{Score: res.Score, Length: res.Length, PeakStates: res.PeakStates, PeakLevel: res.PeakLevel,
			Seconds: math.Round(res.Seconds*1000) / 1000, PeakRSS: res.PeakRSS, Unbounded: res.Unbounded, Truncated: res.Truncated, Levels: []bfsLevel{},
			MaxWidth: res.PeakStates, MaxWidthDepth: res.PeakLevel}
		if compressed(res) {
			j.PeakStoredBytes = res.PeakStoredBytes
		}
		for _, l := range res.Levels {
			j.Levels = append(j.Levels, bfsLevel{Level: l.Level, States: l.States, Children: l.Children, BestScore: l.BestScore, Depth: l.Level})
		}
		if game != nil {
			j.Replay = game.Keys
		}
		return writeJSON(w, j)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tstates\tchildren\tbest score\t")
	for _, l := range res.Levels {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", l.Level, l.States, l.Children, l.BestScore)
	}
	tw.Flush()
	score, length := strconv.Itoa(res.Score), strconv.Itoa(res.Length)
	if res.Unbounded && res.LoopPieces > 0 {
		score, length = fmt.Sprintf("unbounded (a %d-piece loop clearing %d lines, proven at level %d)", res.LoopPieces, res.LoopLines, res.LoopDepth), "unbounded"
	} else if res.Unbounded {
		score, length = fmt.Sprintf("unbounded (level %d repeats level %d: the levels cycle forever)", res.PeriodStart+res.Period, res.PeriodStart), "unbounded"
	} else if res.Truncated {
		score, length = ">= "+score, ">= "+length
	}
	fmt.Fprintf(w, "%dx%d %s: score %s, length %s, peak %d states (level %d); %.2f s (%.2f s CPU), peak RSS %.0f MB\n",
		width, height, rule, score, length, res.PeakStates, res.PeakLevel, res.Seconds, res.CPUSeconds, float64(res.PeakRSS)/(1<<20))
	if compressed(res) {
		fmt.Fprintf(w, "peak level stored compressed in %.1f MB: %.2f bytes a state\n", float64(res.PeakStoredBytes)/(1<<20), float64(res.PeakStoredBytes)/float64(res.PeakStates))
	}
	if game != nil {
		fmt.Fprintf(w, "%s game (score %d, %d pieces %s), verified: %s\n", replay, game.Score, game.Length, piecesString(game), game.Keys)
	}
	return nil
}

// compressed reports whether res's peak level was stored compressed.
func compressed(res *bfs.Result) bool {
	return res.PeakStoredBytes > 0 && res.PeakStoredBytes < 8*res.PeakStates
}

// maxMemBudget caps --mem-budget (MiB): 16 TiB.
const maxMemBudget = 1 << 24

// searchError maps an error of bfs.Search to an exit status: input
// problems (a foreign or damaged checkpoint...) exit 2, others 1.
func searchError(err error) error {
	var ec exitError
	if errors.Is(err, bfs.ErrInput) || errors.As(err, &ec) {
		return err
	}
	return failure(err)
}

func piecesString(g *bfs.Game) string {
	b := make([]byte, len(g.Pieces))
	for i, p := range g.Pieces {
		b[i] = p.String()[0]
	}
	return string(b)
}

// writeLevelsCSV writes the levels of res to path (bfs.WriteLevels),
// atomically: a failed write leaves no partial file.
func writeLevelsCSV(path string, res *bfs.Result) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return bfs.WriteLevels(w, res) })
}
