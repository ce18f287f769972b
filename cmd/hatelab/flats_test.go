package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
)

// TestFlatsCountShow counts small sources into tables, reads them back
// and shows them as text and JSON.
func TestFlatsCountShow(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
	}{
		{"records", []string{"--source", "records"}},
		{"bfs", []string{"--source", "bfs", "--well-width", "6", "--height", "5", "--weighting", "optimal"}},
		{"random", []string{"--source", "random", "--games", "20", "--seed", "3", "--well-width", "6", "--height", "8"}},
		{"beam", []string{"--source", "beam", "--beam-widths", "2,3", "--starts", "1", "--opening", "2", "--well-width", "6", "--height", "8", "--quiescence=false"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".json")
			out, err := run(t, newFlatsCmd(), append([]string{"count", "--out", path}, tc.args...)...)
			if err != nil {
				t.Fatal(err, out)
			}
			if !strings.Contains(out, "flats: ") || !strings.Contains(out, "-> "+path) {
				t.Fatalf("no progress or summary line: %q", out)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tab, err := flats.ReadTable(f)
			if err != nil {
				t.Fatal(err)
			}
			if tab.Source != tc.name || !strings.HasPrefix(tab.Provenance, "hatelab flats count --") || len(tab.Shapes) == 0 {
				t.Fatalf("table %s, provenance %q, %d shapes", tab.Source, tab.Provenance, len(tab.Shapes))
			}
			text, err := run(t, newFlatsCmd(), "show", "--top", "3", path)
			if err != nil || !strings.Contains(text, "never cleared (") || strings.Count(text, "\n") != 7 {
				t.Fatalf("show: %v\n%s", err, text)
			}
			js, err := run(t, newFlatsCmd(), "show", "--json", "--top", "2", path)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(js), &m); err != nil {
				t.Fatal(err, js)
			}
			for _, k := range []string{"width", "height", "source", "provenance", "games", "moves", "top", "never"} {
				if _, ok := m[k]; !ok {
					t.Fatalf("missing %q in %s", k, js)
				}
			}
		})
	}
}

// TestFlatsCountStdout: --out - writes the table alone on standard
// output.
func TestFlatsCountStdout(t *testing.T) {
	cmd := newFlatsCmd()
	var out, errb strings.Builder
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs([]string{"count", "--source", "bfs", "--well-width", "5", "--height", "4", "--out", "-"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	tab, err := flats.ParseTable([]byte(out.String()))
	if err != nil || tab.Width != 5 || !strings.Contains(errb.String(), "-> -") {
		t.Fatalf("%v; stderr %q", err, errb.String())
	}
}

// TestFlatsFloor: the exact lone-floor-row answer at 10x5.
func TestFlatsFloor(t *testing.T) {
	out, err := run(t, newFlatsCmd(), "floor", "--well-width", "10", "--row", "1111111110", "--min-height", "4", "--max-height", "5", "--json")
	if err != nil {
		t.Fatal(err, out)
	}
	var res struct {
		Clearable bool
		Height    int
		Pieces    int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.Clearable || res.Height != 5 || res.Pieces < 1 {
		t.Fatalf("%v %+v from %s", err, res, out)
	}
	out, err = run(t, newFlatsCmd(), "floor", "--well-width", "10", "--row", "0111111110", "--min-height", "4", "--max-height", "5")
	if err != nil || !strings.Contains(out, "never cleared") {
		t.Fatal(err, out)
	}
}

// TestFlatsErrors: bad input is a one-line error.
func TestFlatsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"hatelab-flats/1","width":99}`), 0o644)
	for _, args := range [][]string{
		{"count", "--source", "nope", "--out", filepath.Join(dir, "x.json")},
		{"count", "--source", "records"},
		{"count", "--source", "bfs", "--well-width", "3", "--out", filepath.Join(dir, "x.json")},
		{"count", "--source", "bfs", "--weighting", "most", "--out", filepath.Join(dir, "x.json")},
		{"count", "--source", "random", "--games", "0", "--out", filepath.Join(dir, "x.json")},
		{"count", "--source", "beam", "--beam-widths", "0", "--out", filepath.Join(dir, "x.json")},
		{"show", filepath.Join(dir, "missing.json")},
		{"show", bad},
		{"show", "--top", "-1", bad},
		{"floor", "--row", "01"},
		{"floor", "--row", "1111111111"},
		{"floor", "--row", "0111111110", "--min-height", "3", "--max-height", "2"},
		{"experiment", "--beam-widths", "10"},
		{"experiment", "--beam-widths", "0", "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--tune-beam-width", "010", "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--starts", "0", "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--grid", "", "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--main", filepath.Join(dir, "missing.json"), "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--other", bad, "--out", filepath.Join(dir, "e.json")},
		{"experiment", "--out", bad},
	} {
		out, err := run(t, newFlatsCmd(), args...)
		if err == nil {
			t.Fatalf("%v: no error (%s)", args, out)
		}
		if _, rt := err.(runtimeError); rt || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%v: %v is not a one-line input error", args, err)
		}
	}
}

// TestFlatsExperiment runs a tiny experiment, reruns it (every run
// skipped, the same table) and refuses to resume another configuration.
func TestFlatsExperiment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	args := []string{"experiment", "--beam-widths", "4,6", "--starts", "2", "--tune-starts", "1", "--tune-beam-width", "4", "--grid", "1,100", "--resamples", "100", "--out", path}
	out, err := run(t, newFlatsCmd(), args...)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "tuned weights: A1 ") || strings.Count(out, "\nA1~ ") != 2 || !strings.Contains(out, "flats: test A4 beam width 6 start 1") {
		t.Fatalf("output:\n%s", out)
	}
	var e experiment.Results
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if want := 2*2*1 + 2*2*5 + 2*2; len(e.Runs) != want || e.Provenance != "hatelab flats experiment --beam-widths=4,6 --grid=1,100 --starts=2 --tune-beam-width=4 --tune-starts=1" {
		t.Fatalf("%d runs (want %d), provenance %q", len(e.Runs), want, e.Provenance)
	}
	again, err := run(t, newFlatsCmd(), append(args, "--quiet")...)
	if err != nil || strings.Contains(again, "flats: ") {
		t.Fatalf("rerun played again or failed: %v\n%s", err, again)
	}
	i := strings.Index(out, "tuned weights")
	if again != out[i:] {
		t.Fatalf("rerun table differs:\n%s\nvs\n%s", again, out[i:])
	}
	// A results file of an older version ("tune_width") resumed with the
	// old flag names (deprecated aliases): nothing played again, the same
	// table, the provenance under the new names.
	if !strings.Contains(string(data), `"tune_beam_width": 4`) {
		t.Fatalf("results without tune_beam_width:\n%s", data)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"tune_beam_width"`, `"tune_width"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	old := []string{"experiment", "--quiet", "--widths", "4,6", "--starts", "2", "--tune-starts", "1", "--tune-width", "4", "--grid", "1,100", "--resamples", "100", "--out", path}
	again, err = run(t, newFlatsCmd(), old...)
	if err != nil || !strings.Contains(again, "Flag --widths has been deprecated, use --beam-widths") || !strings.HasSuffix(again, out[i:]) {
		t.Fatalf("old file, old flags: %v\n%s", err, again)
	}
	data, _ = os.ReadFile(path)
	if err := json.Unmarshal(data, &e); err != nil || e.Config.TuneBeamWidth != 4 || !strings.Contains(e.Provenance, "--tune-beam-width=4") {
		t.Fatalf("after the old-flags rerun: %v, %+v", err, e.Config)
	}
	_, err = run(t, newFlatsCmd(), "experiment", "--beam-widths", "4", "--starts", "3", "--tune-starts", "1", "--tune-beam-width", "4", "--grid", "1,100", "--out", path)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("resumed another configuration: %v", err)
	}
	if _, rt := err.(runtimeError); rt {
		t.Fatalf("%v is not an input error", err)
	}
}
