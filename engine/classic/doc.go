// Package classic implements classic survival Tetris under tetr-ai's
// rotation-system-free rules: a board of C columns (4..14) by R rows
// (4..31), pieces drawn uniformly and independently by tetr-ai's
// pcg32_k2_fast generator, no preview, hard drop only (a piece falls
// straight from above onto the column tops), and top-out judged before line
// clears. A seed gives exactly the game of tetr-ai's binary.
//
// Agents choose a placement for the current piece behind the small Agent
// interface: the tetr-ai v2.0 evaluation (exact integer weights and
// tie-breaks), Dellacherie, BCTS and an agent after Whitman, Kane and
// Burnette with a pruned one-piece expected-cost lookahead. Greedy turns any
// integer scoring function of a placement's Features into an agent.
//
// Play runs one game; Sweep runs many seeds across cores and streams the
// records, and Summarize gives the per-height statistics (mean, median,
// median/ln2, a 95% confidence interval and an exponential-shape check).
// FitLogQuadratic fits ln(lines) = a + b*h + c*h^2.
//
// Speed: the tetr-ai agent scores a placement that clears no line
// incrementally from the rows and columns it changes (tetrCtx), and
// allocates nothing per piece. On the 2-vCPU AMD EPYC development VM, one
// pinned core, median user CPU time of 7 runs: rows 12 seed 12630 (300,238
// pieces) in 0.80 s, 375k pieces/s, 1.76x tetr-ai's C++ built with -O3
// -march=native (213k pieces/s there); rows 20 seed 20000, first 2,500,004
// pieces (1,000,000 lines, as tetr-ai's binary) in 6.6 s, 377k pieces/s
// (-O3 build: 192k). BenchmarkTetrAIRows12 measures the same loop in-process.
package classic
