package experiment

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/stats"
)

// tinyExperiment is a configuration small enough for a test (a second).
func tinyExperiment() Config {
	return Config{BeamWidths: []int{4, 8}, Starts: 3, TuneStarts: 2, Opening: 8, Seed: 1,
		TuneBeamWidth: 4, Grid: []float64{1, 100}, PlaceboSeed: 1, Matched: true}
}

// TestExperiment: a tiny experiment plays every run once (tuning, five arms
// on every test start and width, matched time), tunes each weight to the
// grid's best mean, and a resumed run, killed half-way, gives the same
// scores (the matched-time widths aside: they come from CPU times).
func TestExperiment(t *testing.T) {
	tab := recordTable(t)
	setup := Setup{Hand: eval.DefaultWeights(), Main: tab, Other: tab.Placebo(7)}
	c := tinyExperiment()
	e := New(c, "test")
	saves := 0
	setup.Save = func(*Results) error { saves++; return nil }
	if err := Run(context.Background(), e, setup); err != nil {
		t.Fatal(err)
	}
	nTune := 2 * len(c.Grid) * c.TuneStarts
	nTest := len(c.BeamWidths) * c.Starts * len(Arms)
	nMatched := len(c.BeamWidths) * c.Starts
	if len(e.Runs) != nTune+nTest+nMatched || saves != len(e.Runs)+2 {
		t.Fatalf("%d runs (want %d), %d saves", len(e.Runs), nTune+nTest+nMatched, saves)
	}
	for _, arm := range []string{ArmHandG, ArmGScore} {
		best, bestMean := 0.0, math.Inf(-1)
		for _, g := range c.Grid {
			sum := 0
			for _, r := range e.Runs {
				if r.Phase == PhaseTune && r.Arm == arm && r.Weight == g {
					sum += r.Score
				}
			}
			if m := float64(sum) / float64(c.TuneStarts); m > bestMean {
				best, bestMean = g, m
			}
		}
		if e.Tuned[arm] != best {
			t.Errorf("%s tuned to %g, the grid's best is %g", arm, e.Tuned[arm], best)
		}
	}
	for _, r := range e.Runs {
		if r.Phase == PhaseTest && (r.Arm == ArmPlacebo || r.Arm == ArmOther) && r.Weight != e.Tuned[ArmHandG] {
			t.Errorf("%s plays weight %g, not A1's %g", r.Arm, r.Weight, e.Tuned[ArmHandG])
		}
		if r.Phase == PhaseTune && r.Start < c.Starts {
			t.Errorf("tuning on test start %d", r.Start)
		}
		if r.Phase == PhaseMatched && r.BeamWidth < r.MatchedTo {
			t.Errorf("matched run at beam width %d below %d", r.BeamWidth, r.MatchedTo)
		}
	}
	paired := e.Paired(200, 1, 0.9)
	if len(paired) != len(c.BeamWidths)*(len(Arms)-1+1) {
		t.Fatalf("%d paired differences", len(paired))
	}
	for _, d := range paired {
		if d.N != c.Starts || d.Wins+d.Losses+d.Ties != d.N || !(d.Diff.Lo <= d.Diff.Estimate && d.Diff.Estimate <= d.Diff.Hi) ||
			math.Abs(d.Diff.Estimate-(d.MeanArm-d.MeanBase)) > 1e-9 {
			t.Errorf("paired %+v", d)
		}
	}
	// Resume: keep half the runs (as a kill would), run again.
	data, _ := json.Marshal(e)
	var half Results
	if err := json.Unmarshal(data, &half); err != nil {
		t.Fatal(err)
	}
	half.Runs = half.Runs[:nTune+nTest/2]
	delete(half.Tuned, ArmGScore)
	if err := half.Resume(c); err != nil {
		t.Fatal(err)
	}
	setup.Save, setup.CheckpointDir = nil, t.TempDir()
	if err := Run(context.Background(), &half, setup); err != nil {
		t.Fatal(err)
	}
	if len(half.Runs) != len(e.Runs) || half.Tuned[ArmGScore] != e.Tuned[ArmGScore] {
		t.Fatalf("resumed: %d runs, want %d", len(half.Runs), len(e.Runs))
	}
	for _, r := range e.Runs {
		if r.Phase == PhaseMatched {
			// Its beam width comes from CPU times measured again.
			if half.Search(PhaseMatched, ArmHand, r.MatchedTo, r.Start) == nil {
				t.Fatalf("resumed: no matched run for %s", r.key())
			}
			continue
		}
		h := half.byKey(r.key())
		if h == nil || h.Score != r.Score || h.Pieces != r.Pieces || h.Children != r.Children {
			t.Fatalf("resumed run %s differs: %+v vs %+v", r.key(), h, r)
		}
	}
	other := c
	other.Seed = 2
	if err := half.Resume(other); err == nil {
		t.Fatal("resumed with another seed")
	}
	other = c
	other.BeamWidths = []int{4, 8, 16}
	if err := half.Resume(other); err != nil {
		t.Fatalf("more beam widths: %v", err)
	}
}

// TestConfig: bad configurations are refused.
func TestConfig(t *testing.T) {
	for _, mod := range []func(*Config){
		func(c *Config) { c.BeamWidths = nil },
		func(c *Config) { c.BeamWidths = []int{0} },
		func(c *Config) { c.Starts = 0 },
		func(c *Config) { c.TuneStarts = 0 },
		func(c *Config) { c.Grid = nil },
		func(c *Config) { c.Grid = []float64{math.NaN()} },
		func(c *Config) { c.TuneBeamWidth = 0 },
		func(c *Config) { c.Opening = -1 },
	} {
		c := tinyExperiment()
		mod(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}

// TestOpeningsAgree: flats' openings (with their moves) are the arena's
// (with their memory), well for well, and reproducible.
func TestOpeningsAgree(t *testing.T) {
	r := hatetris.Standard()
	a, err := flats.Openings(r, 12, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := arena.Openings(r, 12, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].Well != b[i].Well || a[i].Score != b[i].Score || len(a[i].Moves) != 8 || len(b[i].History) != 8 {
			t.Fatalf("opening %d: flats and arena disagree", i)
		}
		if a[i].Moves[7].After(r) != a[i].Well {
			t.Fatalf("opening %d: moves do not end at its well", i)
		}
	}
}

// TestLogGrid: the bootstrap interval of a constant is the constant, a
// spread sample's interval holds its mean, and the grid is log-spaced.
func TestLogGrid(t *testing.T) {
	iv := stats.MeanInterval([]float64{2, 2, 2}, 100, 1, 0.95)
	if iv.Estimate != 2 || iv.Lo != 2 || iv.Hi != 2 {
		t.Fatalf("%+v", iv)
	}
	iv = stats.MeanInterval([]float64{-3, 0, 1, 2, 5, 7}, 2000, 1, 0.95)
	if !(iv.Lo < iv.Estimate && iv.Estimate < iv.Hi) || iv.Estimate != 2 {
		t.Fatalf("%+v", iv)
	}
	if g := LogGrid(1, 10000, 9); len(g) != 9 || g[0] != 1 || g[8] != 10000 || g[4] != 100 {
		t.Fatalf("grid %v", g)
	}
}

func recordTable(t testing.TB) *flats.Table {
	games, err := flats.RecordGames()
	if err != nil {
		t.Fatal(err)
	}
	c, err := flats.CountGames(games)
	if err != nil {
		t.Fatal(err)
	}
	return flats.BuildTable(c, "records", "", "test: the 20 world-record replays", 0)
}

// TestConfigOldKey: a configuration of an older version (the tuning beam
// width under "tune_width") reads as the same one; unknown keys and the
// two names disagreeing are refused.
func TestConfigOldKey(t *testing.T) {
	for _, tc := range []struct {
		json    string
		want    int
		wantErr string
	}{
		{`{"beam_widths":[300],"tune_width":1000,"grid":[1]}`, 1000, ""},
		{`{"beam_widths":[300],"tune_beam_width":300,"grid":[1]}`, 300, ""},
		{`{"beam_widths":[300],"tune_beam_width":300,"tune_width":300}`, 300, ""},
		{`{"beam_widths":[300],"tune_beam_width":300,"tune_width":1000}`, 0, "differ"},
		{`{"beam_widths":[300],"tune_widths":1000}`, 0, `unknown field "tune_widths"`},
	} {
		var c Config
		err := json.Unmarshal([]byte(tc.json), &c)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.json, err, tc.wantErr)
			}
			continue
		}
		if err != nil || c.TuneBeamWidth != tc.want || len(c.BeamWidths) != 1 {
			t.Errorf("%s: %+v, %v", tc.json, c, err)
		}
	}
}
