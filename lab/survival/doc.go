// Package survival wraps classic survival Tetris (engine/classic) for a
// notebook: games with their boards, sweeps over heights, per-height tables
// and charts. Notebook 05-classic uses it.
package survival
