// Package flats counts line-transition graphs ("flats", after D&F): how
// the rows of a HATETRIS well are born, grow, fall, and die (are cleared)
// or become immortal (are still there when the game ends), and analyses
// the resulting graph.
//
// A flat is one row's life. Its state is (shape, height): the row's
// filled cells and its distance from the floor (0 = the floor row). A
// piece only adds a contiguous run of cells to a row, so along every
// transition the popcount rises or the height falls: the state graph is a
// DAG, whatever the source. The shape-only view (Counts.ShapeGraph) folds
// the heights together; there falls become dwell.
//
// Pieces:
//   - Move is one lock, row by row, built from any source: a replayed
//     game's Step (FromStep), a LiveMoves Placement (FromPlacement) or a
//     move outcome (FromOutcome), all from the cells the engine reports
//     (hatetris.Outcome.Placed), so nothing is reconstructed.
//   - Tracker keeps each row's life across line clears (O(rows), no
//     allocation) and turns moves into Events.
//   - Counts accumulates events (weighted) into transition counts, dwell
//     and row-pair permeability counts; Counter follows whole games one by
//     one and adds each life's pathwise outcome. Counts.Graph and
//     Counts.ShapeGraph freeze them into a CSR DAG (Graph).
//   - Sources: RecordGames and CountGames (the world records), RandomGames
//     (seeded), BeamGames (the best games of beam searches from seeded
//     openings), CountMoves for games as moves, and CountWellGraph for the
//     exhaustive well graph of engine/bfs (all games, optimal play, or
//     state-uniform). Bootstrap compares sources with seeded percentile
//     intervals.
//   - Analyses: Absorb (absorption probability, one backward pass),
//     Pathwise (the pathwise cleared share), MFClearability (D&F's
//     max-flow reading, on the package's own Dinic Network, which also
//     gives edge flows and the min cut), Loss and Pathways (bottlenecks
//     without the degenerate min cut), Permeability (smoothed),
//     NeverCleared, and FloorClear / MinClearHeight (the exact fewest
//     pieces and smallest height that clear a floor row, from an
//     exhaustive search). ToGonum exports a graph for gonum.
//   - Table is the JSON form of the analyses with its provenance; Term is
//     the graph evaluation term G built from a Table, an eval.Evaluator
//     to add to the hand-made evaluation with eval.Sum.
//   - The test of G in beam searches is the subpackage experiment, a
//     user of engine/arena's openings and statistics.
package flats
