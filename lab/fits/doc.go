// Package fits fits curves (engine/fit) to measured series and shows the fits
// as tables and charts with their prediction intervals. Notebooks
// 02-small-wells and 05-classic use it.
package fits
