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
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"

	"gonum.org/v1/gonum/optimize"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/filelock"
	"github.com/hatelab/hatelab/internal/jsonline"
	"github.com/hatelab/hatelab/internal/memlimit"
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

	headerLine []byte // the log's header line, for lineSum
}

// Eval is one evaluation of the objective: a line of the log.
type Eval struct {
	X      []float64 `json:"x"`
	Score  float64   `json:"mean_score"`
	Pieces float64   `json:"mean_pieces"`
	// Weights are the candidate's weights.
	Weights eval.Weights `json:"weights"`
	// Sum is the log line's checksum (lineSum); empty outside a log.
	Sum string `json:"sum,omitempty"`
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
	case c.Step != 0 && !(c.Step >= MinStep && c.Step <= 5):
		return fmt.Errorf("tune: step %g: want 0 (default 0.5) or %g to 5 (a smaller simplex moves no weight by the 0.0001 a weights file keeps)", c.Step, MinStep)
	case c.Parallel < 0 || c.Parallel > arena.MaxParallel:
		return fmt.Errorf("tune: %d games at once: want 0 (all cores) to %d", c.Parallel, arena.MaxParallel)
	}
	terms, err := c.terms()
	if err != nil {
		return err
	}
	if dead := arena.DeadStarts(c.Suite); dead > 0 {
		return fmt.Errorf("tune: %d of the training suite's %d starts are dead (over, or every placement of the first piece ends the game): every candidate would score the same there; use shorter openings or another suite", dead, len(c.Suite.Starts))
	}
	m := &arena.Match{Suite: c.Suite, Arms: []arena.Arm{{Spec: "tuned"}}, BeamWidth: c.BeamWidth, Parallel: c.Parallel}
	at := c.Parallel
	if at == 0 {
		at = runtime.GOMAXPROCS(0)
	}
	if err := memlimit.Check(fmt.Sprintf("tune: %d games at once at beam width %d", min(at, len(c.Suite.Starts)), c.BeamWidth), m.MemoryNeed()); err != nil {
		return err
	}
	for _, t := range terms {
		w := c.Start
		if v := math.Abs(*t.Of(&w)) * (math.Exp(c.step()) - 1); v < 1e-4 {
			return fmt.Errorf("tune: a step of %g moves %s (%g) by %.2g, less than the 0.0001 a weights file keeps: want a larger step", c.step(), t.Name, *t.Of(&w), v)
		}
	}
	return nil
}

// MinStep is the smallest initial simplex (log units) a run accepts.
const MinStep = 1e-3

func (c *Config) step() float64 {
	if c.Step == 0 {
		return 0.5
	}
	return c.Step
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
	seen := map[string]bool{}
	for _, n := range names {
		key := strings.ReplaceAll(n, "-", "_")
		if seen[key] {
			return nil, fmt.Errorf("tune: term %q is listed twice", n)
		}
		seen[key] = true
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
	logged := map[string]Eval{}
	var logf *os.File
	if c.Log != "" {
		var err error
		if logged, logf, err = openLog(c.Log, c.header(terms), terms, &c); err != nil {
			return nil, err
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
	step := c.step()
	x0 := make([]float64, len(terms))
	settings := &optimize.Settings{FuncEvaluations: c.Evals, Converger: &optimize.FunctionConverge{Absolute: 1e-9, Iterations: 50}}
	_, err := optimize.Minimize(optimize.Problem{Func: f}, x0, settings, &optimize.NelderMead{SimplexSize: step})
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
		e.Sum = lineSum(c.headerLine, e)
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

// LogFormat names the evaluations log's layout: a header line of the
// settings, then one evaluation a line, each with a checksum of the
// header and itself.
const LogFormat = "hatelab-tune-log/1"

// MaxLog bounds an evaluations log read back.
const MaxLog = 1 << 30

// LogHeader is the first line of an evaluations log: every setting the
// logged values depend on. A log is resumed only under the same header.
type LogHeader struct {
	Format     string   `json:"format"`
	SuiteSpec  string   `json:"suite_spec"`
	Suite      string   `json:"suite"` // arena.Suite.ID
	Rules      string   `json:"rules"`
	BeamWidth  int      `json:"beam_width"`
	Quiescence bool     `json:"quiescence"`
	Terms      []string `json:"terms"`
	Step       float64  `json:"step"`
	// Start is the starting weights' values (name and provenance
	// dropped: the same numbers under another name tune the same).
	Start eval.Weights `json:"start"`
}

func (c *Config) header(terms []eval.WeightTerm) LogHeader {
	h := LogHeader{Format: LogFormat, SuiteSpec: c.Suite.Spec, Suite: c.Suite.ID(), Rules: c.Suite.Rules.String(),
		BeamWidth: c.BeamWidth, Quiescence: c.Quiescence, Step: c.step(), Start: c.Start}
	h.Start.Name, h.Start.Provenance = "", ""
	for _, t := range terms {
		h.Terms = append(h.Terms, t.Name)
	}
	return h
}

// diff names the first setting where h and want differ ("" if none).
func (h LogHeader) diff(want LogHeader) string {
	hs, _ := json.Marshal(h.Start)
	ws, _ := json.Marshal(want.Start)
	switch {
	case h.Suite != want.Suite || h.SuiteSpec != want.SuiteSpec:
		return fmt.Sprintf("suite %s (%s), not %s (%s)", h.SuiteSpec, h.Suite, want.SuiteSpec, want.Suite)
	case h.Rules != want.Rules:
		return fmt.Sprintf("rules %s, not %s", h.Rules, want.Rules)
	case h.BeamWidth != want.BeamWidth:
		return fmt.Sprintf("beam width %d, not %d", h.BeamWidth, want.BeamWidth)
	case h.Quiescence != want.Quiescence:
		return fmt.Sprintf("quiescence %v, not %v", h.Quiescence, want.Quiescence)
	case strings.Join(h.Terms, ",") != strings.Join(want.Terms, ","):
		return fmt.Sprintf("terms %s, not %s", strings.Join(h.Terms, ","), strings.Join(want.Terms, ","))
	case h.Step != want.Step:
		return fmt.Sprintf("step %g, not %g", h.Step, want.Step)
	case string(hs) != string(ws):
		return fmt.Sprintf("starting weights %s, not %s", hs, ws)
	}
	return ""
}

// lineSum is an evaluation line's checksum: SHA-256 of the log's header
// line and the evaluation without its sum. An edited score or weight, or a
// line taken from a log of other settings, no longer matches it.
func lineSum(header []byte, e Eval) string {
	e.Sum = ""
	b, _ := json.Marshal(e)
	h := sha256.New()
	h.Write(header)
	h.Write([]byte{'\n'})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// openLog opens (or starts) the evaluations log at path for appending,
// locked against a second writer, and returns its evaluations by x. A log
// of other settings, a line that is not an evaluation of this log (its
// checksum, or weights that are not the candidate's at its x) is refused
// with the file left as it was; only then is a last line cut by a kill
// dropped.
func openLog(path string, want LogHeader, terms []eval.WeightTerm, c *Config) (map[string]Eval, *os.File, error) {
	f, _, err := boundedfile.OpenRW(path, MaxLog, "evaluations log", 0o644)
	if boundedfile.IsRefused(err) {
		return nil, nil, &InputError{fmt.Sprintf("tune: %s %v", path, err)}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tune: %w", err)
	}
	fail := func(err error) (map[string]Eval, *os.File, error) {
		f.Close()
		return nil, nil, err
	}
	if err := filelock.TryLock(f); errors.Is(err, filelock.ErrLocked) {
		return fail(&InputError{fmt.Sprintf("tune: %s is being written by another run (a second tune on the same --checkpoint?)", path)})
	} else if err != nil {
		return fail(fmt.Errorf("tune: locking %s: %w", path, err))
	}
	data, err := boundedfile.ReadAll(f, MaxLog, "evaluations log")
	if err != nil {
		return fail(fmt.Errorf("tune: reading %s: %w", path, err))
	}
	hb, _ := json.Marshal(want)
	c.headerLine = hb
	if len(data) == 0 {
		if _, err := f.Write(append(hb, '\n')); err != nil {
			return fail(fmt.Errorf("tune: writing %s: %w", path, err))
		}
		return map[string]Eval{}, f, f.Sync()
	}
	cut := bytes.LastIndexByte(data, '\n') + 1
	logged, err := readLog(data[:cut], path, want, terms, c)
	if err != nil {
		return fail(err)
	}
	if cut < len(data) {
		if err := f.Truncate(int64(cut)); err != nil {
			return fail(err)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return fail(err)
	}
	return logged, f, nil
}

// InputError is a log that cannot be resumed: other settings, an edited
// line, another run writing it (the CLI exits 2 on it).
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// readLog checks a log's complete lines against want and returns its
// evaluations by x.
func readLog(data []byte, path string, want LogHeader, terms []eval.WeightTerm, c *Config) (map[string]Eval, error) {
	bad := func(format string, a ...any) error {
		return &InputError{fmt.Sprintf("tune: %s: ", path) + fmt.Sprintf(format, a...) + "; choose another --checkpoint folder (the file is left as it is)"}
	}
	lines := bytes.SplitAfter(data, []byte{'\n'})
	var h LogHeader
	if len(lines) == 0 || jsonline.Decode(bytes.TrimSuffix(lines[0], []byte{'\n'}), &h) != nil || h.Format != LogFormat {
		return nil, bad("not an evaluations log of this version (its first line is not a %s header)", LogFormat)
	}
	if d := h.diff(want); d != "" {
		return nil, bad("the log was written under other settings (%s)", d)
	}
	header := bytes.TrimSuffix(lines[0], []byte{'\n'})
	out := map[string]Eval{}
	for i, l := range lines[1:] {
		if len(l) == 0 {
			continue
		}
		line := i + 2
		var e Eval
		if err := jsonline.Decode(bytes.TrimSuffix(l, []byte{'\n'}), &e); err != nil || len(e.X) != len(terms) {
			return nil, bad("line %d is not an evaluation of %d terms", line, len(terms))
		}
		if e.Sum != lineSum(header, e) {
			return nil, bad("line %d does not match its checksum (edited by hand, or from another log)", line)
		}
		if w := c.weights(terms, e.X); w != e.Weights {
			return nil, bad("line %d: its weights are not the candidate's at its x", line)
		}
		out[keyOf(e.X)] = e
	}
	return out, nil
}
