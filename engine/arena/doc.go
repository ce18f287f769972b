// Package arena plays paired matches of evaluations over suites of start
// wells: every arm beam-searches every start with the same settings, and
// each arm is compared with the first, the baseline, start by start.
//
// The room has three parts:
//
//   - Arms (arm.go): an arm is an evaluation spec (engine/evalspec: tuned,
//     hand, nnue, hand+stack-height, ...) with, optionally, its own search
//     settings (@wN, @q, @noq); ParseArms reads a list, the baseline first.
//   - Suites (suite.go): a named, reproducible list of starts
//     (openings:N:PIECES:SEED, empty:N, records:N:SEED, ..., and
//     distinct:SUITE, a suite's first N distinct starts); its ID is a hash
//     of its wells, so a result names exactly what was played.
//   - Matches (match.go): Match.Run plays the games (in parallel, each
//     deterministic), appends each finished game to a JSONL match file
//     and resumes from it after a kill; ReadMatch reads one back; the
//     Standings compare every arm with the baseline.
//
// The statistics (the mean difference with a bootstrap interval, the
// Wilcoxon signed-rank p, Holm's adjustment, the sequential tests, the
// verdicts) are engine/stats'; the NNUE cycle's gate, which plays arena
// matches, is engine/nnue/cycle's. `hatelab arena` runs a match and
// `hatelab arena show FILE` prints a match file's table; lab/arena shows
// them in notebooks.
package arena
