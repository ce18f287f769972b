// Package networks wraps the NNUE training of engine/nnue (features,
// network), engine/nnue/targets and engine/nnue/train for notebook
// 06-nnue: a small dataset (a master beam's reservoir-sampled wells and
// their target beams), a live loss chart that a training run updates in
// place, predicted against target, the 4x3 windows a network likes and
// dislikes most as small pictures, and single beam games per network.
//
// The name differs from engine/nnue on purpose: the notebook imports both.
// No algorithm lives here; the master sample is the cycle's (engine/nnue/cycle)
// reservoir sampling, repeated in the open so that a notebook can show it.
package networks
