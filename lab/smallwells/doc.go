// Package smallwells wraps the exhaustive searches of small wells (engine/bfs)
// for a notebook: searches with a progress bar, the committed tables of
// datasets/bfs, per-level tables, scaling charts and rebuilt games. Notebook
// 02-small-wells uses it.
package smallwells
