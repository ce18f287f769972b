package arena

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// Arm is one contestant of a match: an evaluation and the spec that names
// it.
type Arm struct {
	// Spec names the arm in results (ParseArm's input).
	Spec string
	Eval eval.Evaluator
	// BeamWidth, when not 0, and Quiescence, when not nil, replace the
	// match's settings for this arm (the "@w300", "@q" and "@noq"
	// suffixes): a match of one evaluation at several widths, or with and
	// without quiescence, compares settings with the same pairing.
	BeamWidth  int
	Quiescence *bool
}

// MaxTableFile caps the size of a line-transition table an arm reads.
const MaxTableFile = 256 << 20

// ArmSpecs describes the arm specs ParseArm accepts, for help texts.
const ArmSpecs = `hand (knewjade's terms, D&F's 86-point weights), score (lines alone: the hand-made weights' score terms), ` +
	`tuned (the best hand-made weights in the arena, datasets/weights/tuned-03.json: lines alone plus row transitions, rows with holes, column transitions), ` +
	`hand-TERM or tuned-TERM (without one term, e.g. hand-holes), weights:FILE (hand-made weights from a JSON file), ` +
	`nnue:FILE (a network), a hand-made arm with rules added (hand+sz-holes, hand+sz-two-well, hand+stack-height, tuned+sz-two-well), ` +
	`and BASE+g:WEIGHT:TABLE (BASE plus the line-transition term G of a flats table); ` +
	`a suffix @wN (beam width N), @q or @noq (quiescence on or off) sets the arm's own search settings`

// BestHand is the spec of the best hand-made evaluation in the arena,
// "tuned" (eval.TunedWeights, datasets/weights/tuned-03.json): on the
// test suite openings:20:8:1 with quiescence it beats both lines alone
// ("score") and D&F's weights ("hand") at beam widths 1,000 and 10,000
// (datasets/arena/terms-w1000.jsonl, terms-w10000.jsonl). It is the
// default where the CLI chooses a hand-made evaluation for the user
// (`hatelab beam --eval`, `hatelab nnue cycle --gate-baseline`); "hand"
// stays D&F's weights, and "score" and "hand" reproduce the runs made
// before it.
const BestHand = "tuned"

// ParseArm builds the evaluation an arm spec names (ArmSpecs), checked
// against rules r (nil: the real game's well). Errors are one line.
func ParseArm(spec string, r *hatetris.Rules) (Arm, error) { return ParseArmIn("", spec, r) }

// ParseArmIn is ParseArm with the files a spec names (weights, networks,
// tables) read relative to dir when their paths are relative; the spec,
// and so the arm's name in results, keeps the path as written.
func ParseArmIn(dir, spec string, r *hatetris.Rules) (Arm, error) {
	if r == nil {
		r = hatetris.Standard()
	}
	spec = strings.TrimSpace(spec)
	var arm Arm
	evalSpec, opts, _ := strings.Cut(spec, "@")
	if err := arm.parseSettings(opts); err != nil {
		return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
	}
	base, gpart, hasG := strings.Cut(evalSpec, "+g:")
	ev, err := parseBase(base, dir)
	if err != nil {
		return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
	}
	if hasG {
		term, err := parseG(gpart, r, dir)
		if err != nil {
			return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
		}
		ev = eval.Sum{Base: ev, Terms: []eval.Evaluator{term}}
	}
	if c, ok := ev.(eval.GeometryChecker); ok {
		if err := c.Check(r); err != nil {
			return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
		}
	}
	arm.Spec, arm.Eval = spec, ev
	return arm, nil
}

// parseSettings reads the "@"-separated suffixes of an arm spec.
func (a *Arm) parseSettings(opts string) error {
	if opts == "" {
		return nil
	}
	for _, o := range strings.Split(opts, "@") {
		switch {
		case o == "q" || o == "noq":
			if a.Quiescence != nil {
				return fmt.Errorf("quiescence set twice")
			}
			q := o == "q"
			a.Quiescence = &q
		case strings.HasPrefix(o, "w"):
			w, err := strconv.Atoi(o[1:])
			if err != nil || w < 1 || w > beam.MaxWidth || a.BeamWidth != 0 {
				return fmt.Errorf("setting %q: want one @wN with N from 1 to %d", "@"+o, beam.MaxWidth)
			}
			a.BeamWidth = w
		default:
			return fmt.Errorf("unknown setting %q (want @wN, @q or @noq)", "@"+o)
		}
	}
	return nil
}

// Settings returns the beam width and quiescence the arm plays with in a
// match of the given settings.
func (a *Arm) Settings(beamWidth int, quiescence bool) (int, bool) {
	if a.BeamWidth != 0 {
		beamWidth = a.BeamWidth
	}
	if a.Quiescence != nil {
		quiescence = *a.Quiescence
	}
	return beamWidth, quiescence
}

// in resolves a relative path against dir.
func in(dir, path string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

func parseBase(spec, dir string) (eval.Evaluator, error) {
	s, rules, hasRules := strings.Cut(spec, "+")
	kind, arg, _ := strings.Cut(s, ":")
	var w eval.Weights
	switch {
	case s == "hand":
		w = eval.DefaultWeights()
	case s == "tuned":
		w = eval.TunedWeights()
	case s == "score":
		w = eval.ScoreOnly(eval.DefaultWeights())
	case strings.HasPrefix(s, "hand-"):
		var err error
		if w, err = eval.DefaultWeights().Without(strings.TrimPrefix(s, "hand-")); err != nil {
			return nil, err
		}
	case strings.HasPrefix(s, "tuned-"):
		var err error
		if w, err = eval.TunedWeights().Without(strings.TrimPrefix(s, "tuned-")); err != nil {
			return nil, err
		}
	case kind == "weights" && arg != "":
		var err error
		if w, err = eval.LoadWeights(in(dir, arg)); err != nil {
			return nil, err
		}
	case kind == "nnue" && arg != "" && !hasRules:
		return eval.LoadNNUE(in(dir, arg))
	default:
		return nil, fmt.Errorf("unknown evaluation %q (want hand, score, tuned, hand-TERM, tuned-TERM, weights:FILE or nnue:FILE; see hatelab arena --help)", spec)
	}
	if hasRules {
		for _, r := range strings.Split(rules, "+") {
			if err := applyRule(&w, r); err != nil {
				return nil, err
			}
		}
	}
	return eval.NewHand(w), nil
}

// applyRule turns on one of eval.WeightRules (named with '-' for '_'), or
// "stack-height", the reading of surface height as the stack's height.
func applyRule(w *eval.Weights, r string) error {
	known := false
	names := make([]string, 0, len(eval.WeightRules)+1)
	for _, rule := range eval.WeightRules {
		name := strings.ReplaceAll(rule.Name, "_", "-")
		names = append(names, name)
		if name == r {
			*rule.Of(w), known = true, true
		}
	}
	switch {
	case known:
	case r == "stack-height":
		if w.SurfaceHeight == 0 {
			return fmt.Errorf("rule stack-height: the weights have no surface-height weight to move")
		}
		w.StackHeight, w.SurfaceHeight = w.SurfaceHeight, 0
	default:
		return fmt.Errorf("unknown rule %q (want %s or stack-height)", r, strings.Join(names, ", "))
	}
	w.Name += "+" + r
	return w.Check()
}

// parseG reads "WEIGHT:TABLE".
func parseG(s string, r *hatetris.Rules, dir string) (eval.Evaluator, error) {
	ws, file, ok := strings.Cut(s, ":")
	if !ok || file == "" {
		return nil, fmt.Errorf("g term %q: want +g:WEIGHT:TABLE (a flats table file)", s)
	}
	weight, err := strconv.ParseFloat(ws, 64)
	if err != nil || math.IsNaN(weight) || math.IsInf(weight, 0) || math.Abs(weight) > eval.MaxWeight {
		return nil, fmt.Errorf("g term weight %q: want a number within ±%g", ws, float64(eval.MaxWeight))
	}
	t, err := readTable(in(dir, file))
	if err != nil {
		return nil, err
	}
	if t.Width != r.Width {
		return nil, fmt.Errorf("table %s is for wells %d wide, not %d", file, t.Width, r.Width)
	}
	return flats.NewTerm(t, weight)
}

func readTable(path string) (*flats.Table, error) {
	b, err := boundedfile.ReadFile(path, MaxTableFile, "table file")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("table %s %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	t, err := flats.ParseTable(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", path, err)
	}
	return t, nil
}

// ParseArms parses a comma-separated list of arm specs (the first is the
// baseline); it refuses fewer than two arms and repeated specs.
func ParseArms(list string, r *hatetris.Rules) ([]Arm, error) { return ParseArmsIn("", list, r) }

// ParseArmsIn is ParseArms with files read relative to dir (ParseArmIn).
func ParseArmsIn(dir, list string, r *hatetris.Rules) ([]Arm, error) {
	var arms []Arm
	seen := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if seen[s] {
			return nil, fmt.Errorf("arm %q is listed twice", s)
		}
		seen[s] = true
		a, err := ParseArmIn(dir, s, r)
		if err != nil {
			return nil, err
		}
		arms = append(arms, a)
	}
	if len(arms) < 2 {
		return nil, fmt.Errorf("arms %q: want at least two, separated by commas (the first is the baseline)", list)
	}
	return arms, nil
}
