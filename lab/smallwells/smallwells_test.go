package smallwells

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/lab/fits"
)

func TestBFSDisplay(t *testing.T) {
	g, res, err := Game(5, 6, bfs.RuleQntm, bfs.Longest)
	if err != nil {
		t.Fatal(err)
	}
	if res.PeakStates != 543 || g.Length != 10 {
		t.Fatalf("5x6: width %d, game length %d", res.PeakStates, g.Length)
	}
	svg, err := Filmstrip(g)
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("filmstrip: %v", err)
	}
	rows := []bfs.Row{ResultRow(res)}
	if tx := Table(rows).Text(); !strings.Contains(tx, "543") {
		t.Errorf("table: %s", tx)
	}
	if !strings.Contains(LevelTable(res).Text(), "best") {
		t.Error("level table")
	}
	if _, err := LevelsPlot(res); err != nil {
		t.Error(err)
	}
	for _, q := range []string{"score", "length", "width"} {
		if _, err := ScalingPlot(rows, bfs.RuleQntm, q); err != nil {
			t.Error(err)
		}
	}
}

func TestBFSGames(t *testing.T) {
	gs, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGame(gs, 10, 5, "longest")
	if err != nil || g.Length != 19 {
		t.Fatalf("10x5 longest: %v %+v", err, g)
	}
	if _, err := FindGame(gs, 10, 99, "longest"); err == nil {
		t.Error("want an error for a missing game")
	}
}

func TestSweepKeepsOrder(t *testing.T) {
	rs, err := Sweep([][2]int{{10, 2}, {10, 3}}, bfs.RuleQntm, bfs.RuleClearAboveBar)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4", len(rs))
	}
	for i, want := range [][2]int{{10, 2}, {10, 2}, {10, 3}, {10, 3}} {
		if rs[i].Width != want[0] || rs[i].Height != want[1] {
			t.Errorf("result %d is %dx%d, want %dx%d", i, rs[i].Width, rs[i].Height, want[0], want[1])
		}
	}
}

func TestBacktestsAndAnchors(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	n, err := CheckSummary(rows)
	if err != nil || n < 30 {
		t.Fatalf("%d anchors matched: %v", n, err)
	}
	bs, err := Backtests(rows, BacktestCases)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fits.BacktestRows(bs...) {
		t.Logf("%+v", r)
	}
	// The numbers (heights 10..16 since 5x16 joined the tables):
	// width-5 log-linear peak covers 3 of 7, all misses low; log-quadratic
	// length covers 0 of 7; width-8 score is an exact quadratic on H 3..6
	// and misses H 7..9.
	in, below := bs[3].Hits()
	if in != 3 || below != 0 || len(bs[3].TestX) != 7 {
		t.Errorf("5 peak log-linear: %d inside, %d below of %d", in, below, len(bs[3].TestX))
	}
	if in, _ := bs[2].Hits(); in != 0 {
		t.Errorf("5 length log-quadratic: %d inside", in)
	}
	if in, _ := bs[10].Hits(); in != 0 || bs[10].Sigma > 1e-9 {
		t.Errorf("8 score quadratic: %d inside, σ %g", in, bs[10].Sigma)
	}
}

// TestStored: the committed 10x8 search comes back with its levels, which
// sum to its row; a size never searched is an error.
func TestStored(t *testing.T) {
	r, err := Stored(10, 8, bfs.RuleQntm)
	if err != nil {
		t.Fatal(err)
	}
	var states int64
	for _, l := range r.Levels {
		states += l.States
	}
	if r.PeakLevel < 0 || r.PeakLevel >= len(r.Levels) {
		t.Fatalf("10x8: peak level %d of %d levels", r.PeakLevel, len(r.Levels))
	}
	if r.Score != 16 || r.Length != 55 || r.PeakStates != 4730104929 || r.Levels[r.PeakLevel].States != r.PeakStates || states != r.Expanded {
		t.Errorf("10x8: score %d, length %d, peak %d at %d, %d states in %d levels (row: %d)",
			r.Score, r.Length, r.PeakStates, r.PeakLevel, states, len(r.Levels), r.Expanded)
	}
	if _, err := Stored(3, 3, bfs.RuleQntm); err == nil {
		t.Error("3x3: no error")
	}
	if _, err := LevelsPlot(r); err != nil {
		t.Error(err)
	}
}

// TestWitness: a committed witness passes its checks; a row whose
// number differs, a missing row and a size without a game are told apart.
func TestWitness(t *testing.T) {
	rows, err := Summary()
	if err != nil {
		t.Fatal(err)
	}
	gs, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"longest", "score"} {
		g, ok, err := Witness(rows, gs, 10, 7, target)
		if err != nil || !ok || g.Width != 10 || g.Height != 7 {
			t.Fatalf("10x7 %s: %v, %v", target, ok, err)
		}
	}
	var none []bfs.GameRecord
	if _, ok, err := Witness(rows, none, 10, 7, "longest"); ok || err != nil {
		t.Fatalf("no games: %v, %v", ok, err)
	}
	if _, _, err := Witness(rows, gs, 10, 30, "longest"); err == nil || !strings.Contains(err.Error(), "no 10x30 row") {
		t.Fatalf("a size without a row: %v", err)
	}
	bad := append([]bfs.Row(nil), rows...)
	for i := range bad {
		if bad[i].Width == 10 && bad[i].Height == 7 && bad[i].Rule == bfs.RuleQntm {
			bad[i].Score++
		}
	}
	if _, _, err := Witness(bad, gs, 10, 7, "score"); err == nil || !strings.Contains(err.Error(), "against the row's") {
		t.Fatalf("a row with another score: %v", err)
	}
}
