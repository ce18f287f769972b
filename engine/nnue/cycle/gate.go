package cycle

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/internal/flags"
)

// Gate judges each new network of an NNUE cycle in matches: the previous
// generation, the new one and a baseline evaluation play every start of
// Suite at each of BeamWidths; the new network passes the gate unless its
// mean score over all the gate's games is below the previous network's.
// Its verdict gives, at each width, both comparisons with their Wilcoxon
// p. A suite of seeded openings is not the master beam's wells from the
// empty well, which the training samples come from; a deep suite is a
// games: suite (the lab's own long games), never records: (the world
// records' wells, the deep test set: ParseGate refuses it). Several gates
// (Gates) judge a network together: it is kept only if it passes each.
type Gate struct {
	Suite *arena.Suite
	// BeamWidths are the widths of the gate's matches (at least one).
	BeamWidths []int
	Quiescence bool
	Parallel   int
	// Baseline is the evaluation the new network is also compared with
	// (its Spec names it). The zero Arm is "hand", the hand-made
	// evaluation with D&F's weights (eval.DefaultWeights), the gate of the
	// committed scale run (datasets/weights/scale-run), kept so that
	// callers written before "tuned" play the gates they played. The best
	// hand-made evaluation in the arena is evalspec.BestHand, "tuned"
	// (eval.TunedWeights): it beats both lines alone ("score") and "hand"
	// on the test suite at beam widths 1,000 and 10,000, so a network
	// that beats it beats every hand-made evaluation the lab has; `hatelab
	// nnue cycle --gate-baseline` defaults to it. "score" and "hand"
	// reproduce the gates of runs made before it.
	Baseline arena.Arm
	// Dir, when set, keeps each gate's games in resumable match files
	// (a killed cycle resumes its gate matches there): the first gate's
	// in Dir/gate-NN.jsonl for its first width and Dir/gate-NN-wW.jsonl
	// for each other width W, the K-th gate's (K from 2) in
	// Dir/gate-NN-gK-wW.jsonl (GateFile).
	Dir string
	// Progress, when set, receives an event per finished game.
	Progress progress.Reporter
}

// Gates are the gates a new network must all pass (each a suite at its
// widths, with its own keep rule); Judge is the cycle's gate hook.
type Gates []Gate

// Verdict is a gate hook's judgement of a new network (Config.Gate).
type Verdict struct {
	// Keep tells whether the new network is the next generation's start.
	Keep bool
	// Line is the verdict in one line (the report's gate).
	Line string
	// Gates are each gate's results, in order (nil from a hook that gives
	// none).
	Gates []GateResult
}

// GateResult is one gate's result in a generation's report.
type GateResult struct {
	Suite      string `json:"suite"`    // the suite's spec
	SuiteID    string `json:"suite_id"` // arena.Suite.ID
	BeamWidths []int  `json:"beam_widths"`
	// Diff is the new network's paired differences against its start,
	// summed over the gate's games at every width; Pass is Diff >= 0.
	Diff   float64     `json:"diff"`
	Pass   bool        `json:"pass"`
	Widths []GateWidth `json:"widths"`
}

// GateWidth is a gate's match at one beam width: its file (in Gate.Dir;
// empty without one) and the new network's comparisons with its start
// (Holm-adjusted with the baseline's against the start, as the arena
// reports the match) and with the baseline.
type GateWidth struct {
	BeamWidth  int              `json:"beam_width"`
	File       string           `json:"file,omitempty"`
	VsPrev     stats.Comparison `json:"vs_prev"`
	VsBaseline stats.Comparison `json:"vs_baseline"`
}

// ParseGate builds the gate a spec names, with quiescence: an arena suite
// spec (arena.ParseSuite, for rules r; nil: the real game's well), then
// optionally @wN, the one beam width the gate plays at; without it the
// gate plays at each of widths, its paired differences summed over them.
// A records: suite (distinct: or not) is refused before anything is read: the world
// records' wells are the deep test set, never a gate (a deep gate is a
// games: suite). The caller sets the Baseline, Dir, Parallel and
// Progress. Errors are one line and name the spec.
func ParseGate(spec string, widths []int, r *hatetris.Rules) (Gate, error) {
	spec = strings.TrimSpace(spec)
	suite, width, err := splitGateSpec(spec)
	if err != nil {
		return Gate{}, fmt.Errorf("gate %q: %w", spec, err)
	}
	if arena.Kind(suite) == "records" {
		return Gate{}, fmt.Errorf("gate %q: record wells are the deep test set, never a gate: use a games: suite (the lab's long games)", spec)
	}
	if width != 0 {
		widths = []int{width}
	}
	if len(widths) == 0 {
		return Gate{}, fmt.Errorf("gate %q: no beam width", spec)
	}
	for i, w := range widths {
		if w < 1 || w > flags.MaxBeamWidth {
			return Gate{}, fmt.Errorf("gate %q: beam width %d: want 1 to %d", spec, w, flags.MaxBeamWidth)
		}
		if slices.Contains(widths[:i], w) {
			return Gate{}, fmt.Errorf("gate %q: beam width %d given twice", spec, w)
		}
	}
	s, err := arena.ParseSuite(suite, r)
	if err != nil {
		return Gate{}, fmt.Errorf("gate %q: %w", spec, err)
	}
	return Gate{Suite: s, BeamWidths: slices.Clone(widths), Quiescence: true}, nil
}

// splitGateSpec cuts a gate spec's @wN off at its last '@' (a games:
// suite's FILE may hold one: it is then followed by @wN).
func splitGateSpec(spec string) (suite string, width int, err error) {
	i := strings.LastIndexByte(spec, '@')
	if i < 0 {
		return spec, 0, nil
	}
	suite, o := spec[:i], spec[i+1:]
	if !strings.HasPrefix(o, "w") {
		return "", 0, fmt.Errorf("unknown setting %q (want @wN, one beam width)", "@"+o)
	}
	w, err := flags.ParseDecimal(o[1:])
	if err != nil || w < 1 || w > flags.MaxBeamWidth {
		return "", 0, fmt.Errorf("setting %q: want @wN with N from 1 to %d, no leading zeros", "@"+o, flags.MaxBeamWidth)
	}
	if j := strings.LastIndexByte(suite, '@'); j >= 0 && strings.HasPrefix(suite[j+1:], "w") {
		if _, err := flags.ParseDecimal(suite[j+2:]); err == nil {
			return "", 0, fmt.Errorf("two beam widths: a gate plays at one @wN (give the suite again for another width)")
		}
	}
	return suite, int(w), nil
}

// ParseGates builds the gates of specs (ParseGate, each), refusing none
// and one suite at one width in two gates.
func ParseGates(specs []string, widths []int, r *hatetris.Rules) (Gates, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("no gate")
	}
	var gs Gates
	for _, spec := range specs {
		g, err := ParseGate(spec, widths, r)
		if err != nil {
			return nil, err
		}
		for _, o := range gs {
			for _, w := range g.BeamWidths {
				if o.Suite.ID() == g.Suite.ID() && slices.Contains(o.BeamWidths, w) {
					return nil, fmt.Errorf("gate %q: suite %s at beam width %d is already gate %q", strings.TrimSpace(spec), g.Suite.Spec, w, o.Suite.Spec)
				}
			}
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// Judge is the cycle's gate hook of one gate (Gates.Judge): whether the
// new network is kept and the verdict's line.
func (g Gate) Judge(ctx context.Context, gen int, prevName string, prev, next *nnue.Network) (keep bool, verdict string, err error) {
	v, err := Gates{g}.Judge(ctx, gen, prevName, prev, next)
	return v.Keep, v.Line, err
}

// Judge is the cycle's gate hook (Config.Gate): the new network of
// generation gen against prev, the network it started from, named
// prevName in the matches and the verdict, at every gate in turn; it is
// kept only if it passes them all. Every gate is played, whatever the
// ones before it gave, so that the report holds each.
func (gs Gates) Judge(ctx context.Context, gen int, prevName string, prev, next *nnue.Network) (Verdict, error) {
	if len(gs) == 0 {
		return Verdict{}, fmt.Errorf("no gate")
	}
	pe, err := eval.NewNNUE(prev)
	if err != nil {
		return Verdict{}, err
	}
	ne, err := eval.NewNNUE(next)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Keep: true}
	var parts, failed []string
	for k, g := range gs {
		res, line, err := g.play(ctx, k, len(gs), gen, prevName, pe, ne)
		if err != nil {
			return Verdict{}, err
		}
		v.Gates = append(v.Gates, res)
		if len(gs) > 1 {
			word := "passed"
			if !res.Pass {
				word = "failed"
				failed = append(failed, fmt.Sprint(k+1))
			}
			line = fmt.Sprintf("gate %d %s (%+g lines summed): %s", k+1, word, res.Diff, line)
		}
		parts = append(parts, line)
		v.Keep = v.Keep && res.Pass
	}
	word := "kept as the next generation's start"
	if !v.Keep {
		word = fmt.Sprintf("rejected: generation %d starts from %s", gen+1, prevName)
		if len(gs) > 1 {
			word += fmt.Sprintf(" (failed gate %s of %d)", strings.Join(failed, ", "), len(gs))
		}
	}
	v.Line = strings.Join(parts, "; ") + "; " + word
	return v, nil
}

// play runs gate k (of n) of generation gen: its matches, one per width,
// and its result and line.
func (g Gate) play(ctx context.Context, k, n, gen int, prevName string, pe, ne *eval.NNUE) (GateResult, string, error) {
	if len(g.BeamWidths) == 0 {
		return GateResult{}, "", fmt.Errorf("gate %d has no beam width", k+1)
	}
	base := g.Baseline
	if base.Eval == nil {
		base = arena.Arm{Spec: "hand", Eval: eval.NewHand(eval.DefaultWeights())}
	}
	arms := []arena.Arm{{Spec: prevName, Eval: pe}, {Spec: fmt.Sprintf("gen-%02d", gen), Eval: ne}, base}
	if g.Dir != "" {
		if err := os.MkdirAll(g.Dir, 0o755); err != nil {
			return GateResult{}, "", err
		}
	}
	res := GateResult{Suite: g.Suite.Spec, SuiteID: g.Suite.ID(), BeamWidths: slices.Clone(g.BeamWidths)}
	parts := []string{fmt.Sprintf("arena %s (%s)", g.Suite.Spec, res.SuiteID)}
	for i, w := range g.BeamWidths {
		m := &arena.Match{Suite: g.Suite, Arms: arms, BeamWidth: w, Quiescence: g.Quiescence, Parallel: g.Parallel}
		gw := GateWidth{BeamWidth: w}
		if g.Dir != "" {
			gw.File = GateFile(gen, k, i, w)
			m.Out = filepath.Join(g.Dir, gw.File)
		}
		if g.Progress != nil {
			job := fmt.Sprintf("nnue cycle gen %d gate", gen)
			stage := fmt.Sprintf("gate %d of %d: %s at beam width %d", k+1, n, g.Suite.Spec, w)
			total := int64(len(g.Suite.Starts) * len(arms))
			m.OnGame = func(_ arena.Game, s *arena.Standings) {
				info := ""
				if d, n := s.Running(1); n > 0 {
					info = fmt.Sprintf("%s − %s: %+.2f over %d pairs", s.Arms[1], s.Arms[0], d, n)
				}
				g.Progress.Report(progress.Event{Job: job, Stage: stage, Done: int64(s.Played()), Total: total, Unit: "games", Info: info})
			}
		}
		mr, err := m.Run(ctx)
		if err != nil {
			return GateResult{}, "", err
		}
		st := mr.Standings
		gw.VsPrev = st.Comparisons()[0]
		// The new network against the baseline: the same games, compared
		// with another arm.
		gw.VsBaseline = stats.Compare(arms[1].Spec, base.Spec, st.Scores[1], st.Scores[2], 2000, 1, 0.95, nil)
		for _, d := range gw.VsPrev.Diffs {
			if !math.IsNaN(d) { // NaN: a start not played by both
				res.Diff += d
			}
		}
		res.Widths = append(res.Widths, gw)
		parts = append(parts, fmt.Sprintf("beam width %d: %s; %s", w, gw.VsPrev.Verdict(), gw.VsBaseline.Verdict()))
	}
	res.Pass = res.Diff >= 0
	return res, strings.Join(parts, ", "), nil
}

// GateFile is the match file of generation gen's gate k (from 0) at its
// i-th width w: gate-NN.jsonl and gate-NN-wW.jsonl for the first gate
// (the names of a cycle of one gate, as before there were several),
// gate-NN-gK-wW.jsonl for the K-th (K = k+1 from 2). Two gates of one
// generation never share a file.
func GateFile(gen, k, i, w int) string {
	switch {
	case k > 0:
		return fmt.Sprintf("gate-%02d-g%d-w%d.jsonl", gen, k+1, w)
	case i == 0:
		return fmt.Sprintf("gate-%02d.jsonl", gen)
	}
	return fmt.Sprintf("gate-%02d-w%d.jsonl", gen, w)
}
