package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/filelock"
)

func tiny(t *testing.T, log string) Config {
	t.Helper()
	r, err := hatetris.NewRules(6, 12, 4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := arena.ParseSuite("openings:4:4:5", r)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Suite: s, BeamWidth: 12, Quiescence: true, Start: eval.DefaultWeights(),
		Terms: []string{"holes", "erasability"}, Evals: 8, Log: log}
}

// TestTuneResumes: a tuning run is deterministic, and one killed part-way
// (its log cut after its header and three evaluations, the last line
// half-written)
// resumes to the same best weights, replaying the logged evaluations.
func TestTuneResumes(t *testing.T) {
	dir := t.TempDir()
	full, err := Run(context.Background(), tiny(t, filepath.Join(dir, "full.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Evals) < 3 || full.Replayed != 0 {
		t.Fatalf("%d evaluations, %d replayed", len(full.Evals), full.Replayed)
	}
	if full.Best.Objective() < full.Evals[0].Objective() {
		t.Fatal("the best is worse than the start")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "full.jsonl"))
	lines := strings.SplitAfter(string(data), "\n")
	part := filepath.Join(dir, "part.jsonl")
	os.WriteFile(part, []byte(strings.Join(lines[:4], "")+lines[4][:len(lines[4])/2]), 0o644)
	again, err := Run(context.Background(), tiny(t, part))
	if err != nil {
		t.Fatal(err)
	}
	if again.Replayed != 3 || !reflect.DeepEqual(again.Best, full.Best) || len(again.Evals) != len(full.Evals) {
		t.Fatalf("resumed: %d replayed, best %+v; uninterrupted best %+v", again.Replayed, again.Best, full.Best)
	}
	if after, _ := os.ReadFile(part); string(after) != string(data) {
		t.Fatal("the resumed log differs from the uninterrupted one")
	}
}

// TestLogRefusals: a log is resumed only by the settings it was written
// under and only as written: another suite, beam width, quiescence, start,
// terms or step, an edited score or weight, a line of another log, a file
// that is not a log, and a second writer are each refused in one line,
// with the file left byte for byte as it was (its cut last line too).
func TestLogRefusals(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.jsonl")
	c := tiny(t, log)
	c.Evals = 3
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(log)
	lines := strings.SplitAfter(string(good), "\n")
	other := tiny(t, filepath.Join(dir, "other.jsonl"))
	other.Evals, other.BeamWidth = 3, 13
	if _, err := Run(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	otherData, _ := os.ReadFile(other.Log)
	otherLines := strings.SplitAfter(string(otherData), "\n")
	suite := func(c *Config) {
		s, err := arena.ParseSuite("openings:4:4:6", c.Suite.Rules)
		if err != nil {
			t.Fatal(err)
		}
		c.Suite = s
	}
	cut := strings.Join(lines[:3], "") + lines[3][:5] // a kill's cut line
	for _, tc := range []struct {
		name string
		file string
		edit func(*Config)
		want string
	}{
		{"suite", cut, suite, "other settings (suite openings:4:4:5"},
		{"beam width", cut, func(c *Config) { c.BeamWidth = 11 }, "beam width 12, not 11"},
		{"quiescence", cut, func(c *Config) { c.Quiescence = false }, "quiescence true, not false"},
		{"start", cut, func(c *Config) { c.Start.Holes *= 2 }, "starting weights"},
		{"terms", cut, func(c *Config) { c.Terms = []string{"holes"} }, "terms holes,erasability, not holes"},
		{"step", cut, func(c *Config) { c.Step = 0.25 }, "step 0.5, not 0.25"},
		{"edited score", lines[0] + strings.Replace(lines[1], `"mean_pieces":`, `"mean_pieces":1`, 1), nil, "line 2 does not match its checksum"},
		{"edited weight", lines[0] + lines[1] + strings.Replace(lines[2], `"holes":`, `"holes":1`, 1), nil, "line 3 does not match its checksum"},
		{"another log's line", lines[0] + otherLines[1], nil, "line 2 does not match its checksum"},
		{"no header", strings.Join(lines[1:], ""), nil, "not an evaluations log of this version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			os.WriteFile(path, []byte(tc.file), 0o644)
			c := tiny(t, path)
			c.Evals = 3
			if tc.edit != nil {
				tc.edit(&c)
			}
			_, err := Run(context.Background(), c)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Run = %v, want an InputError with %q", err, tc.want)
			}
			if after, _ := os.ReadFile(path); string(after) != tc.file {
				t.Fatalf("the refused log changed:\n%q\nwas\n%q", after, tc.file)
			}
		})
	}
	// A second writer on the log while the first holds it.
	f, err := os.OpenFile(log, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := filelock.TryLock(f); err != nil {
		t.Fatal(err)
	}
	c = tiny(t, log)
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("a second writer: %v", err)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"zero term", func(c *Config) { c.Terms = []string{"stack_height"} }, "is 0"},
		{"unknown term", func(c *Config) { c.Terms = []string{"legs"} }, "unknown term"},
		{"evals", func(c *Config) { c.Evals = 0 }, "evaluations"},
		{"width", func(c *Config) { c.BeamWidth = 0 }, "beam width"},
		{"term twice", func(c *Config) { c.Terms = []string{"holes", "holes"} }, "listed twice"},
		{"term twice, other spelling", func(c *Config) { c.Terms = []string{"enclosed-holes", "enclosed_holes"} }, "listed twice"},
		{"tiny step", func(c *Config) { c.Step = 1e-300 }, "step 1e-300"},
		{"step that moves no weight", func(c *Config) { c.Start.Holes = 0.01; c.Step = 0.002 }, "moves holes"},
		{"negative parallel", func(c *Config) { c.Parallel = -1 }, "games at once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tiny(t, "")
			tc.edit(&c)
			if err := c.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check = %v, want %q", err, tc.want)
			}
		})
	}
	c := tiny(t, "")
	c.Terms = nil
	terms, err := c.terms()
	if err != nil || len(terms) != 6 {
		t.Fatalf("default terms: %d, %v", len(terms), err)
	}
}
