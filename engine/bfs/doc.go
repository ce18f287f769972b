// Package bfs runs complete (exhaustive) searches of small HATETRIS wells:
// every game the player can play against the history-free AI (HATETRIS
// Mild), level by level, one level per piece placed, deduplicating states
// on (well, score). Per level it counts the distinct states, the children
// generated and the best score; overall it gives the best score, the
// length and the peak (the largest level): the tables of the HATETRIS
// beam-search authors' blog, recomputed exactly and pushed further.
//
// # Words
//
//   - Width: the well's columns. Height: the rows below the bar; the well
//     has Bar = 4 more rows above it (hatetris.Rules depth = height + 4).
//   - Level n: the distinct (well, score) states after n pieces placed
//     (Level.Level; level 0 is the start well).
//   - Length: the most pieces any game places before the piece that ends
//     it, that is the deepest non-empty level (Result.Length).
//   - Peak: the largest level. Result.PeakStates is its number of states,
//     Result.PeakLevel the level (the first if several tie). The blog calls
//     PeakStates the "max width"; the summary tables keep the blog's column
//     names, max_width (PeakStates) and max_width_depth (PeakLevel).
//   - Rule: RuleQntm (the real game) or RuleClearAboveBar (the old, wrong
//     rule behind the blog's first width-10 table).
//   - Kept level: with Options.KeepEvery = K, one of the levels 0, K, 2K...
//     that a search keeps (compressed) for Rebuild. Segment: a kept level k
//     and the levels k+1..k+K-1 above it, which Rebuild searches again from
//     it.
//   - Witness: a game of datasets/bfs/games.jsonl that replays to a row's
//     length (the longest game) or score (the highest-scoring game).
//
// # Tables
//
// datasets/bfs holds the searches' tables, in one schema (read with
// ReadSummaryFile, written with AppendSummary and WriteLevels; checked
// against each other by the package's tests, which fail when a file is
// missing). scripts/bfs-tables.sh regenerates them all, one
// `hatelab bfs --well-width W --height H --rule RULE --append-summary
// datasets/bfs/summary.csv --out datasets/bfs/levels/wW-hH-RULE.csv` per
// search.
//
// summary.csv (SummaryHeader, one Row per complete search):
//
//	width, height     Row.Width, Row.Height
//	rule              qntm or clear-above-bar (Rule.String)
//	score, length     Row.Score, Row.Length (-1 when unbounded)
//	max_width         Row.PeakStates: the states of the largest level
//	max_width_depth   Row.PeakLevel: that level
//	unbounded         true when a loop was proven
//	states, children  Result.Expanded, Result.Children: totals over all levels
//	seconds           wall time of the run (3 decimals)
//	peak_rss_bytes    peak resident memory of the run
//	workers           goroutines of the run
//
// levels/wW-hH-RULE.csv (LevelsHeader, one row per level from level 0):
//
//	depth       Level.Level: pieces placed
//	states      Level.States: distinct (well, score) states
//	children    Level.Children: live children of the previous level, before deduplication
//	best_score  Level.BestScore
//
// The columns keep the blog's names (max_width, depth); the Go fields use
// the words above.
//
// # Stages
//
// Search is told in stages on a searcher (search.go): newSearcher checks
// the options and builds the first level and the workers; prepare makes the
// folders and resumes from a checkpoint (resume, checkpoint.go); run
// expands one level after another with searcher.level (step.go: writeLevel,
// prepareChildren, expand, record, repeats, nextLevel with dedupLevel, and
// checkpoint); finish completes the result. expandLevel and the workers are
// in expand.go, the deduplication in dedup.go. Search takes a context and
// stops between levels or, within a level, at the next partition (or 1024
// states).
//
// Memory and speed: a state is packed into one 64-bit word plus an implicit
// partition number (an invertible mix of the well's rows and the score, so
// partitions are balanced and nothing is lost); a level is 2^k sorted
// arrays of such words, never copied. Parents are expanded in parallel,
// each worker writing its children into per-partition buffers, and every
// partition is then deduplicated on its own (a hash table whose slots are
// ordered like the keys, then an almost-free insertion sort), so the
// result is the same sorted set for any number of workers. Levels can be
// written to disk (Options.LevelDir) so that a longest and a
// highest-scoring game can be rebuilt afterwards, backward, and checked
// by replaying their keys in the real engine (Reconstruct). In disk mode
// (Options.SpillDir) the levels themselves live in per-partition files and
// the children are spilled to files past a memory budget, so a level that
// does not fit in RAM slows the search down instead of failing it.
//
// Compressed levels (Options.Compress, compress.go, compressedrun.go): a level can
// instead be kept as one run of its plain keys in increasing order,
// delta-coded in independent blocks of 4096 keys, about 2.6 bytes a state
// (10x7's peak level); with SpillDir too, the levels are such runs in
// files and the children are spilled as sorted runs and merged
// (compressdisk.go), an external sort whose memory stays near the budget.
//
// A state costs 8 bytes in memory (uncompressed). Expanding one takes about 0.25 µs of CPU
// on shallow wells (10x6: 21.2 M states, about 5.5 CPU-seconds), most of it
// the AI's choice: the engine's LiveMoves scans the first piece fully, shows
// the others cannot beat it with a few word operations (a straight drop
// reaching as deep), and gives the chosen piece's line-free placements as
// cells to OR into the parent's key, so no child well is built. The big
// arrays of a level (children buffers, deduplicated partitions) live in
// arenas outside the Go heap, in transparent huge pages where Linux offers
// them, reused from level to level.
//
// Kept levels (Options.KeepEvery, kept.go): instead of every level, a
// search can keep every K-th one, compressed; Rebuild (and RebuildTargets,
// several games in one pass) then rebuilds a game backward segment by
// segment, searching each segment's levels again from its kept level and
// picking in each level the parent Reconstruct picks, so the game is the
// same; it saves its progress after each segment and resumes from it.
//
// Checkpoints (Options.Checkpoint): between levels the search can save the
// level it is about to expand and its results so far, atomically; the same
// search run again resumes there and gives the identical result.
//
// Loops: without the real AI's memory a well can repeat with a higher
// score, and the search would never end (width 4). Search detects this
// exactly while the state space is small: it keeps the graph of the wells
// met (scores dropped) and reports score and length as unbounded as soon as
// it has a cycle (a cycle must clear lines, since a well that repeats has
// received 4k cells and lost Width·lines); it then runs on until the
// sequence of levels repeats, so the peak stays exact.
// HistorySearch settles the question under the real rule with the AI's
// memory, where the state space allows it.
package bfs
