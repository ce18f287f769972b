// Package evalspec reads the evaluation-spec language: the one grammar by
// which a user names an evaluation, in `hatelab beam --eval`,
// `hatelab-beam beam --eval`, the arms of `hatelab arena`, the NNUE
// gate's baseline and the lab's notebooks.
//
// A spec is a base evaluation, optionally with rules and a line-transition
// term (Help lists them):
//
//	SPEC = BASE [ "+g:" WEIGHT ":" TABLE ]
//	BASE = HANDR | NET [ "+h:" WEIGHT ":" HANDR ]
//	NET  = "nnue" | "nnue:" FILE
//	HANDR = HAND { "+" RULE }
//	HAND = "tuned" | "hand" | "score" | "hand-" TERM | "tuned-" TERM | "weights:" FILE
//
// NET+h:W:HANDR is a hybrid: the network's value plus W times the
// hand-made evaluation's (a network's values spread about a few tenths
// between sibling wells, tuned's about 200, so W of a few thousandths
// weighs the two alike).
//
// Parse builds the evaluation a spec names; FromFlags folds the older pair
// of flags --eval NAME --weights FILE into one spec. A spec that says
// nothing or contradicts itself (empty, a rule twice, a rule already on,
// an ablation of the score term) is refused with a one-line error.
package evalspec

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
)

// The names of the lab's best evaluations.
const (
	// BestHand names the best hand-made evaluation in the arena, tuned
	// (eval.TunedWeights, datasets/weights/tuned-03.json): the default
	// where a command chooses an evaluation for the user.
	BestHand = "tuned"
	// BestNetwork names the lab's best network (datasets/weights'
	// BestNetworkFile, chosen by the arena), embedded: no path needed.
	BestNetwork = "nnue"
)

// MaxTableFile caps the size of a line-transition table a spec reads.
const MaxTableFile = 256 << 20

// Help lists the specs Parse accepts, one a line, for help texts.
var Help = `  tuned           the best hand-made evaluation in the arena (datasets/weights/tuned-03.json: lines
                  alone plus row transitions, rows with holes, column transitions)
  hand            D&F's 86-point hand-made weights (datasets/weights/dnf86.json)
  score           lines alone (the hand-made weights' score terms)
  nnue            the lab's best network (datasets/weights/` + weights.BestNetworkFile + `)
  nnue:FILE       a network (.hlnn)
  weights:FILE    hand-made weights from a JSON file
  hand-TERM       hand without one term, e.g. hand-holes (tuned-TERM likewise)
  HAND+RULE       a hand-made evaluation with a rule on: ` + strings.Join(ruleNames(), ", ") + `
                  (e.g. hand+stack-height, tuned+sz-two-well; several: hand+sz-holes+sz-two-well)
  NET+h:W:HAND    a hybrid: the network NET (nnue, nnue:FILE) plus W times the hand-made evaluation
                  HAND (e.g. nnue+h:0.002:tuned; tuned's values are some 400 times a network's)
  BASE+g:W:TABLE  BASE plus the line-transition term G of a flats table, weighed W
  SPEC+n:S:SEED   SPEC with a seeded normal error of deviation S added to each well's value, the same
                  for the same well (a control: what errors of that size cost; e.g. tuned+n:20:1)`

// Parse builds the evaluation spec names (Help), with the files it names
// (weights, networks, tables) read relative to dir when their paths are
// relative ("" is the working folder), checked against rules r (nil: the
// real game's well). Errors are one line and do not repeat the spec: the
// caller says where it came from.
func Parse(spec, dir string, r *hatetris.Rules) (eval.Evaluator, error) {
	if r == nil {
		r = hatetris.Standard()
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty evaluation (want tuned, hand, score, nnue, ...: see --help)")
	}
	if _, suffix, ok := strings.Cut(spec, "@"); ok {
		return nil, fmt.Errorf("the suffix @%s sets an arena arm's own search, not an evaluation (for one game: --beam-width N, --quiescence)", suffix)
	}
	spec, npart, hasN := cutLast(spec, "+n:")
	base, gpart, hasG := strings.Cut(spec, "+g:")
	base, hpart, hasH := strings.Cut(base, "+h:")
	ev, err := parseBase(base, dir)
	if err != nil {
		return nil, err
	}
	if hasH {
		if ev, err = hybrid(ev, hpart, dir); err != nil {
			return nil, err
		}
	}
	if hasG {
		term, err := parseG(gpart, r, dir)
		if err != nil {
			return nil, err
		}
		ev = eval.Sum{Base: ev, Terms: []eval.Evaluator{term}}
	}
	if hasN {
		if ev, err = parseNoise(ev, npart); err != nil {
			return nil, err
		}
	}
	if c, ok := ev.(eval.GeometryChecker); ok {
		if err := c.Check(r); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// FromFlags folds the pair of flags --eval NAME --weights FILE (the form
// of older commands) into one spec: "hand" with a file is weights:FILE,
// "nnue" with a file nnue:FILE, and without a file the name is the spec
// itself (hand, tuned and nnue in any case, as the old flag read them). A
// file beside any other spec is refused (name it in the spec).
func FromFlags(name, weightsFile string) (string, error) {
	name = strings.TrimSpace(name)
	if l := strings.ToLower(name); l == "hand" || l == BestHand || l == BestNetwork {
		name = l // the old flag values were read in any case (HAND)
	}
	if weightsFile == "" {
		return name, nil
	}
	switch name {
	case "hand":
		return "weights:" + weightsFile, nil
	case "nnue":
		return "nnue:" + weightsFile, nil
	case BestHand:
		return "", fmt.Errorf("--weights goes with --eval hand or nnue; --eval %s has its own weights (datasets/weights/tuned-03.json): for other weights use --eval weights:FILE", name)
	}
	return "", fmt.Errorf("--weights goes with --eval hand or nnue; with --eval %q name the file in the spec (weights:FILE, nnue:FILE)", name)
}

// ParseFlags builds the evaluation of a command's --eval NAME and
// --weights FILE (Parse of FromFlags, files relative to the working
// folder), checked against rules r; errors name --eval. hatelab beam and
// hatelab-beam beam read their flags with it.
func ParseFlags(name, weightsFile string, r *hatetris.Rules) (eval.Evaluator, error) {
	spec, err := FromFlags(name, weightsFile)
	if err != nil {
		return nil, err
	}
	ev, err := Parse(spec, "", r)
	if err != nil {
		return nil, fmt.Errorf("--eval %s: %v", clip.Quote(spec), err)
	}
	return ev, nil
}

// Hand returns the hand-made weights of a spec that names a hand-made
// evaluation (tuned, hand, score, weights:FILE, with rules), for commands
// that need weights rather than an evaluation; a network or a G term is
// refused.
func Hand(spec, dir string) (eval.Weights, error) {
	ev, err := Parse(spec, dir, nil)
	if err != nil {
		return eval.Weights{}, err
	}
	h, ok := ev.(*eval.Hand)
	if !ok {
		return eval.Weights{}, fmt.Errorf("want a hand-made evaluation (tuned, hand, score, weights:FILE, ...), not %s", ev.Name())
	}
	return h.W, nil
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
	kind, arg, hasArg := strings.Cut(s, ":")
	var w eval.Weights
	var err error
	switch {
	case s == "hand":
		w = eval.DefaultWeights()
	case s == "tuned":
		w = eval.TunedWeights()
	case s == "score":
		w = eval.ScoreOnly(eval.DefaultWeights())
	case strings.HasPrefix(s, "hand-"):
		w, err = without(eval.DefaultWeights(), strings.TrimPrefix(s, "hand-"))
	case strings.HasPrefix(s, "tuned-"):
		w, err = without(eval.TunedWeights(), strings.TrimPrefix(s, "tuned-"))
	case kind == "weights" && hasArg:
		if arg == "" {
			return nil, fmt.Errorf("weights: names no file (want weights:FILE)")
		}
		w, err = eval.LoadWeights(in(dir, arg))
	case (s == BestNetwork || kind == "nnue") && hasRules:
		return nil, fmt.Errorf("rules (+%s) are for hand-made evaluations, not a network", rules)
	case s == BestNetwork:
		return bestNetwork()
	case kind == "nnue" && hasArg:
		if arg == "" {
			return nil, fmt.Errorf("nnue: names no file (want nnue:FILE, or nnue for the lab's best network)")
		}
		return eval.LoadNNUE(in(dir, arg))
	default:
		return nil, fmt.Errorf("unknown evaluation %q (want tuned, hand, score, nnue, nnue:FILE, weights:FILE, hand-TERM or tuned-TERM)", s)
	}
	if err != nil {
		return nil, err
	}
	if hasRules {
		seen := map[string]bool{}
		for _, rule := range strings.Split(rules, "+") {
			if seen[rule] {
				return nil, fmt.Errorf("rule %s is named twice", rule)
			}
			seen[rule] = true
			if err := applyRule(&w, rule); err != nil {
				return nil, err
			}
		}
	}
	return eval.NewHand(w), nil
}

// without is Weights.Without, refusing the score term: lines cleared are
// what every evaluation is built on (the arm score is lines alone), so an
// evaluation without them is no ablation of one.
func without(w eval.Weights, term string) (eval.Weights, error) {
	if strings.TrimSpace(strings.ToLower(term)) == "score" {
		return eval.Weights{}, fmt.Errorf("%s-score: the score term (lines cleared) cannot be removed; for lines alone use score", w.Name)
	}
	return w.Without(term)
}

// bestNetwork decodes the embedded best network.
func bestNetwork() (eval.Evaluator, error) {
	n, err := nnue.Unmarshal(weights.BestNetwork)
	if err != nil {
		return nil, fmt.Errorf("the embedded best network datasets/weights/%s: %w", weights.BestNetworkFile, err)
	}
	return eval.NewNNUE(n)
}

// ruleNames lists the rules a hand-made spec can add, as specs name them.
func ruleNames() []string {
	names := make([]string, 0, len(eval.WeightRules)+1)
	for _, rule := range eval.WeightRules {
		names = append(names, strings.ReplaceAll(rule.Name, "_", "-"))
	}
	return append(names, "stack-height")
}

// applyRule turns on one of eval.WeightRules (named with '-' for '_'), or
// "stack-height", the reading of surface height as the stack's height.
func applyRule(w *eval.Weights, r string) error {
	known := false
	for _, rule := range eval.WeightRules {
		if strings.ReplaceAll(rule.Name, "_", "-") != r {
			continue
		}
		p := rule.Of(w)
		if *p {
			return fmt.Errorf("rule %s is already on in the weights %s", r, w.Name)
		}
		*p, known = true, true
	}
	switch {
	case known:
	case r == "stack-height":
		if w.SurfaceHeight == 0 {
			return fmt.Errorf("rule stack-height: the weights have no surface-height weight to move")
		}
		w.StackHeight, w.SurfaceHeight = w.SurfaceHeight, 0
	default:
		return fmt.Errorf("unknown rule %q (want %s)", r, strings.Join(ruleNames(), ", "))
	}
	w.Name += "+" + r
	return w.Check()
}

// hybrid reads the "WEIGHT:HAND" of NET+h:WEIGHT:HAND: the network net
// plus WEIGHT times the hand-made evaluation HAND (a hand-made spec, rules
// allowed). The sum's base is the scaled hand-made evaluation, whose
// worker passes on the quiescence clears when its weights compute them
// (-1 otherwise: the quiescence finds them); the network is its term and
// stays incremental (eval.Sum).
func hybrid(net eval.Evaluator, s, dir string) (eval.Evaluator, error) {
	if _, ok := net.(*eval.NNUE); !ok {
		return nil, fmt.Errorf("+h: adds a hand-made evaluation to a network (nnue+h:W:HAND), not to %s (name one set of hand-made weights)", clip.Quote(net.Name()))
	}
	ws, hand, ok := strings.Cut(s, ":")
	if !ok || hand == "" {
		return nil, fmt.Errorf("h term %q: want +h:WEIGHT:HAND (a hand-made evaluation such as tuned)", s)
	}
	weight, err := strconv.ParseFloat(ws, 64)
	if err != nil || math.IsNaN(weight) || math.IsInf(weight, 0) || weight <= 0 || weight > eval.MaxWeight {
		return nil, fmt.Errorf("h term weight %q: want a number above 0 and at most %g", ws, float64(eval.MaxWeight))
	}
	h, err := parseBase(hand, dir)
	if err != nil {
		return nil, fmt.Errorf("h term: %w", err)
	}
	if _, ok := h.(*eval.Hand); !ok {
		return nil, fmt.Errorf("h term: want a hand-made evaluation (tuned, hand, score, weights:FILE, ...), not %s", clip.Quote(h.Name()))
	}
	return eval.Sum{Base: eval.Scaled{E: h, W: weight}, Terms: []eval.Evaluator{net}}, nil
}

// HybridParts splits a hybrid spec NET+h:W:HAND (no +g or +n term) into
// its hand-made part, W times HAND (an eval.Scaled, files relative to
// dir), HAND's spec and W; ok is false for a spec that is no hybrid or a
// hybrid with a +g or +n term, and
// err reports a hybrid that Parse refuses. An NNUE cycle whose teacher is
// a hybrid subtracts this part in its residual targets.
func HybridParts(spec, dir string) (part eval.Evaluator, hand string, w float64, ok bool, err error) {
	spec = strings.TrimSpace(spec)
	_, hpart, isHybrid := strings.Cut(spec, "+h:")
	if !isHybrid || strings.Contains(spec, "+g:") || strings.Contains(spec, "+n:") {
		return nil, "", 0, false, nil
	}
	ev, err := Parse(spec, dir, nil)
	if err != nil {
		return nil, "", 0, false, err
	}
	sum, isSum := ev.(eval.Sum)
	scaled, isScaled := sum.Base.(eval.Scaled)
	if !isSum || !isScaled {
		return nil, "", 0, false, nil
	}
	_, hand, _ = strings.Cut(hpart, ":")
	return scaled, hand, scaled.W, true, nil
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// MaxNoise caps the deviation of a +n: error.
const MaxNoise = 1e6

// parseNoise reads "SIGMA:SEED" (a deviation above 0 and at most
// MaxNoise, a seed from 1 to 2^64-1 in decimal) and wraps ev in eval.Noise.
func parseNoise(ev eval.Evaluator, s string) (eval.Evaluator, error) {
	ss, seeds, ok := strings.Cut(s, ":")
	if !ok || seeds == "" {
		return nil, fmt.Errorf("n term %s: want +n:DEVIATION:SEED", clip.Quote(s))
	}
	sigma, err := strconv.ParseFloat(ss, 64)
	if err != nil || math.IsNaN(sigma) || sigma <= 0 || sigma > MaxNoise {
		return nil, fmt.Errorf("n term deviation %s: want a number above 0 and at most %g", clip.Quote(ss), float64(MaxNoise))
	}
	seed, err := strconv.ParseUint(seeds, 10, 64)
	if err != nil || seed == 0 || (len(seeds) > 1 && seeds[0] == '0') {
		return nil, fmt.Errorf("n term seed %s: want a decimal number from 1 to %d", clip.Quote(seeds), uint64(math.MaxUint64))
	}
	return eval.Noise(ev, sigma, seed), nil
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
	if weight == 0 {
		return nil, fmt.Errorf("g term weight 0 adds nothing")
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
	b, err := boundedfile.ReadFile(path, MaxTableFile, "line-transition table")
	if boundedfile.IsRefused(err) {
		return nil, fmt.Errorf("table %s %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", path, err)
	}
	t, err := flats.ParseTable(b)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", path, err)
	}
	return t, nil
}
