package eval

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// Sum is an evaluation plus extra terms: its value is the sum of the
// values of Base and of every term. Base's quiescence clears (when it is
// a ClearsWorker) and incremental parent updates (ParentWorker) are
// passed through, so Sum{Base: hand, ...} works with the beam's
// quiescence and Sum{Base: network, ...} stays incremental.
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
		if err := CheckGeometry(e, r); err != nil {
			return err
		}
	}
	return nil
}

// NewWorker returns a worker summing the base's and the terms' workers;
// it keeps the base's quiescence clears and, when the base or a term
// takes a parent (an NNUE accumulator), SetParent (Wrap).
func (s Sum) NewWorker(r *hatetris.Rules) Worker {
	terms := make([]Worker, len(s.Terms))
	for i, t := range s.Terms {
		terms[i] = t.NewWorker(r)
	}
	return Wrap(s.Base.NewWorker(r), func(v float64, w *hatetris.Well, score, future int) float64 {
		for _, t := range terms {
			v += t.Evaluate(w, score, future)
		}
		return v
	}, terms...)
}

// Scaled is an evaluation times a constant weight W: the hand-made half of
// a hybrid (evalspec's NET+h:W:HAND, the network plus W times a hand-made
// evaluation), whose values are hundreds of times a network's. The
// worker keeps E's quiescence clears and parent updates (Wrap).
type Scaled struct {
	E Evaluator
	W float64
}

// Name is "W*name".
func (s Scaled) Name() string { return fmt.Sprintf("%g*%s", s.W, s.E.Name()) }

// Check passes E's geometry check on.
func (s Scaled) Check(r *hatetris.Rules) error { return CheckGeometry(s.E, r) }

// CheckGeometry is e's geometry check on r, nil for an evaluation that
// fits every geometry.
func CheckGeometry(e Evaluator, r *hatetris.Rules) error {
	if c, ok := e.(GeometryChecker); ok {
		return c.Check(r)
	}
	return nil
}

// NewWorker returns a worker whose value is W times E's.
func (s Scaled) NewWorker(r *hatetris.Rules) Worker {
	w := s.W
	return Wrap(s.E.NewWorker(r), func(v float64, _ *hatetris.Well, _, _ int) float64 { return w * v })
}
