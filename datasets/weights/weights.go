// Package weights is the dataset of evaluation weights for HATETRIS beam
// searches, embedded so that the engine and the CLI need no files at run
// time. dnf86.json holds the hand-made evaluation's default weights (D&F's
// 86-point game); README.md gives the provenance of every file and the
// format. engine/eval decodes them (eval.DefaultWeights, eval.ParseWeights).
package weights

import _ "embed"

// DNF86 is the JSON of dnf86.json: D&F's 86-point weights for the
// hand-made evaluation, the default of `hatelab beam --eval hand`.
//
//go:embed dnf86.json
var DNF86 []byte
