// Package lab is the display kernel the hatelab notebooks import: it shows
// things and nothing else. Everything works both inside a GoNB notebook
// (rich output: SVG, HTML, PNG, an in-place progress bar) and outside it
// (tests, scripts: plain text on standard output).
//
// The entry points:
//
//   - Show(items...) displays SVG, HTML, PNG, Markdown, *Table, *plot.Plot,
//     error and plain values; Grid, Strip, Column, HeatGrid and Title compose
//     SVG pictures.
//   - TableOf(slice) builds a table from a slice of structs (one column per
//     exported field; the `lab:"Header,%.2f"` tag renames and formats a
//     column, `lab:"-"` skips it).
//   - LinePlot, NewPlot and LogY build gonum/plot charts; ShowPlot(p, name)
//     shows one inline and saves figures/name.svg. Charts are drawn with a
//     margin around the data, the legend in an empty corner or outside the
//     plot, exact tick labels (NiceTicks, DecadeTicks), and scale down to
//     the cell's width; Facets draws small multiples for
//     more series than one legend can take. CopyBox shows a long replay
//     string in a wrapping box.
//   - Progress(job) returns a progress.Reporter drawing a notebook or a
//     terminal progress bar, and Sweep(job, n, unit) an outer bar over n
//     searches with one inner bar for the current one (package
//     progressview, which the CLI uses without pulling in any plotting).
//     In a notebook a cell's bars share one output, a finished bar is
//     replaced by the next, and elapsed times tick once a second.
//   - Quick() reports quick mode (HATELAB_QUICK=1), in which notebooks
//     shrink their work so that `make test` runs them fast; Param(name, quick,
//     full) chooses a parameter by mode (Pick(quick, full) a value that is
//     not one, such as a cache's name). In quick mode a notebook's first
//     output of a kernel session is preceded by a banner: the numbers
//     computed are quick-mode numbers, with every parameter Param chose in
//     the session, by name, in order (later cells update it). Quick mode never
//     writes figures/; its figures and caches go to the
//     clone's scratch folder (ScratchDir, keyed by the clone's path).
//   - Tables write floats without noise, NaN as "–" and thousands commas from
//     10,000 up (Num, Int, Denoise); Note shows a remark once per session.
//
// Beside the kernel, one small package per study holds the thin wrappers
// over the engine that a notebook needs:
//
//	lab/draw        HATETRIS wells and games as SVG (every HATETRIS notebook)
//	lab/records     the world-record replays (01-records)
//	lab/smallwells  exhaustive searches of small wells (02-small-wells)
//	lab/fits        curve fits shown as tables and charts (02, 05)
//	lab/beams       beam searches (03-beam)
//	lab/transitions line-transition graphs (flats) and the G-term experiment (04-line-transitions)
//	lab/survival    classic survival Tetris, tetr-ai and other agents (05-classic)
//	lab/networks    NNUE datasets, training views and network pictures (06-nnue)
//	lab/arena       arena matches: tables, verdicts, charts, start wells (03, 06)
//	lab/progressview progress bars for notebooks, terminals and logs
package lab
