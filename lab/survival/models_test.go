package survival

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	classicdata "github.com/hatelab/hatelab/datasets/classic"
	"github.com/hatelab/hatelab/engine/classic"
)

// TestModelChecks: both models fitted on heights 5..12 and checked where
// a measurement exists (tetr-ai at 20, Dellacherie at 14): the figures
// notebook 05 quotes.
func TestModelChecks(t *testing.T) {
	ta, err := classicdata.TetrAI()
	if err != nil {
		t.Fatal(err)
	}
	ag, err := classicdata.Agents()
	if err != nil {
		t.Fatal(err)
	}
	d14, err := classicdata.Dellacherie14()
	if err != nil {
		t.Fatal(err)
	}
	tm, err := FitModels(classic.Summarize(ta), "tetr-ai", 5, 12)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := FitModels(classic.Summarize(ag), "dellacherie", 5, 12)
	if err != nil {
		t.Fatal(err)
	}
	rows := append(CheckModels(tm, Height20()), CheckModels(dm, classic.Summarize(d14)[0])...)
	want := []struct{ model, loo, pred, inside string }{
		{"log-linear", "0.0638", "507.8M [390.3M, 660.9M]", "no"},
		{"log-quadratic", "0.0643", "209.1M [74.4M, 587.6M]", "yes"},
		{"log-linear", "0.126", "63.9k [45.7k, 89.3k]", "no"},
		{"log-quadratic", "0.0896", "42.0k [30.6k, 57.5k]", "yes"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, w := range want {
		r := rows[i]
		if r.Model != w.model || r.LOO != w.loo || r.Predicted != w.pred || r.Inside != w.inside {
			t.Errorf("row %d: %+v, want %+v", i, r, w)
		}
	}
	if _, err := FitModels(classic.Summarize(ag), "nobody", 5, 12); err == nil {
		t.Error("an agent with no heights: no error")
	}
}

// TestKSCalibrate: the simulated critical value is close to Lilliefors'
// 1.06/√n, the table is reproducible from its seed, a geometric sample
// passes and a sample of one repeated value is rejected.
func TestKSCalibrate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var recs []classic.Result
	q := 200.0 / 201
	for i := range 300 {
		recs = append(recs, classic.Result{Agent: "geo", Rows: 9, Cols: 10, Seed: int64(i),
			Lines: int64(math.Floor(math.Log(1-rng.Float64()) / math.Log(q)))})
		recs = append(recs, classic.Result{Agent: "flat", Rows: 9, Cols: 10, Seed: int64(i), Lines: 200 + int64(i%3)})
	}
	a, err := KSCalibrate(recs, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := KSCalibrate(recs, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		agent    string
		rejected bool
	}{{"flat", true}, {"geo", false}}
	for i, c := range cases {
		r := a[i]
		if r.Agent != c.agent || r.N != 300 || r.Rejected != c.rejected || r != b[i] {
			t.Errorf("%s: %+v (again: %+v)", c.agent, r, b[i])
		}
		if math.Abs(r.Crit-r.Lillie) > 0.2*r.Lillie {
			t.Errorf("%s: simulated critical value %.4f, Lilliefors %.4f", c.agent, r.Crit, r.Lillie)
		}
	}
	if a[0].P != 0 || a[1].P < 0.05 {
		t.Errorf("p: flat %v, geometric %v", a[0].P, a[1].P)
	}
	tab, err := KSTable(recs, 300, 1)
	if err != nil || !strings.Contains(tab.Text(), "< 0.00333") {
		t.Errorf("table: %v\n%s", err, tab.Text())
	}
	if _, err := KSCalibrate(recs, 5, 1); err == nil {
		t.Error("5 simulations: no error")
	}
}
