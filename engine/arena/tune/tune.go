// Package tune tunes the hand-made evaluation's weights with the arena as
// the objective: each candidate set of weights plays every start of a
// training suite (an arena match arm), and Nelder–Mead (gonum/optimize)
// searches the weights for the highest mean score, pieces breaking ties.
// Candidates are w0·exp(x) for the tuned terms (signs kept, scale free);
// the search is deterministic for a suite and settings, and resumable: every
// evaluation is appended to a log, and a rerun replays the optimizer with
// the logged values instead of playing their games again.
package tune

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"gonum.org/v1/gonum/optimize"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
)

// Config fixes a tuning run.
type Config struct {
	// Suite is the training suite; BeamWidth and Quiescence the search.
	Suite      *arena.Suite
	BeamWidth  int
	Quiescence bool
	// Start is the starting weights; Terms the names of the weights tuned
	// (nil: every non-zero weight but future_factor).
	Start eval.Weights
	Terms []string
	// Evals caps the evaluations (each one a match arm over the suite);
	// Step is the initial simplex's size in log units (0: 0.5).
	Evals int
	Step  float64
	// Parallel is the number of games played at once (0: all cores).
	Parallel int
	// Log, when set, is the evaluations file: each evaluation is appended
	// as it finishes, and a rerun reads it back instead of replaying.
	Log string
	// Note, when set, receives one line per evaluation.
	Note func(format string, a ...any)
}

// Eval is one evaluation of the objective: a line of the log.
type Eval struct {
	X      []float64 `json:"x"`
	Score  float64   `json:"mean_score"`
	Pieces float64   `json:"mean_pieces"`
	// Weights are the candidate's weights.
	Weights eval.Weights `json:"weights"`
}

// Objective is what the search maximises: the mean score, with the mean
// pieces as a tie-break (a thousandth of a line per piece).
func (e Eval) Objective() float64 { return e.Score + e.Pieces/1000 }

// Result is the best candidate and every evaluation in order.
type Result struct {
	Best  Eval
	Evals []Eval
	// Replayed counts the evaluations read back from the log.
	Replayed int
}

// Check validates the settings.
func (c *Config) Check() error {
	switch {
	case c.Suite == nil || len(c.Suite.Starts) == 0:
		return errors.New("tune: no training starts")
	case c.BeamWidth < 1 || c.BeamWidth > beam.MaxWidth:
		return fmt.Errorf("tune: beam width %d", c.BeamWidth)
	case c.Evals < 1 || c.Evals > 100000:
		return fmt.Errorf("tune: %d evaluations: want 1 to 100000", c.Evals)
	case c.Step < 0 || c.Step > 5 || math.IsNaN(c.Step):
		return fmt.Errorf("tune: step %g: want 0 (default) to 5", c.Step)
	}
	_, err := c.terms()
	return err
}

// terms returns the tuned terms' accessors.
func (c *Config) terms() ([]eval.WeightTerm, error) {
	names := c.Terms
	if len(names) == 0 {
		for _, t := range eval.WeightTerms {
			w := c.Start
			if *t.Of(&w) != 0 && t.Name != "future_factor" {
				names = append(names, t.Name)
			}
		}
	}
	var out []eval.WeightTerm
	for _, n := range names {
		found := false
		for _, t := range eval.WeightTerms {
			w := c.Start
			if t.Name == strings.ReplaceAll(n, "-", "_") {
				if *t.Of(&w) == 0 {
					return nil, fmt.Errorf("tune: %s is 0 in the starting weights: a multiplicative search cannot move it", t.Name)
				}
				out = append(out, t)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("tune: unknown term %q", n)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("tune: no term to tune")
	}
	return out, nil
}

// weights returns the candidate at x.
func (c *Config) weights(terms []eval.WeightTerm, x []float64) eval.Weights {
	w := c.Start
	for i, t := range terms {
		p := t.Of(&w)
		*p = math.Round(*p*math.Exp(x[i])*1e4) / 1e4
	}
	w.Name = "tuned"
	w.Provenance = ""
	return w
}

// Run tunes.
func Run(ctx context.Context, c Config) (*Result, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	terms, _ := c.terms()
	logged, err := readLog(c.Log)
	if err != nil {
		return nil, err
	}
	var logf *os.File
	if c.Log != "" {
		if logf, err = os.OpenFile(c.Log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err != nil {
			return nil, fmt.Errorf("tune: %w", err)
		}
		defer logf.Close()
	}
	note := c.Note
	if note == nil {
		note = func(string, ...any) {}
	}
	res := &Result{}
	var runErr error
	f := func(x []float64) float64 {
		if runErr != nil {
			return math.Inf(1)
		}
		e, err := c.evaluate(ctx, terms, x, logged, logf, res)
		if err != nil {
			runErr = err
			return math.Inf(1)
		}
		res.Evals = append(res.Evals, e)
		if len(res.Evals) == 1 || e.Objective() > res.Best.Objective() {
			res.Best = e
		}
		note("evaluation %d: mean score %.2f, mean pieces %.1f (best %.2f)", len(res.Evals), e.Score, e.Pieces, res.Best.Score)
		return -e.Objective()
	}
	step := c.Step
	if step == 0 {
		step = 0.5
	}
	x0 := make([]float64, len(terms))
	settings := &optimize.Settings{FuncEvaluations: c.Evals, Converger: &optimize.FunctionConverge{Absolute: 1e-9, Iterations: 50}}
	_, err = optimize.Minimize(optimize.Problem{Func: f}, x0, settings, &optimize.NelderMead{SimplexSize: step})
	if runErr != nil {
		return nil, runErr
	}
	if err != nil && len(res.Evals) == 0 {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return res, nil
}

// evaluate plays (or reads back) the candidate at x.
func (c *Config) evaluate(ctx context.Context, terms []eval.WeightTerm, x []float64, logged map[string]Eval, logf *os.File, res *Result) (Eval, error) {
	key := keyOf(x)
	if e, ok := logged[key]; ok {
		res.Replayed++
		return e, nil
	}
	w := c.weights(terms, x)
	if err := w.Check(); err != nil {
		return Eval{}, err
	}
	m := &arena.Match{Suite: c.Suite, Arms: []arena.Arm{{Spec: "tuned", Eval: eval.NewHand(w)}}, BeamWidth: c.BeamWidth,
		Quiescence: c.Quiescence, Parallel: c.Parallel}
	games, err := m.PlayArm(ctx, 0)
	if err != nil {
		return Eval{}, err
	}
	var scores, pieces float64
	for _, g := range games {
		scores += float64(g.Score)
		pieces += float64(g.Pieces)
	}
	scores /= float64(len(games))
	pieces /= float64(len(games))
	e := Eval{X: append([]float64(nil), x...), Score: scores, Pieces: pieces, Weights: w}
	if logf != nil {
		b, _ := json.Marshal(e)
		if _, err := logf.Write(append(b, '\n')); err != nil {
			return Eval{}, fmt.Errorf("tune: writing the log: %w", err)
		}
		if err := logf.Sync(); err != nil {
			return Eval{}, err
		}
	}
	logged[key] = e
	return e, nil
}

func keyOf(x []float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// readLog reads an evaluations log (a missing file is empty; a last line
// cut by a kill is ignored).
func readLog(path string) (map[string]Eval, error) {
	out := map[string]Eval{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > 1<<30 {
		return nil, fmt.Errorf("tune: %s is not an evaluations log", path)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	if cut := bytes.LastIndexByte(data, '\n') + 1; cut < len(data) {
		data = data[:cut]
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, err
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var e Eval
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil || len(e.X) == 0 {
			return nil, fmt.Errorf("tune: %s line %d is not an evaluation: choose another --log", path, line)
		}
		out[keyOf(e.X)] = e
	}
	return out, sc.Err()
}
