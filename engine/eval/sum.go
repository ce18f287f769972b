package eval

import (
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Sum is an evaluation plus extra terms: its value is the sum of the
// values of Base and of every term. Base's quiescence clears (when it is
// a ClearsWorker) are passed through, so Sum{Base: hand, ...} works with
// the beam's quiescence.
type Sum struct {
	Base  Evaluator
	Terms []Evaluator
}

// Name joins the names: "base+term1+term2".
func (s Sum) Name() string {
	names := []string{s.Base.Name()}
	for _, t := range s.Terms {
		names = append(names, t.Name())
	}
	return strings.Join(names, "+")
}

// Check passes the geometry checks of the base and the terms on (a
// network fits one geometry, a line-transition table one width).
func (s Sum) Check(r *hatetris.Rules) error {
	for _, e := range append([]Evaluator{s.Base}, s.Terms...) {
		if c, ok := e.(GeometryChecker); ok {
			if err := c.Check(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// NewWorker returns a worker summing the base's and the terms' workers.
func (s Sum) NewWorker(r *hatetris.Rules) Worker {
	w := sumWorker{base: s.Base.NewWorker(r)}
	for _, t := range s.Terms {
		w.terms = append(w.terms, t.NewWorker(r))
	}
	if cw, ok := w.base.(ClearsWorker); ok {
		return sumClearsWorker{sumWorker: w, cw: cw}
	}
	return w
}

type sumWorker struct {
	base  Worker
	terms []Worker
}

func (s sumWorker) Evaluate(w *hatetris.Well, score, future int) float64 {
	v := s.base.Evaluate(w, score, future)
	for _, t := range s.terms {
		v += t.Evaluate(w, score, future)
	}
	return v
}

type sumClearsWorker struct {
	sumWorker
	cw ClearsWorker
}

func (s sumClearsWorker) EvaluateClears(w *hatetris.Well, score, future int, clears *[hatetris.NumPieces]int) float64 {
	v := s.cw.EvaluateClears(w, score, future, clears)
	for _, t := range s.terms {
		v += t.Evaluate(w, score, future)
	}
	return v
}
