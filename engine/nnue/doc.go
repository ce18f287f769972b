// Package nnue is the inference side of the NNUE evaluation of HATETRIS
// wells, in pure Go: sparse well features, a float reference network, an
// integer (int16) network with an incrementally updated accumulator, and
// the weights file format that the training side (GoMLX) writes.
//
// # Features
//
// A FeatureSet is tied to a geometry (Width columns, Height rows below the
// bar). Every well has exactly K = Height + (Height-3)(Width-2) active
// features: one per row (the row's Width-bit pattern) and one per 4x3
// window (4 rows x 3 columns; empty rows and windows count too). Two
// layouts (Variant): Shared (knewjade; the default, N-KJ: F = 2^Width +
// 4096 features, a pattern has one weight row wherever it occurs) and
// Positional (D&F; the peer's exact indices at 10x16, F = 442,368).
// FeatureSet.Append lists a well's features, table-driven, without
// allocating.
//
// # Network
//
// Features -> H hidden units (H = 32..64 typically; bias B1; hardtanh,
// clipped ReLU or tanh) -> 1 linear output (W2, B2). Training puts a tanh on
// the output; the engine ranks on the value before it. Network is the
// float reference; Quantize makes the integer network the engine runs
// (see Quantized for the scheme and its exactness guarantees), whose
// Accumulator is refreshed from scratch or updated from a parent well's.
// The accumulator's 64-bit words (four hidden units each) are summed with
// AVX2 (rows_amd64.s, four words an instruction) where the CPU has it, and
// by Go loops elsewhere or with the purego build tag; both give the same
// words, so values never depend on the machine.
//
// # Weights file (version 1)
//
// A weights file (extension .hlnn) is, in order:
//
//  1. the 8 bytes "HLNNUE1\n" (Magic);
//  2. the length N of the header, uint32 little-endian;
//  3. N bytes of JSON, the Header: "format" "hatelab-nnue", "version" 1,
//     the geometry ("width", "height": rows below the bar), "variant"
//     ("shared" or "positional"), "features" F, "active" K, "hidden" H,
//     "activation" ("hardtanh", "crelu", "tanh"), "output" ("tanh" if
//     training put a tanh on the output, else "linear"), the wished
//     quantisation scales "qa" and "qb" (0: 256 and 1024), "score_weight"
//     (value of a line scored; 0 for trained networks unless the cycle
//     kept their start's, `--keep-score-weight`), "tensors" (names
//     and shapes in file order), "crc32" (IEEE CRC-32 of the tensor
//     bytes), and provenance: "name", "generation", "provenance" (how it
//     was made: command, data, seed) and "metrics". Unknown fields are an
//     error;
//  4. the tensors as little-endian float32, row-major, nothing between
//     them: w1 [F,H] (feature f's weights to the H hidden units are
//     contiguous), b1 [H], w2 [H], b2 [1].
//
// The file must end there. Write/Marshal/Save write it, Read/Unmarshal/Load
// read it (any defect is a one-line error), and the engine quantises at
// load, so nothing here depends on the trainer.
package nnue
