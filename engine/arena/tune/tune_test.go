package tune

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
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
// (its log cut after three evaluations, the last line half-written)
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
	os.WriteFile(part, []byte(strings.Join(lines[:3], "")+lines[3][:len(lines[3])/2]), 0o644)
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
