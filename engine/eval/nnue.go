package eval

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

// ParentWorker is a Worker that evaluates the children of a well faster
// when told the well first (an NNUE accumulator updated from the
// parent's). A search calls SetParent with the well whose children (and
// their quiescence chains) it is about to evaluate; values must not depend
// on it.
type ParentWorker interface {
	Worker
	SetParent(w *hatetris.Well)
}

// GeometryChecker is an Evaluator that only fits some geometries (a
// network is trained for one); a search checks it before starting.
type GeometryChecker interface {
	Check(r *hatetris.Rules) error
}

// NNUE evaluates wells with an NNUE network (engine/nnue), run as its
// int16 network: the value is the network's output (before the training
// tanh) plus the network's score weight times the lines (score and
// quiescence lines alike: no half factor; 0 for trained networks, which
// value the well alone, unless the cycle kept their start's with
// --keep-score-weight). With quiescence a well is thus worth the best
// network value over its single-clear chain, as in the peer.
type NNUE struct {
	q    *nnue.Quantized
	name string
}

// NewNNUE quantises the network n; a network the int16 engine cannot
// represent (see nnue.Quantize) is refused.
func NewNNUE(n *nnue.Network) (*NNUE, error) {
	q, err := nnue.Quantize(n, n.Header.QA, n.Header.QB)
	if err != nil {
		return nil, err
	}
	name := n.Header.Name
	if name == "" {
		name = "unnamed"
	}
	return &NNUE{q: q, name: fmt.Sprintf("nnue:%s[%s crc %08x sw %g]", name, q, n.Header.CRC32, q.ScoreWeight())}, nil
}

// LoadNNUE reads a weights file and quantises it.
func LoadNNUE(path string) (*NNUE, error) {
	n, err := nnue.Load(path)
	if err != nil {
		return nil, err
	}
	e, err := NewNNUE(n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

// Name identifies the network (its name, geometry, scales and checksum).
func (e *NNUE) Name() string { return e.name }

// Quantized returns the integer network.
func (e *NNUE) Quantized() *nnue.Quantized { return e.q }

// Check reports whether the network's geometry is r's.
func (e *NNUE) Check(r *hatetris.Rules) error {
	fs := e.q.Features()
	if fs.Width() != r.Width || fs.Height() != r.Depth-r.Bar {
		return fmt.Errorf("network is for %dx%d wells (width x rows below the bar), not %dx%d", fs.Width(), fs.Height(), r.Width, r.Depth-r.Bar)
	}
	return nil
}

// NewWorker returns a worker with its own accumulators. The geometry must
// pass Check.
func (e *NNUE) NewWorker(r *hatetris.Rules) Worker {
	return &NNUEWorker{q: e.q, bar: r.Bar, depth: r.Depth, sw: e.q.ScoreWeight(),
		parent: e.q.NewAccumulator(), scratch: e.q.NewAccumulator()}
}

// NNUEWorker evaluates wells with an NNUE network; it implements
// ParentWorker: after SetParent, a well that differs from the parent in a
// few rows is evaluated from the parent's accumulator (bit for bit the
// same value as a full refresh).
type NNUEWorker struct {
	q                *nnue.Quantized
	bar, depth       int
	sw               float64
	parent, scratch  *nnue.Accumulator
	parentWell       hatetris.Well
	hasParent, stale bool
}

// SetParent implements ParentWorker; the parent's accumulator is computed
// at the first evaluation that follows.
func (w *NNUEWorker) SetParent(p *hatetris.Well) {
	w.parentWell = *p
	w.hasParent, w.stale = true, true
}

// Evaluate implements Worker; it allocates nothing.
func (w *NNUEWorker) Evaluate(well *hatetris.Well, score, future int) float64 {
	rows := well[w.bar:w.depth]
	var out int64
	if w.hasParent {
		if w.stale {
			w.q.Refresh(w.parent, w.parentWell[w.bar:w.depth])
			w.stale = false
		}
		out = w.q.ChildOutput(w.scratch, w.parent, rows)
	} else {
		w.q.Refresh(w.scratch, rows)
		out = w.q.Output(w.scratch)
	}
	return float64(out)*w.q.Scale() + w.sw*float64(score+future)
}
