package agreement

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// negated values wells as its base evaluation's opposite.
type negated struct{ eval.Evaluator }

func (n negated) Name() string { return "-" + n.Evaluator.Name() }
func (n negated) NewWorker(r *hatetris.Rules) eval.Worker {
	return negWorker{n.Evaluator.NewWorker(r)}
}

type negWorker struct{ eval.Worker }

func (w negWorker) Evaluate(x *hatetris.Well, score, future int) float64 {
	return -w.Worker.Evaluate(x, score, future)
}

func starts(t *testing.T) []arena.Start {
	t.Helper()
	s, err := arena.ParseSuite("openings:3:8:1", hatetris.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return s.Starts
}

func TestMeasure(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	hand := eval.NewHand(eval.DefaultWeights())
	c := Config{Reference: tuned, Evals: []eval.Evaluator{tuned, hand, negated{tuned}}, BeamWidth: 20, Pieces: 4, Workers: 1}
	res, err := Measure(context.Background(), c, starts(t))
	if err != nil {
		t.Fatal(err)
	}
	self, other, neg := res[0], res[1], res[2]
	if self.Levels != 12 || self.Children == 0 {
		t.Errorf("levels %d children %d: want 3 starts x 4 levels and some children", self.Levels, self.Children)
	}
	if self.Kept != 1 || self.Best != 1 || self.Spearman != 1 || self.Far != 0 {
		t.Errorf("the reference against itself: kept %g best %g Spearman %g, want 1, 1, 1", self.Kept, self.Best, self.Spearman)
	}
	if !(other.Kept > 0 && other.Kept < 1) || !(other.Spearman > 0 && other.Spearman < 1) {
		t.Errorf("hand against tuned: kept %g Spearman %g, want strictly between 0 and 1", other.Kept, other.Spearman)
	}
	if !(other.Far > 0 && other.Far <= 1-other.Kept) {
		t.Errorf("hand against tuned: far %g, want above 0 and at most the share not kept, %g", other.Far, 1-other.Kept)
	}
	if !(neg.Spearman < -0.9) || !(neg.Kept < other.Kept) || neg.Best != 0 || !(neg.Far > other.Far) {
		t.Errorf("tuned negated: kept %g best %g Spearman %g, want less kept than hand, no best, Spearman near -1", neg.Kept, neg.Best, neg.Spearman)
	}
	if other.Children != self.Children || other.Levels != self.Levels {
		t.Errorf("every evaluation ranks the same children")
	}
}

// TestMeasureWorkers: the result does not depend on the beam's workers.
func TestMeasureWorkers(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	hand := eval.NewHand(eval.DefaultWeights())
	var got [][]Result
	for _, w := range []int{1, 2, 3} {
		res, err := Measure(context.Background(), Config{Reference: hand, Evals: []eval.Evaluator{tuned}, BeamWidth: 30, Pieces: 3,
			Quiescence: true, Workers: w}, starts(t))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res)
	}
	for i := 1; i < len(got); i++ {
		if got[i][0] != got[0][0] {
			t.Errorf("workers %d: %+v, workers 1: %+v", i+1, got[i][0], got[0][0])
		}
	}
}

// TestTop: the n highest values, highest first; equal values by the
// higher score, then the smaller well (rows from the top).
func TestTop(t *testing.T) {
	well := func(rows ...uint16) hatetris.Well {
		var w hatetris.Well
		copy(w[:], rows)
		return w
	}
	for _, c := range []struct {
		name   string
		vs     []float64
		scores []int
		wells  []hatetris.Well
		n      int
		want   []int
	}{
		{"values", []float64{1, 3, 2}, []int{0, 0, 0}, []hatetris.Well{well(1), well(2), well(3)}, 2, []int{1, 2}},
		{"ties by score", []float64{5, 5, 5}, []int{0, 2, 1}, []hatetris.Well{well(1), well(2), well(3)}, 2, []int{1, 2}},
		{"ties by well", []float64{5, 5, 5}, []int{1, 1, 1}, []hatetris.Well{well(0, 3), well(0, 1), well(0, 2)}, 3, []int{1, 2, 0}},
		{"mixed", []float64{0, 7, 7, 1}, []int{0, 0, 1, 0}, []hatetris.Well{well(1), well(2), well(3), well(4)}, 3, []int{2, 1, 3}},
	} {
		m := &meter{kids: c.wells, scores: c.scores}
		if got := m.top(c.vs, c.n); !slices.Equal(got, c.want) {
			t.Errorf("%s: top = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	small, err := hatetris.NewRules(4, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	good := Config{Reference: tuned, Evals: []eval.Evaluator{tuned}, BeamWidth: 10, Pieces: 2}
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no reference", func(c *Config) { c.Reference = nil }, "no reference"},
		{"no evaluations", func(c *Config) { c.Evals = nil }, "0 evaluations"},
		{"too many", func(c *Config) { c.Evals = make([]eval.Evaluator, MaxEvals+1) }, "65 evaluations"},
		{"nil evaluation", func(c *Config) { c.Evals = []eval.Evaluator{nil} }, "nil evaluation"},
		{"width 0", func(c *Config) { c.BeamWidth = 0 }, "beam width 0"},
		{"width too wide", func(c *Config) { c.BeamWidth = MaxBeamWidth + 1 }, "beam width"},
		{"pieces 0", func(c *Config) { c.Pieces = 0 }, "pieces 0"},
		{"too many pieces", func(c *Config) { c.Pieces = MaxPieces + 1 }, "pieces 1001"},
		{"other geometry", func(c *Config) { c.Rules = small }, ""},
	} {
		cfg := good
		c.edit(&cfg)
		err := cfg.Check()
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		if _, err := Measure(context.Background(), cfg, nil); err == nil {
			t.Errorf("%s: Measure ran", c.name)
		}
	}
}

// constant values every well alike: its top children come from the tie
// order alone.
type constant struct{}

func (constant) Name() string                              { return "constant" }
func (constant) NewWorker(*hatetris.Rules) eval.Worker     { return constant{} }
func (constant) Evaluate(*hatetris.Well, int, int) float64 { return 0 }

// TestTiesOweNothingToTheReference: the children are made from the
// reference's kept wells, best first, yet their order does not change what
// an evaluation with ties keeps: the kept wells in reverse give the same
// sums.
func TestTiesOweNothingToTheReference(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	score, err := evalspec.Parse("score", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var wells [][]hatetris.Well
	var scores [][]int
	s := starts(t)[0]
	_, err = beam.Run(context.Background(), beam.Config{BeamWidth: 40, MaxPieces: 4, Eval: tuned, Workers: 1, Start: &s.Well,
		StartScore: s.Score, StartHistory: s.History, OnKept: func(_ int, ws []hatetris.Well, ss []int) error {
			wells, scores = append(wells, ws), append(scores, ss)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []eval.Evaluator{constant{}, score} {
		c := Config{Reference: tuned, Evals: []eval.Evaluator{e}, BeamWidth: 40}
		a, b := newMeter(context.Background(), c), newMeter(context.Background(), c)
		for l := range wells {
			if err := a.level(l, wells[l], scores[l]); err != nil {
				t.Fatal(err)
			}
			rw, rs := slices.Clone(wells[l]), slices.Clone(scores[l])
			slices.Reverse(rw)
			slices.Reverse(rs)
			if err := b.level(l, rw, rs); err != nil {
				t.Fatal(err)
			}
		}
		ra, rb := a.results()[0], b.results()[0]
		if ra.Levels == 0 || fmt.Sprintf("%+v", ra) != fmt.Sprintf("%+v", rb) {
			t.Errorf("%s: the kept wells best first give %+v, in reverse %+v", e.Name(), ra, rb)
		}
	}
}

// TestRefused: a start with a tie seed, and beams no level of which has
// more than twice the beam width in children, are refused.
func TestRefused(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	empty, err := arena.ParseSuite("empty:2", hatetris.Standard())
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Reference: tuned, Evals: []eval.Evaluator{tuned}, BeamWidth: 10, Pieces: 2}
	if _, err := Measure(context.Background(), c, empty.Starts); err == nil || !strings.Contains(err.Error(), "tie seed") {
		t.Errorf("tie-seed starts: %v, want a refusal naming the tie seed", err)
	}
	c.BeamWidth = 100_000
	if _, err := Measure(context.Background(), c, starts(t)[:1]); !errors.Is(err, ErrNoLevel) {
		t.Errorf("a beam as wide as its levels: %v, want ErrNoLevel", err)
	}
}

func TestEmptySuite(t *testing.T) {
	tuned := eval.NewHand(eval.TunedWeights())
	res, err := Measure(context.Background(), Config{Reference: tuned, Evals: []eval.Evaluator{tuned}, BeamWidth: 5, Pieces: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Levels != 0 || !math.IsNaN(res[0].Kept) || !math.IsNaN(res[0].Spearman) {
		t.Errorf("no starts: %+v, want no levels and NaN means", res[0])
	}
}
