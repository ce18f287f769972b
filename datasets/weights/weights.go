// Package weights is the dataset of evaluation weights for HATETRIS beam
// searches, embedded so that the engine and the CLI need no files at run
// time. dnf86.json holds the hand-made evaluation's reference weights
// (D&F's 86-point game: the arm hand, eval.DefaultWeights); tuned-03.json
// the best hand-made weights in the arena (the arm tuned,
// eval.TunedWeights), the default where the CLI chooses a hand-made
// evaluation for the user. README.md gives the provenance of every file
// and the format. engine/eval decodes them (eval.DefaultWeights,
// eval.TunedWeights, eval.ParseWeights).
package weights

import _ "embed"

// DNF86 is the JSON of dnf86.json: D&F's 86-point weights for the
// hand-made evaluation, the weights of `hatelab beam --eval hand` and of
// every arm named hand (hand, hand-TERM, hand+RULE).
//
//go:embed dnf86.json
var DNF86 []byte

// Tuned03 is the JSON of tuned-03.json: lines alone plus the classic
// terms row transitions 60, rows with holes 80 and column transitions 10
// (tune-03/README.md), which beat both lines alone and dnf86 on the test
// suite openings:20:8:1 at beam widths 1,000 and 10,000 with quiescence
// (datasets/arena/terms-w1000.jsonl, terms-w10000.jsonl). It is the arm
// tuned, and the default of `hatelab beam --eval` and of `hatelab nnue
// cycle --gate-baseline`.
//
//go:embed tuned-03.json
var Tuned03 []byte

// BestNetworkFile is the lab's best network, the one the evaluation spec
// "nnue" names (engine/evalspec; `hatelab beam --eval nnue` without
// --weights, the arena arm nnue): a path relative to this folder. It is
// chosen by the arena (README.md, "The best network") and is the one place
// the choice is written: to name another network, change this constant and
// the embed line of BestNetwork below (a test checks that they agree).
const BestNetworkFile = "openings-run/gen-06.hlnn"

// BestNetwork is the content of BestNetworkFile, embedded so that the
// network is found from any folder (notebooks, Beam workers) without a
// path.
//
//go:embed openings-run/gen-06.hlnn
var BestNetwork []byte
