// Package records replays the HATETRIS world records of datasets/records with
// the engine and turns them into tables and per-piece series. Notebook
// 01-records uses it.
package records
