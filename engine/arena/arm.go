package arena

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/flags"
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

// ArmHelp describes the arm specs ParseArm accepts, one a line, for help
// texts: an evaluation spec (engine/evalspec) and the arm's own search
// settings.
var ArmHelp = evalspec.Help + `
  SPEC@wN         the arm plays at beam width N (the match's --beam-width otherwise)
  SPEC@q, @noq    the arm plays with quiescence on or off (e.g. tuned@w300@noq)`

// BestHand is the spec of the best hand-made evaluation in the arena,
// "tuned" (evalspec.BestHand).
//
// Deprecated: use evalspec.BestHand.
const BestHand = evalspec.BestHand

// ParseArm builds the evaluation an arm spec names (ArmHelp), checked
// against rules r (nil: the real game's well). Errors are one line.
func ParseArm(spec string, r *hatetris.Rules) (Arm, error) { return ParseArmIn("", spec, r) }

// ParseArmIn is ParseArm with the files a spec names (weights, networks,
// tables) read relative to dir when their paths are relative; the spec,
// and so the arm's name in results, keeps the path as written.
func ParseArmIn(dir, spec string, r *hatetris.Rules) (Arm, error) {
	spec = strings.TrimSpace(spec)
	var arm Arm
	evalSpec, opts, hasOpts := strings.Cut(spec, "@")
	if err := arm.parseSettings(opts, hasOpts); err != nil {
		return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
	}
	ev, err := evalspec.Parse(evalSpec, dir, r)
	if err != nil {
		return Arm{}, fmt.Errorf("arm %q: %w", spec, err)
	}
	arm.Spec, arm.Eval = spec, ev
	return arm, nil
}

// parseSettings reads the "@"-separated suffixes of an arm spec; its
// integers follow the flags' rule (no leading zeros: @w0300 is refused).
func (a *Arm) parseSettings(opts string, present bool) error {
	if !present {
		return nil
	}
	for _, o := range strings.Split(opts, "@") {
		switch {
		case o == "":
			return fmt.Errorf("an empty setting after @ (want @wN, @q or @noq)")
		case o == "q" || o == "noq":
			if a.Quiescence != nil {
				return fmt.Errorf("quiescence set twice")
			}
			q := o == "q"
			a.Quiescence = &q
		case strings.HasPrefix(o, "w"):
			w, err := flags.ParseDecimal(o[1:])
			if err != nil || w < 1 || w > flags.MaxBeamWidth || a.BeamWidth != 0 {
				return fmt.Errorf("setting %q: want one @wN with N from 1 to %d, no leading zeros", "@"+o, flags.MaxBeamWidth)
			}
			a.BeamWidth = int(w)
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
