package eval

import "github.com/hatelab/hatelab/engine/hatetris"

// Wrap returns a worker whose value is then(v, ...) of base's value v,
// keeping base's optional interfaces: when base is a ClearsWorker the
// result is one (the clears are base's), and when base or any of others
// is a ParentWorker the result is one (SetParent reaches each of them).
// others are the workers then evaluates with, if any. Wrappers of workers
// (Sum, a tie-break) use it, so that no wrapper drops a capability: a
// network's incremental accumulator stays incremental under a sum.
func Wrap(base Worker, then func(v float64, w *hatetris.Well, score, future int) float64, others ...Worker) Worker {
	p := wrapped{base: base, then: then}
	if pw, ok := base.(ParentWorker); ok {
		p.parents = append(p.parents, pw)
	}
	for _, o := range others {
		if pw, ok := o.(ParentWorker); ok {
			p.parents = append(p.parents, pw)
		}
	}
	cw, clears := base.(ClearsWorker)
	switch {
	case clears && len(p.parents) > 0:
		return wrappedClearsParent{wrappedClears{p, cw}}
	case clears:
		return wrappedClears{p, cw}
	case len(p.parents) > 0:
		return wrappedParent{p}
	}
	return p
}

type wrapped struct {
	base    Worker
	then    func(v float64, w *hatetris.Well, score, future int) float64
	parents []ParentWorker
}

func (p wrapped) Evaluate(w *hatetris.Well, score, future int) float64 {
	return p.then(p.base.Evaluate(w, score, future), w, score, future)
}

func (p wrapped) setParent(w *hatetris.Well) {
	for _, pw := range p.parents {
		pw.SetParent(w)
	}
}

type wrappedClears struct {
	wrapped
	cw ClearsWorker
}

func (p wrappedClears) EvaluateClears(w *hatetris.Well, score, future int, clears *[hatetris.NumPieces]int) float64 {
	return p.then(p.cw.EvaluateClears(w, score, future, clears), w, score, future)
}

type wrappedParent struct{ wrapped }

func (p wrappedParent) SetParent(w *hatetris.Well) { p.setParent(w) }

type wrappedClearsParent struct{ wrappedClears }

func (p wrappedClearsParent) SetParent(w *hatetris.Well) { p.setParent(w) }
