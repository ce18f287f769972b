// Package lab is what the hatelab notebooks import: it draws HATETRIS wells
// and games as SVG, turns Go slices of structs into tables, shows gonum/plot
// charts and saves them under figures/, and turns engine progress events
// into a progress bar. Everything works both inside a GoNB notebook (rich
// output: SVG, HTML, PNG, an in-place progress bar) and outside it (tests,
// the CLI: plain text on standard output and a terminal progress bar).
//
// The entry points:
//
//   - Show(items...) displays SVG, HTML, PNG, Markdown, *Table, *plot.Plot,
//     error and plain values; Well, Filmstrip, HeatWell and Grid build
//     SVG pictures of wells and boards.
//   - TableOf(slice) builds a table from a slice of structs (one column per
//     exported field; the `lab:"Header,%.2f"` tag renames and formats a
//     column, `lab:"-"` skips it).
//   - ShowPlot(p, name) shows a chart inline and saves figures/name.svg.
//   - Progress(job) returns a progress.Reporter drawing a notebook or a
//     terminal progress bar.
//   - Quick() reports quick mode (HATELAB_QUICK=1), in which notebooks
//     shrink their work so that `make test` runs them fast.
//   - Records() loads the HATETRIS world records in datasets/records and
//     Replay replays one with the engine.
package lab
