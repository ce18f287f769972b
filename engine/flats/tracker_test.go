package flats

import (
	"sync"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

var (
	recordsOnce  sync.Once
	recordGames  []*hatetris.Game
	recordsError error
)

func testRecords(t testing.TB) []*hatetris.Game {
	recordsOnce.Do(func() { recordGames, recordsError = RecordGames() })
	if recordsError != nil {
		t.Fatal(recordsError)
	}
	return recordGames
}

// TestTrackerFollowsRecords: after every move of every record replay the
// tracker's well is the engine's, and every live row has a life.
func TestTrackerFollowsRecords(t *testing.T) {
	games := testRecords(t)
	if len(games) < 20 {
		t.Fatalf("%d record games", len(games))
	}
	moves := 0
	for gi, g := range games {
		r := g.Rules
		tr := NewTracker(r)
		var ev []Event
		for i := range g.Steps {
			s := &g.Steps[i]
			m, ok := FromStep(r, s)
			if !ok {
				if i != len(g.Steps)-1 {
					t.Fatalf("game %d: step %d ends the game early", gi, i)
				}
				break
			}
			var err error
			ev, err = tr.Apply(&m, ev[:0])
			if err != nil {
				t.Fatalf("game %d step %d: %v", gi, i, err)
			}
			want := g.Well
			if i+1 < len(g.Steps) {
				want = g.Steps[i+1].Before
			}
			if *tr.Well() != want {
				t.Fatalf("game %d step %d: tracker well\n%s\nengine\n%s", gi, i, r.Format(tr.Well()), r.Format(&want))
			}
			seen := map[int]bool{}
			for y := 0; y < r.Depth; y++ {
				if l := tr.Life(y); (l >= 0) != (want[y] != 0) || l >= 0 && seen[l] {
					t.Fatalf("game %d step %d: row %d has life %d", gi, i, y, l)
				} else if l >= 0 {
					seen[l] = true
				}
			}
			moves++
		}
	}
	t.Logf("%d record games, %d moves", len(games), moves)
}

// TestUnitMoves: hand-made moves and their events.
func TestUnitMoves(t *testing.T) {
	r4, _ := hatetris.NewRules(4, 8, 4)
	r10 := hatetris.Standard()
	well := func(r *hatetris.Rules, rows ...uint16) hatetris.Well {
		var w hatetris.Well
		copy(w[r.Depth-len(rows):], rows)
		return w
	}
	tests := []struct {
		name string
		r    *hatetris.Rules
		b    hatetris.Well
		p    hatetris.Piece
		pos  hatetris.Position
		want []Event
	}{
		{"width-4 I on an empty row", r4, hatetris.Well{}, hatetris.I, hatetris.Position{X: 0, Y: 6, O: 0},
			[]Event{{From: Empty, To: Cleared, Kind: KindDie}}},
		{"two-line clear makes the row above fall 2", r10, well(r10, 0b1000000000, 0b1111111110, 0b1111111110), hatetris.I, hatetris.Position{X: 7, Y: 16, O: 1},
			[]Event{
				{From: MakeState(0b1000000000, 2), To: MakeState(0b1000000001, 0), Kind: KindGrow},
				{From: MakeState(0b1111111110, 1), To: Cleared, Kind: KindDie},
				{From: MakeState(0b1111111110, 0), To: Cleared, Kind: KindDie},
				{From: Empty, To: MakeState(0b0000000001, 1), Kind: KindBorn},
			}},
		{"fall without growth", r10, well(r10, 0b1100000000, 0b1111110000), hatetris.I, hatetris.Position{X: 6, Y: 18, O: 0},
			[]Event{
				{From: MakeState(0b1100000000, 1), To: MakeState(0b1100000000, 0), Kind: KindFall},
				{From: MakeState(0b1111110000, 0), To: Cleared, Kind: KindDie},
			}},
		{"stay", r10, well(r10, 0b1100000000, 0b1111110000), hatetris.O, hatetris.Position{X: 2, Y: 15, O: 0},
			[]Event{
				{From: MakeState(0b1100000000, 1), To: MakeState(0b1100000000, 1), Kind: KindStay},
				{From: MakeState(0b1111110000, 0), To: MakeState(0b1111110000, 0), Kind: KindStay},
				{From: Empty, To: MakeState(0b0001100000, 2), Kind: KindBorn},
				{From: Empty, To: MakeState(0b0001100000, 3), Kind: KindBorn},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.r.Fits(&tc.b, tc.p, tc.pos) {
				t.Fatal("the piece does not fit")
			}
			res := tc.r.Lock(&tc.b, tc.p, tc.pos)
			m, err := FromOutcome(tc.r, &tc.b, &res)
			if err != nil {
				t.Fatal(err)
			}
			tr := NewTracker(tc.r)
			tr.Reset(&tc.b, nil)
			ev, err := tr.Apply(&m, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := sortEvents(ev)
			want := sortEvents(tc.want)
			if len(got) != len(want) {
				t.Fatalf("events %v, want %v", got, want)
			}
			for i := range got {
				got[i].Life = 0
				if got[i] != want[i] {
					t.Fatalf("event %d: %+v, want %+v", i, got[i], want[i])
				}
			}
			if *tr.Well() != res.Well {
				t.Fatal("tracker well differs from the engine's")
			}
		})
	}
}

func sortEvents(ev []Event) []Event {
	out := append([]Event(nil), ev...)
	for i := range out {
		out[i].Life = 0
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && less(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func less(a, b Event) bool {
	if a.From != b.From {
		return a.From < b.From
	}
	return a.To < b.To
}

// TestRecordCounts: the record counts conserve flow and have only DAG
// edges; every life ends once.
func TestRecordCounts(t *testing.T) {
	c, err := CountGames(testRecords(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Conservation(); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckDAG(); err != nil {
		t.Fatal(err)
	}
	births, sinks := 0.0, 0.0
	for _, e := range c.Edges() {
		if e.From == Empty {
			births += e.N
		}
		if e.To.IsSink() {
			sinks += e.N
		}
	}
	if births == 0 || births != sinks {
		t.Fatalf("%g births, %g ended lives", births, sinks)
	}
	f, n := c.PathFrac(MakeState(0b0111111110, 0))
	t.Logf("%g games, %g moves, %d edges; 0111111110@0: f %.3f over %g lives", c.Games, c.Moves, len(c.Edges()), f, n)
}

// TestConservationDetectsLoss: a broken count fails the check.
func TestConservationDetectsLoss(t *testing.T) {
	c, _ := NewCounts(4, 4)
	c.Add([]Event{{From: Empty, To: MakeState(0b1000, 0), Kind: KindBorn}}, 2)
	c.Add([]Event{{From: MakeState(0b1000, 0), To: Cleared, Kind: KindDie}}, 1)
	if c.Conservation() == nil {
		t.Fatal("lost flow not detected")
	}
	c.Add([]Event{{From: MakeState(0b1000, 0), To: Immortal, Kind: KindImmortal}}, 1)
	if err := c.Conservation(); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckDAG(); err != nil {
		t.Fatal(err) // 1000 leaves one run of 3 empty cells
	}
	c.Add([]Event{{From: Empty, To: MakeState(0b1010, 0), Kind: KindBorn}, {From: MakeState(0b1010, 0), To: Cleared, Kind: KindDie}}, 1)
	if c.CheckDAG() == nil {
		t.Fatal("1010 cannot die in one move")
	}
}

// TestFromStepKeptCellsEqualLockAgain: a step's kept cells (Step.Placed,
// Step.GameOver) give the move that locking the piece again gives, on
// every step of every record replay.
func TestFromStepKeptCellsEqualLockAgain(t *testing.T) {
	steps := 0
	for gi, g := range testRecords(t) {
		for i := range g.Steps {
			kept := g.Steps[i]
			again := kept
			again.Placed, again.GameOver = hatetris.Placement{}, false
			m1, ok1 := FromStep(g.Rules, &kept)
			m2, ok2 := FromStep(g.Rules, &again)
			if ok1 != ok2 || m1 != m2 {
				t.Fatalf("game %d step %d: kept cells give %v %v, locking again %v %v", gi, i, ok1, m1, ok2, m2)
			}
			steps++
		}
	}
	if steps < 10000 {
		t.Fatalf("only %d steps checked", steps)
	}
}
