// Package transitions wraps the line-transition graphs of engine/flats
// ("flats", after D&F) for notebook 04-line-transitions: the graph of a
// narrow well drawn as a layered SVG (or through Graphviz when it is
// installed), a game's flats as a filmstrip coloured by life, tables of
// shapes, the three clearability readings, bottlenecks and pathways,
// permeability drawn over a well, sources compared with bootstrap
// intervals, the exact small-well facts, and the results of the G-term
// experiment (experiment.Run) as a chart and a table.
//
// The name differs from engine/flats on purpose: the notebook imports both.
package transitions
