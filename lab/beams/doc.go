// Package beams wraps HATETRIS beam searches (engine/beam) for a notebook:
// runs and cached sweeps over beam widths, per-level tables and charts, the
// best game. Notebook 03-beam uses it.
package beams
