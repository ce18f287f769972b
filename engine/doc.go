// Package engine holds no code: it is the home of hatelab's pure-Go core,
// one package a job, and of the glossary below, which every package, CLI
// flag, JSON field, table header and notebook of the project follows.
//
// The packages stand in three tiers, each importing only its own and lower
// ones: (1) rules, formats and maths (hatetris, replaycodec, nnue's network
// and files, progress, fit, rankcorr, stats); (2) search and evaluation
// (bfs, beam, eval, evalspec, flats, classic); (3) experiments (arena and
// its tuner, the NNUE pipeline nnue/samples, targets, gen0, train and
// cycle, agreement, and flats/experiment). No engine package imports lab/, cmd/,
// dist/, plotting or GoNB, and only nnue/train imports GoMLX. The test
// TestLayers (layers_test.go) holds these rules over `go list`.
//
// The packages:
//
//   - hatetris: the game (wells, pieces, the AI's move generation, replays);
//     replaycodec: the replays' encodings.
//   - bfs: the exhaustive search of small wells (levels in memory, on disk,
//     compressed), its tables and rebuilt games.
//   - beam: the beam search; eval: the evaluations that value its wells;
//     evalspec: the spec language that names them (tuned, hand, nnue,
//     hand+stack-height, ...), one grammar for every CLI and notebook.
//   - flats: counting the lives of the flat wells, their graph and its
//     analyses, and the evaluation term built on them.
//   - nnue: the NNUE evaluation (network, features, quantisation, weights
//     files) and its training pipeline (samples, targets, gen0, train,
//     cycle).
//   - agreement: how often evaluations keep the children a reference
//     evaluation's beam keeps (a diagnostic of networks, not a comparison).
//   - arena: paired matches of evaluations over suites of start wells;
//     stats: the statistics of paired comparisons (Wilcoxon, Holm,
//     intervals, sequential tests, verdicts).
//   - classic: classic Tetris agents and sweeps; fit: the fits of the
//     tables; rankcorr: rank correlations (Spearman); progress: progress
//     events.
//
// # Glossary
//
// Wells and rules (HATETRIS):
//
//   - Width: the number of columns of a well (4..16; the real game's is 10).
//     Nothing else is called a width: the number of wells a beam search
//     keeps is its BeamWidth.
//   - Depth: all the rows of a well, the rows above the bar included
//     (hatetris.Rules.Depth; the real game's well is 20 deep).
//   - Bar: the number of rows above the bar line (the real game's is 4). A
//     piece that locks with a cell above the bar ends the game.
//   - Height: the rows below the bar, Depth − Bar: the playable height that
//     the small-well tables are indexed by (10x6 means Width 10, Height 6).
//     The height of a stack is a StackHeight.
//   - Score: lines cleared.
//   - Pieces: the pieces locked in a game, the one that ends the game
//     included (the real game's count; hatetris.Game.Placed). MaxPieces is
//     a limit on Pieces.
//   - Length: of an exhaustive search, the most pieces a game places before
//     the piece that ends it, the deepest non-empty level; a game of Length
//     L ends with its piece L+1, so its Pieces is L+1. (The blog's tables
//     count this way: its 86-point game has length 247, Pieces 248.)
//   - Outcome: what one placement of a piece gives (the well after the
//     lock and its line clears, the lines cleared, whether the game ended);
//     hatetris.Generator lists every distinct outcome of a piece.
//
// Searches:
//
//   - Level n: the states a search holds after n pieces (exhaustive search:
//     every distinct (well, score) after n pieces; beam search: the wells
//     kept after n pieces).
//   - Peak: the largest level of an exhaustive search: PeakStates states at
//     level PeakLevel (the blog's "max width").
//   - BeamWidth: the number of wells a beam search keeps at each level.
//   - Children: the outcomes generated from a level's states.
//   - Result: what a whole search returns (bfs.Result, beam.Result).
//   - Workers: the goroutines of a search (--workers; 0: all cores, but 1
//     for each game of a match); no result depends on them. Games played
//     at once are Parallel (--parallel), never workers; the processes
//     that run a Beam pipeline (dist/) are Beam workers.
//   - Game: a sequence of pieces placed from a start well, with its replay
//     (keys) where one is known.
//
// Comparisons (engine/arena):
//
//   - Suite: a named, reproducible list of start positions (its Spec, such
//     as openings:20:8:1, rebuilds it; its ID is a hash of its wells).
//   - Start: one position of a suite: a well, its score, and the spawn
//     wells the AI saw before it (its memory, for the loop rule).
//   - Distinct: a suite modifier (distinct:records:600:4630): the first N
//     distinct starts, in draw order, of the draws of the suite it
//     prefixes. records: and games: draw with replacement, so they can
//     repeat a start; a distinct: suite holds each once. Its spec is new,
//     so the plain suites keep their specs and IDs. A repeat is a start
//     identical to an earlier one (the same well, score, tie seed and
//     memory; arena.Duplicates).
//   - Opening: a start reached by PIECES seeded random placements from
//     the empty well (the suite openings:N:PIECES:SEED); an NNUE cycle's
//     master openings (--master-openings) are openings of seeds no suite
//     of the lab's tests uses.
//   - Arm: one contestant of a match: an evaluation (and, optionally, its
//     own beam width or quiescence), named by its spec (hand, score,
//     tuned, hand-holes, nnue:FILE...).
//   - Hybrid: an evaluation that is a network's value plus a weight times
//     a hand-made evaluation's (the spec nnue+h:0.008:tuned; eval.Scaled
//     in an eval.Sum).
//   - Merge and Soup: two ways to make one network of several. A merge
//     (nnue.Merge, hatelab nnue merge) sets their hidden layers side by
//     side and adds their values, at the sum of their costs; a soup
//     (nnue.Soup, hatelab nnue soup) averages their parameters into one
//     network of their size, at one network's cost, for fine-tunes of one
//     start, whose hidden units correspond.
//   - Teacher: the evaluation that plays an NNUE cycle's master and target
//     beams instead of the network being trained (--teacher tuned); a
//     Residual target is what the teacher's target beam adds to its own
//     value of the well, and a network trained on it is played in a
//     Hybrid with that teacher (a Hybrid teacher: what its beam adds to
//     its hand-made part, the network played in the teacher's network's
//     place).
//   - Match: every arm plays every start of a suite with the same beam;
//     the first arm is the baseline the others are compared with, start by
//     start (a paired difference, wins, losses, ties, a Wilcoxon p).
//   - Gate: a match that judges a new network of an NNUE cycle against
//     the network it started from (and a baseline): one suite at one beam
//     width or more (openings, or a deep games: suite; never records:,
//     the deep test set); it passes unless the new network's paired
//     differences sum below zero. A gated cycle keeps a network as the
//     next generation's start only if it passes every gate.
//
// Import names: a package imported beside another of the same name takes
// one alias, the same everywhere: a dataset package datasets/NAME is
// NAMEdata (bfsdata, classicdata, flatsdata, recordsdata); engine/beam
// beside Apache Beam's beam is beamsearch; engine/bfs inside datasets/bfs
// is search; lab/NAME beside engine/NAME is labNAME (labarena); GoMLX's
// ml/train beside engine/nnue/train is gotrain.
//
// Classic Tetris (engine/classic): Rows and Cols are the board's size;
// Lines are the lines cleared, Pieces the pieces placed.
package engine
