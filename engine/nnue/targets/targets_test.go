package targets

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// sampleWells follows a game that always takes the AI piece's tallest
// live outcome, keeping every other well: early wells survive a target
// beam, the last ones die in it.
func sampleWells(t testing.TB) []hatetris.Well {
	r := hatetris.Standard()
	g, err := hatetris.Play(r, hatetris.HATETRIS, "")
	if err != nil {
		t.Fatal(err)
	}
	gen := hatetris.NewGenerator(r)
	var out []hatetris.Well
	w := g.Well
	var buf []hatetris.Outcome
	for i := 0; i < 200; i++ {
		if i%2 == 0 {
			out = append(out, w)
		}
		_, buf = gen.Move(&w, hatetris.Mild, nil, buf[:0])
		// the tallest live outcome: wells that die soon
		best := -1
		for k := range buf {
			if !buf[k].GameOver && (best < 0 || r.Peak(&buf[k].Well) < r.Peak(&buf[best].Well)) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		w = buf[best].Well
	}
	// A well filled to one row under the bar with no line to clear: every
	// piece ends the game.
	var full hatetris.Well
	for y := 5; y < r.Depth; y++ {
		full[y] = 0b0101010101 << (y % 2)
	}
	return append(out, full)
}

// TestCompute: targets are in [-1, 1], -1 for wells whose beam dies, not
// all -1 (the peer's bug), and the same on 1 and 2 workers.
func TestCompute(t *testing.T) {
	ev, err := eval.LoadNNUE("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	wells := sampleWells(t)
	var res [2][]float32
	for i, workers := range []int{1, 2} {
		res[i], err = Compute(context.Background(), Config{Eval: ev, BeamWidth: 32, Pieces: 6, Workers: workers}, wells)
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(res[0], res[1]) {
		t.Fatalf("workers change the targets: %v vs %v", res[0], res[1])
	}
	dead, live := 0, 0
	for _, v := range res[0] {
		if v < -1 || v > 1 {
			t.Fatalf("target %v", v)
		}
		if v == -1 {
			dead++
		} else {
			live++
		}
	}
	t.Logf("targets %v", res[0])
	if dead == 0 || live == 0 {
		t.Fatalf("%d dead, %d live targets: want both", dead, live)
	}
}

// TestRuleTarget: the two rules on outcomes with known values (identity
// squash): dead by piece P gives -1, alive at 2P the value, in between
// D&F's blend.
func TestRuleTarget(t *testing.T) {
	id := func(v float64) float64 { return v }
	for _, tc := range []struct {
		rule     Rule
		survived int
		value    float64
		want     float32
	}{
		{Best, 3, 0.5, -1}, {Best, 10, 0.5, 0.5}, {Best, 20, 7, 1}, {Best, 10, -3, -1},
		{DNF, 9, 0.5, -1}, {DNF, 10, 0.5, -1}, {DNF, 15, 0.5, -0.25}, {DNF, 18, 0, -0.2}, {DNF, 20, 0.5, 0.5}, {DNF, 20, 2, 1},
		{Lines, 9, 0.5, -1}, {Lines, 10, 0.5, 0.5}, {Lines, 10, 3, 1},
	} {
		if got := tc.rule.Target(Outcome{Value: tc.value, Survived: tc.survived}, 10, id); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("%v survived %d value %v: %v, want %v", tc.rule, tc.survived, tc.value, got, tc.want)
		}
	}
	for _, s := range []string{"best", "dnf", "lines", "residual"} {
		if r, err := ParseRule(s); err != nil || r.String() != s {
			t.Errorf("%s: %v %v", s, r, err)
		}
	}
	if _, err := ParseRule("worst"); err == nil {
		t.Error("unknown rule accepted")
	}
}

// TestFittedSquash: the median maps to 0, the 10th and 90th percentiles
// to -0.8 and 0.8; dead outcomes are left out of the fit.
func TestFittedSquash(t *testing.T) {
	var outs []Outcome
	for i := 0; i <= 100; i++ {
		outs = append(outs, Outcome{Value: 5 + 0.1*float64(i), Survived: 10})
	}
	outs = append(outs, Outcome{Value: 1e9, Survived: 3})
	sq, c, s := FittedSquash(outs, 10)
	if math.Abs(c-10) > 1e-9 || math.Abs(sq(10)) > 1e-9 || math.Abs(sq(6)+0.8) > 1e-9 || math.Abs(sq(14)-0.8) > 1e-9 || s <= 0 {
		t.Fatalf("center %v scale %v: %v %v %v", c, s, sq(6), sq(10), sq(14))
	}
	if _, _, s := FittedSquash([]Outcome{{Value: 2, Survived: 10}}, 10); s != 1 {
		t.Fatalf("one value: scale %v, want 1", s)
	}
}

// TestOutcomesOnTinyBeams: on tiny beams with known outcomes (a well that
// every piece ends survives 0 pieces), Compute agrees with the rules
// applied to Outcomes, and D&F's rule equals the best rule for the wells
// that survive twice the pieces.
func TestOutcomesOnTinyBeams(t *testing.T) {
	ev, err := eval.LoadNNUE("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	wells := sampleWells(t)
	ctx := context.Background()
	cfg := Config{Eval: ev, BeamWidth: 8, Pieces: 3, Workers: 2}
	best, err := Compute(ctx, cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rule = DNF
	outs, err := Outcomes(ctx, cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	dnf, err := Compute(ctx, cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	if last := outs[len(outs)-1]; last.Survived != 0 || dnf[len(dnf)-1] != -1 || best[len(best)-1] != -1 {
		t.Fatalf("the full well: %+v, targets %v %v", last, dnf[len(dnf)-1], best[len(best)-1])
	}
	blended := 0
	for i, o := range outs {
		if o.Survived > 6 {
			t.Fatalf("well %d survived %d pieces, past the horizon 6", i, o.Survived)
		}
		if dnf[i] != DNF.Target(o, 3, math.Tanh) {
			t.Fatalf("well %d: Compute %v, rule %v", i, dnf[i], DNF.Target(o, 3, math.Tanh))
		}
		switch {
		case o.Survived == 6 && dnf[i] != best[i], o.Survived < 3 && (dnf[i] != -1 || best[i] != -1):
			t.Fatalf("well %d (%+v): dnf %v best %v", i, o, dnf[i], best[i])
		case o.Survived > 3 && o.Survived < 6:
			blended++
			if dnf[i] > best[i] || dnf[i] < -1 {
				t.Fatalf("well %d (%+v): blend %v outside [-1, %v]", i, o, dnf[i], best[i])
			}
		}
	}
	t.Logf("%d wells, %d blended", len(outs), blended)
}

// TestLinesRule: under Rule Lines a surviving beam's value is the most
// lines among the wells it kept at its last piece (the same beam as
// Best's, so the same survival), a whole number, and some wells of a real
// game's path do clear lines within the horizon.
func TestLinesRule(t *testing.T) {
	ev, err := eval.LoadNNUE("../../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	// The empty well and the first wells of a tall game: most survive.
	wells := append([]hatetris.Well{{}}, sampleWells(t)[:6]...)
	ctx := context.Background()
	cfg := Config{Eval: ev, BeamWidth: 64, Pieces: 24, Workers: 2}
	best, err := Outcomes(ctx, cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rule = Lines
	lines, err := Outcomes(ctx, cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	scored := 0
	for i, o := range lines {
		if o.Survived != best[i].Survived {
			t.Fatalf("well %d: survived %d under lines, %d under best", i, o.Survived, best[i].Survived)
		}
		if o.Survived < cfg.Pieces {
			continue
		}
		if o.Value < 0 || o.Value != math.Trunc(o.Value) || o.Value > float64(cfg.Pieces*4/10+1) {
			t.Fatalf("well %d: %v lines in %d pieces", i, o.Value, cfg.Pieces)
		}
		if o.Value > 0 {
			scored++
		}
	}
	// One well against its beam run directly.
	i := 0
	start := wells[i]
	res, err := beam.Run(ctx, beam.Config{BeamWidth: 64, MaxPieces: 24, Eval: ev, Workers: 1, Start: &start})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Levels[23]; l.Level != 24 {
		t.Fatalf("Levels[23] is level %d, want 24 (the 24th piece)", l.Level)
	}
	if want := float64(res.Levels[23].MaxScore); lines[i].Value != want {
		t.Fatalf("the empty well: %v lines, its beam's level 24 has at most %v", lines[i].Value, want)
	}
	if scored == 0 {
		t.Fatal("no target beam cleared a line: the rule cannot be told from all-zero")
	}
	t.Logf("%d wells, %d cleared lines in %d pieces", len(lines), scored, cfg.Pieces)
}

// TestResidualRule: under Rule Residual a surviving beam's value is the
// same beam's best value (Rule Best's outcome) minus the evaluation's own
// value of the start well at score 0, for the hand-made evaluation a
// teacher would be; the survival is Best's, and a dead beam's target is
// -1 as under every rule.
func TestResidualRule(t *testing.T) {
	ev, wells, cfg, best, res := tunedOutcomes(t, Residual)
	ctx := context.Background()
	wk := ev.NewWorker(hatetris.Standard())
	alive, dead := 0, 0
	for i, o := range res {
		if o.Survived != best[i].Survived {
			t.Fatalf("well %d: survived %d under residual, %d under best", i, o.Survived, best[i].Survived)
		}
		if o.Survived < cfg.Pieces {
			dead++
			if got := cfg.Rule.Target(o, cfg.Pieces, math.Tanh); got != -1 {
				t.Fatalf("well %d died after %d pieces: target %v, want -1", i, o.Survived, got)
			}
			continue
		}
		alive++
		if want := best[i].Value - wk.Evaluate(&wells[i], 0, 0); o.Value != want {
			t.Fatalf("well %d: residual %v, want best %v minus static %v = %v", i, o.Value, best[i].Value, wk.Evaluate(&wells[i], 0, 0), want)
		}
	}
	if alive == 0 || dead == 0 {
		t.Fatalf("%d surviving and %d dying beams: the test needs both", alive, dead)
	}
	// One residual directly, squashed with the fitted scale (tanh alone
	// would saturate tuned's hundreds): the target of the empty well.
	squash, _, spread := FittedSquash(res, cfg.Pieces)
	cfg.Squash = squash
	one, err := One(ctx, cfg, &wells[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := cfg.Rule.Target(res[0], cfg.Pieces, squash); one != want || one <= -1 || one >= 1 || spread == 1 {
		t.Fatalf("One: %v, Outcomes: %v (spread %v): want equal, inside (-1, 1)", one, want, spread)
	}
}

// TestStaticRule: under Static a well's outcome is the evaluation's own
// value of it at score 0, every well lives (no beam runs, so even one from
// which every beam dies gets its value), and the rule reads back by name.
func TestStaticRule(t *testing.T) {
	ev, wells, cfg, best, res := tunedOutcomes(t, Static)
	wk := ev.NewWorker(hatetris.Standard())
	squash, _, _ := FittedSquash(res, cfg.Pieces) // tanh alone saturates tuned's hundreds
	dead := 0
	for i, o := range res {
		if want := wk.Evaluate(&wells[i], 0, 0); o.Value != want || o.Survived != cfg.Pieces {
			t.Fatalf("well %d: %+v, want its static value %v and %d pieces", i, o, want, cfg.Pieces)
		}
		if best[i].Survived < cfg.Pieces {
			dead++
			if got := cfg.Rule.Target(o, cfg.Pieces, squash); got <= -1 {
				t.Fatalf("well %d: target -1 under static", i)
			}
		}
	}
	if dead == 0 {
		t.Fatal("the test needs a well whose target beam dies")
	}
	if r, err := ParseRule("static"); err != nil || r != Static || r.String() != "static" {
		t.Fatalf("ParseRule(static) = %v, %v", r, err)
	}
}

// tunedOutcomes runs tuned's tiny target beams (width 16, 6 pieces) on the
// empty well and the sample wells under Best and under rule r.
func tunedOutcomes(t *testing.T, r Rule) (ev eval.Evaluator, wells []hatetris.Well, cfg Config, best, res []Outcome) {
	t.Helper()
	ev = eval.NewHand(eval.TunedWeights())
	wells = append([]hatetris.Well{{}}, sampleWells(t)...)
	cfg = Config{Eval: ev, BeamWidth: 16, Pieces: 6, Workers: 2}
	var err error
	if best, err = Outcomes(context.Background(), cfg, wells); err != nil {
		t.Fatal(err)
	}
	cfg.Rule = r
	if res, err = Outcomes(context.Background(), cfg, wells); err != nil {
		t.Fatal(err)
	}
	return ev, wells, cfg, best, res
}

// TestResidualBase: with Config.Base a residual subtracts the base's value
// of the start well, not the guide's: here the guide is 1.5 times tuned
// (the same beam), the base tuned, so every surviving residual is 1.5
// times Rule Best's value minus tuned's static value.
func TestResidualBase(t *testing.T) {
	ev, wells, cfg, best, _ := tunedOutcomes(t, Best)
	guide := eval.Sum{Base: ev, Terms: []eval.Evaluator{eval.Scaled{E: ev, W: 0.5}}}
	cfg.Eval, cfg.Base, cfg.Rule = guide, ev, Residual
	res, err := Outcomes(context.Background(), cfg, wells)
	if err != nil {
		t.Fatal(err)
	}
	wk := ev.NewWorker(hatetris.Standard())
	alive := 0
	for i, o := range res {
		if o.Survived != best[i].Survived {
			t.Fatalf("well %d: survived %d, tuned's beam %d (a scaled guide keeps the beam)", i, o.Survived, best[i].Survived)
		}
		if o.Survived < cfg.Pieces {
			continue
		}
		alive++
		// The guide is 1.5 times tuned: its best is 1.5 times tuned's best.
		if want := 1.5*best[i].Value - wk.Evaluate(&wells[i], 0, 0); math.Abs(o.Value-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("well %d: residual %v, want 1.5 x best %v minus the base's static %v = %v", i, o.Value, best[i].Value, wk.Evaluate(&wells[i], 0, 0), want)
		}
	}
	if alive == 0 {
		t.Fatal("no beam survived: nothing checked")
	}
}
