package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/flags"
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
		target, workDir, spillDir string
		asJSON, quiet, lowDisk    bool
		memBudget                 int64
		workers                   int
	)
	cmd := &cobra.Command{
		Use:   "bfs-replay [--replay longest|score|both] [--json] LEVELS-DIR",
		Short: "Rebuild a longest or highest-scoring game from the level files of a finished bfs search",
		Long: `Rebuild one game from the levels that 'hatelab bfs --levels-dir DIR' wrote, walking
the level files backward (one level streamed at a time), and print its replay,
verified by replaying it in the engine against HATETRIS Mild.

From kept levels ('hatelab bfs --compress --keep-every K --levels-dir DIR': only
levels 0, K, 2K...) the game is rebuilt segment by segment from the top: the
levels between two kept ones are searched again from the lower one (in memory,
or in compressed disk mode with --spill-dir), checked against the search's
counts, and walked down. Cost: about one more search up to the game's level,
and one segment's levels (K-1, compressed) on disk in --work-dir; --low-disk
keeps none, searching the levels again two at a time from the kept level (the
disk holds one search's working set, no more; about (K+1)/4 times the time:
6 levels expanded a segment at K = 5, not 4). The game is the one the
all-levels rebuild gives (the same parent in every level). After every level
the games so far are saved atomically in --work-dir (default DIR/rebuild): the
same command run again after a kill continues from there and prints the same
games. --replay both rebuilds the longest and the highest-scoring game in one
pass (the segments searched again serve both, and a level is read once where
their paths meet; --json prints one line each, as in datasets/bfs/games.jsonl).
Exit status: 0, 1 (a failure of the machine), 2 (bad input: flags, a missing,
damaged or foreign level or progress file), 130 (interrupted).`,
		Example: `  hatelab bfs --well-width 10 --height 6 --levels-dir /tmp/l6 --quiet
  hatelab bfs-replay --replay score /tmp/l6
  hatelab bfs --well-width 10 --height 6 --compress --keep-every 6 --levels-dir /tmp/k6 --quiet
  hatelab bfs-replay --replay both --json /tmp/k6`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names := []string{target}
			if target == "both" {
				names = []string{"longest", "score"}
			}
			var ts []bfs.Target
			for _, n := range names {
				t, err := parseTarget(n)
				if err != nil {
					return fmt.Errorf("--replay %q: want longest, score or both", target)
				}
				ts = append(ts, t)
			}
			if memBudget < 0 || memBudget > maxMemBudget {
				return fmt.Errorf("--mem-budget %d: want 0..%d MiB", memBudget, maxMemBudget)
			}
			if workers < 0 || workers > bfs.MaxWorkers {
				return fmt.Errorf("--workers %d: want 1..%d, or 0 for all cores", workers, bfs.MaxWorkers)
			}
			if st, err := os.Stat(args[0]); err != nil {
				return fmt.Errorf("LEVELS-DIR: %v", err)
			} else if !st.IsDir() {
				return fmt.Errorf("LEVELS-DIR %s: not a folder", args[0])
			}
			ro := bfs.RebuildOptions{WorkDir: workDir, SpillDir: spillDir, MemoryBudget: memBudget << 20, Workers: workers, LowDisk: lowDisk}
			if !quiet {
				ro.Progress = progressview.Auto("bfs-replay")
			}
			ctx, stop, interrupted := interruptible()
			defer stop()
			gs, err := bfs.RebuildTargets(ctx, args[0], ts, ro)
			if err != nil {
				return searchError(interrupted(err))
			}
			w := cmd.OutOrStdout()
			for i, g := range gs {
				if asJSON {
					err = writeJSON(w, bfs.GameRecord{Width: g.Width, Height: g.Height, Rule: g.Rule.String(), Score: g.Score,
						Length: g.Length, Pieces: piecesString(g), Replay: g.Keys, Target: names[i]})
				} else {
					_, err = fmt.Fprintf(w, "%dx%d %s, %s game: score %d, %d pieces %s, verified: %s\n", g.Width, g.Height, g.Rule,
						names[i], g.Score, g.Length, piecesString(g), g.Keys)
				}
				if err != nil {
					return failure(err)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&target, "replay", "longest", "which game: longest, score or both")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the game as JSON (one line a game)")
	cmd.Flags().StringVar(&workDir, "work-dir", "", "kept levels: the folder of the rebuild's progress and segment (default LEVELS-DIR/rebuild)")
	cmd.Flags().StringVar(&spillDir, "spill-dir", "", "kept levels: search the segments in compressed disk mode under this folder")
	flags.DecimalVar(cmd.Flags(), &memBudget, "mem-budget", 1024, "with --spill-dir: MiB of children buffered in memory before spilling")
	flags.DecimalVar(cmd.Flags(), &workers, "workers", 0, "kept levels: goroutines of the segments' searches (0: all cores)")
	cmd.Flags().BoolVar(&lowDisk, "low-disk", false, "kept levels: keep no segment on disk; search its levels again two at a time from the kept level (about (K+1)/4 times the time)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no progress on standard error")
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

// bfsFlags are the flags of `hatelab bfs`.
type bfsFlags struct {
	width, height     int
	rule              string
	asJSON, quiet     bool
	out               string
	workers           int
	maxLevels         int
	levelsDir, replay string
	summary           string
	spillDir          string
	memBudget         int64
	history           bool
	checkpoint        string
	ckEvery           time.Duration
	compress          bool
	keepEvery         int
	estimate          bool
	diskBudget        int64
}

// newBFSCmd is `hatelab bfs`: its flags checked (options), then one of
// three stages: the estimate, the history search or the search.
func newBFSCmd() *cobra.Command {
	fl := &bfsFlags{}
	cmd := &cobra.Command{
		Use:   "bfs --well-width W --height H [--rule qntm|clear-above-bar] [--json] [--out FILE.csv]",
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
and a search that cannot fit in the memory the process may take (the least of
MemAvailable, its cgroup's memory.max or memory.limit_in_bytes, and
RLIMIT_AS) is refused in one line naming that limit, pointing to disk mode
(--spill-dir); --max-levels skips the estimate (memory then grows with the
states, not with the well's size). --out and
--append-summary are checked (writable; an existing summary must be a bfs
summary CSV, left as it is otherwise); they are written atomically after the
result is printed. Checkpoints, level files and meta.json carry CRC-32C
checksums: a damaged or edited one is refused with one line. The next run of
a search removes what killed runs left (temporary files, old frontier files,
spill folders of dead processes). Exit status: 0, 1 (a failure of the
machine: I/O...), 2 (bad input: flags, a damaged or foreign checkpoint or
level file), 130 (Ctrl-C: "hatelab: interrupted"; a checkpoint stays valid).`,
		Example: `  hatelab bfs --well-width 10 --height 5
  hatelab bfs --well-width 10 --height 6 --json
  hatelab bfs --well-width 10 --height 6 --rule clear-above-bar --out 10x6-old.csv
  hatelab bfs --well-width 5 --height 8 --replay longest
  hatelab bfs --well-width 4 --height 8 --history
  hatelab bfs --well-width 10 --height 7 --checkpoint ck7 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opt, err := fl.options()
			if err != nil {
				return err
			}
			// The first interrupt stops the search (between levels, or
			// within a level's expansion; a checkpoint already saved stays
			// valid); a second one kills the process.
			ctx, stop, interrupted := interruptible()
			defer stop()
			switch {
			case fl.estimate:
				return runBFSEstimate(ctx, cmd.OutOrStdout(), fl, opt, interrupted)
			case fl.history:
				return runBFSHistory(ctx, cmd.OutOrStdout(), fl, opt, interrupted)
			}
			return runBFSSearch(ctx, cmd, fl, opt, interrupted)
		},
	}
	fl.register(cmd)
	return cmd
}

// register defines the flags of cmd into fl.
func (fl *bfsFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()

	flags.WellWidth(f, &fl.width, 10, "well width (4..16)", "width")
	flags.DecimalVar(cmd.Flags(), &fl.height, "height", 4, "rows below the bar")
	f.StringVar(&fl.rule, "rule", "qntm", "line-clear rule: qntm (the real game) or clear-above-bar (the blog's old tables)")
	f.BoolVar(&fl.asJSON, "json", false, "print the result as JSON (max_width, max_width_depth, depth: deprecated aliases of peak_states, peak_level, level, kept for one release)")
	f.StringVar(&fl.out, "out", "", "write the levels as CSV (depth,states,children,best_score; depth is the level)")
	flags.DecimalVar(cmd.Flags(), &fl.workers, "workers", 0, "goroutines (0: all cores, at most "+strconv.Itoa(bfs.MaxWorkers)+"); the result does not depend on it")
	flags.DecimalVar(cmd.Flags(), &fl.maxLevels, "max-levels", 0, "stop after this many levels (0: no limit; skips the memory check)")
	f.StringVar(&fl.levelsDir, "levels-dir", "", "write every level to this folder (for --replay, or later reconstruction)")
	f.StringVar(&fl.replay, "replay", "", "rebuild and print one game: longest or score")
	f.StringVar(&fl.spillDir, "spill-dir", "", "disk mode: keep levels in files under this folder and spill children past --mem-budget")
	flags.DecimalVar(cmd.Flags(), &fl.memBudget, "mem-budget", 1024, "disk mode: MiB of children buffered in memory before spilling")
	f.StringVar(&fl.checkpoint, "checkpoint", "", "save progress in this folder between levels; run again with it to resume after a kill")
	f.DurationVar(&fl.ckEvery, "checkpoint-every", 5*time.Minute, "least time between checkpoints (0: after every level)")
	f.StringVar(&fl.summary, "append-summary", "", "append one summary row to this CSV (created with a header if new)")
	f.BoolVar(&fl.history, "history", false, "instead: search every game against the real AI with its memory (loop rule); tiny wells only")
	f.BoolVar(&fl.quiet, "quiet", false, "no progress on standard error")
	f.BoolVar(&fl.estimate, "estimate", false, "instead: run the first levels and predict the peak states, memory and disk; exit 2 when it cannot fit")
	flags.DecimalVar(cmd.Flags(), &fl.diskBudget, "disk-budget", 0, "with --estimate in disk mode: MiB of disk the search may take (0: no check)")
	f.BoolVar(&fl.compress, "compress", false, "keep every level as a compressed run of sorted keys (about 2.5-3 bytes a state instead of 8; memory mode)")
	flags.DecimalVar(cmd.Flags(), &fl.keepEvery, "keep-every", 0, "with --compress and --levels-dir: keep only levels 0, K, 2K... (compressed), enough for bfs-replay (0: every level)")
}

// options checks the flags that need no file and returns the search's
// options (bad input: exit 2, before any work).
func (fl *bfsFlags) options() (bfs.Options, error) {
	rule, err := bfs.ParseRule(fl.rule)
	if err != nil {
		return bfs.Options{}, fmt.Errorf("--rule: %v", err)
	}
	if fl.memBudget < 0 || fl.memBudget > maxMemBudget {
		return bfs.Options{}, fmt.Errorf("--mem-budget %d: want 0..%d MiB", fl.memBudget, maxMemBudget)
	}
	if fl.ckEvery < 0 {
		return bfs.Options{}, fmt.Errorf("--checkpoint-every %v: want a duration of 0 or more", fl.ckEvery)
	}
	opt := bfs.Options{Width: fl.width, Height: fl.height, Rule: rule, Workers: fl.workers, MaxLevels: fl.maxLevels,
		SpillDir: fl.spillDir, MemoryBudget: fl.memBudget << 20, Checkpoint: fl.checkpoint, CheckpointEvery: fl.ckEvery, Compress: fl.compress,
		KeepEvery: fl.keepEvery, LevelDir: fl.levelsDir}
	if err := bfs.ValidateFlags(opt); err != nil {
		return bfs.Options{}, err
	}
	if fl.diskBudget < 0 || fl.diskBudget > maxMemBudget {
		return bfs.Options{}, fmt.Errorf("--disk-budget %d: want 0..%d MiB", fl.diskBudget, maxMemBudget)
	}
	if fl.estimate && (fl.history || fl.maxLevels > 0) {
		return bfs.Options{}, fmt.Errorf("--estimate runs the first levels itself: not with --history or --max-levels")
	}
	if fl.replay != "" {
		if _, err := parseTarget(fl.replay); err != nil {
			return bfs.Options{}, err
		}
	}
	if fl.summary != "" && fl.maxLevels > 0 {
		return bfs.Options{}, fmt.Errorf("--append-summary with --max-levels: a truncated search has no summary row")
	}
	return opt, nil
}

// runBFSEstimate is --estimate: the first levels, the prediction, and
// exit 2 when the search cannot fit.
func runBFSEstimate(ctx context.Context, w io.Writer, fl *bfsFlags, opt bfs.Options, interrupted func(error) error) error {
	e, err := estimateSearch(ctx, opt)
	if err != nil {
		return searchError(interrupted(err))
	}
	avail, _ := availableMemory()
	if err := estimateUsable(e); err != nil {
		return err
	}
	if err := printEstimate(w, opt, e, avail); err != nil {
		return failure(err)
	}
	return estimateFits(opt, e, avail, fl.diskBudget<<20)
}

// runBFSHistory is --history: every game against the real AI with its
// memory.
func runBFSHistory(ctx context.Context, w io.Writer, fl *bfsFlags, opt bfs.Options, interrupted func(error) error) error {
	hr, err := bfs.HistorySearch(ctx, bfs.HistoryOptions{Width: opt.Width, Height: opt.Height, Rule: opt.Rule})
	if err != nil {
		return interrupted(err)
	}
	if fl.asJSON {
		return writeJSON(w, hr)
	}
	state := "exact: every game ends"
	if !hr.Complete {
		state = "budget exhausted, lower bounds"
	}
	_, err = fmt.Fprintf(w, "%dx%d %s, real AI with its memory: score %d, length %d (%s; %d game states, %d transpositions)\n",
		opt.Width, opt.Height, opt.Rule, hr.Score, hr.Length, state, hr.Nodes, hr.MemoHits)
	return failure(err)
}

// runBFSSearch is the search: the level files' folder, the checks of
// memory and of the output files, the search, the rebuilt game, the
// result printed and then the files written.
func runBFSSearch(ctx context.Context, cmd *cobra.Command, fl *bfsFlags, opt bfs.Options, interrupted func(error) error) error {
	dir, cleanup, err := fl.levelDir()
	if err != nil {
		return failure(err)
	}
	defer cleanup()
	opt.LevelDir = dir
	avail, source := availableMemory()
	if err := memoryCheckFrom(opt, avail, source); err != nil {
		return err
	}
	if err := fl.checkOutputs(); err != nil {
		return err
	}
	if !fl.quiet {
		opt.Progress = progressview.Auto(fmt.Sprintf("bfs %dx%d", opt.Width, opt.Height))
	}
	res, err := bfs.Search(ctx, opt)
	if err != nil {
		return searchError(interrupted(err))
	}
	var game *bfs.Game
	if fl.replay != "" && !res.Unbounded && !res.Truncated {
		target, _ := parseTarget(fl.replay) // checked by options
		ro := bfs.RebuildOptions{SpillDir: fl.spillDir, MemoryBudget: fl.memBudget << 20, Workers: fl.workers, Progress: opt.Progress}
		if game, err = bfs.Rebuild(ctx, dir, target, ro); err != nil {
			return searchError(interrupted(err))
		}
	}
	// The result is printed first: a file that cannot be written at the
	// end (a full disk) loses nothing.
	if err := printBFS(cmd.OutOrStdout(), res, game, fl.asJSON, fl.replay); err != nil {
		return failure(err)
	}
	return fl.writeOutputs(res, opt)
}

// levelDir is the folder of the level files: --levels-dir, else for
// --replay the checkpoint's levels (so that a resumed search finds those
// written before the kill) or a temporary folder, removed by cleanup.
func (fl *bfsFlags) levelDir() (dir string, cleanup func(), err error) {
	dir, cleanup = fl.levelsDir, func() {}
	if fl.replay != "" && dir == "" && fl.checkpoint != "" {
		dir = filepath.Join(fl.checkpoint, "levels")
	} else if fl.replay != "" && dir == "" {
		if dir, err = os.MkdirTemp("", "hatelab-bfs-"); err != nil {
			return "", cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	}
	return dir, cleanup, nil
}

// checkOutputs checks --out and --append-summary before the search, so
// that an hour of search is not lost to a bad path.
func (fl *bfsFlags) checkOutputs() error {
	if fl.out != "" {
		if err := bfs.CheckWritable(fl.out); err != nil {
			return fmt.Errorf("--out: %v", strings.TrimPrefix(err.Error(), "bfs: "))
		}
	}
	if fl.summary != "" {
		if err := bfs.CheckSummaryFile(fl.summary); err != nil {
			return fmt.Errorf("--append-summary: %v", strings.TrimPrefix(err.Error(), "bfs: "))
		}
	}
	return nil
}

// writeOutputs writes --out and --append-summary after the result is
// printed.
func (fl *bfsFlags) writeOutputs(res *bfs.Result, opt bfs.Options) error {
	if fl.out != "" {
		if err := writeLevelsCSV(fl.out, res); err != nil {
			return failure(fmt.Errorf("the result is above, but %w", err))
		}
	}
	if fl.summary != "" && !res.Truncated {
		if err := bfs.AppendSummary(fl.summary, res, opt.Workers); err != nil {
			return failure(fmt.Errorf("the result is above, but %w", err))
		}
	}
	return nil
}

// printBFS prints the result of `hatelab bfs` (and its rebuilt game).
func printBFS(w io.Writer, res *bfs.Result, game *bfs.Game, asJSON bool, replay string) error {
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
	if err := bfs.WriteText(w, res); err != nil {
		return err
	}
	if compressed(res) {
		fmt.Fprintf(w, "peak level stored compressed in %.1f MiB: %.2f bytes a state\n", float64(res.PeakStoredBytes)/(1<<20), float64(res.PeakStoredBytes)/float64(res.PeakStates))
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
