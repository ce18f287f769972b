// Package draw draws HATETRIS wells and games as SVG pictures: a well with its
// falling piece and ghost, filmstrips of a game, heat maps over a well. Every
// HATETRIS notebook uses it.
package draw
