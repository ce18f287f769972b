// Package beamrun runs hatelab's searches on Apache Beam (the Go SDK): in
// process on Prism by default, or on any portable runner (a standalone
// Prism job server, Flink or Spark through their job servers, Dataflow)
// with Go worker pools.
//
// The pipelines move blocks, never single states: a block of a few MB of
// states of one level (whole group files of the level, each holding a
// range of partitions) is expanded by one DoFn call with the engine's own
// code (engine/bfs.Expander), and its children leave it as one element per
// group of partitions, keyed by the group, so that a GroupByKey brings
// together every child of a partition. Each partition is then sorted and
// deduplicated by engine/bfs.Space.DedupPartition, and the group written
// as one file of the next level through Beam's filesystems (a local
// folder, or object storage such as gs:// or s3://); the level's
// statistics (states,
// children, best score, per-partition counts, set hash) are combined with
// beam.Combine. A driver runs one pipeline per level and writes a state
// file after each, so a search resumes from the last complete level; with
// a levels folder it assembles the level files of engine/bfs
// (level-NNNNN.bin, meta.json), byte for byte those of bfs.Search.
//
// The beam search runs one pipeline per level: blocks of parents (with
// their path histories, from the driver's ancestry) are expanded and
// evaluated by engine/beam.BlockExpander, cut to the beam width per
// block, partitioned by a hash of (well, score) so that copies meet,
// deduplicated and cut per partition, then cut globally with a two-level
// value histogram (beam.Combine) and a filter, and an exact tie pass on
// the boundary bucket in the beam's strict order: the same wells as
// engine/beam.Run, in the same order, so the same game.
//
// The classic sweep and the NNUE target generation are plain parallel
// maps over blocks of jobs or wells; the arena (Arena) maps single games,
// an arm on a start, after a reshuffle.
//
// Names: in this module "beam" is Apache Beam (the package beam of its Go
// SDK, the CLI hatelab-beam, --engine beam); the engine's beam search,
// engine/beam, is imported as beamsearch, and this package's entry point
// for it is BeamSearch (with BeamSearchOptions).
//
// Functions and DoFn types are registered in init functions; beam.Init is
// called by Execute before a pipeline is built, which is also where a
// worker binary (see WorkerPool) takes over.
package beamrun
