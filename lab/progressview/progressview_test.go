package progressview

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/progress"
)

func TestMeterRateAndETA(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	m := newMeter("job")
	m.now = clk.now
	m.update(progress.Event{Stage: "s", Done: 0, Total: 1000, Unit: "states"})
	clk.t = clk.t.Add(2 * time.Second)
	s := m.update(progress.Event{Stage: "s", Done: 200, Total: 1000, Unit: "states"})
	if s.Rate != 100 {
		t.Errorf("rate %v, want 100/s", s.Rate)
	}
	if s.ETA != 8*time.Second {
		t.Errorf("ETA %v, want 8s", s.ETA)
	}
	if txt := s.text(); !strings.Contains(txt, "20% 200/1.0k states") || !strings.Contains(txt, "ETA 0:08") || !strings.HasPrefix(txt, "job · s") {
		t.Errorf("status line %q", txt)
	}
	clk.t = clk.t.Add(time.Second)
	s = m.update(progress.Event{Stage: "t", Done: 5, Total: 10})
	if s.Rate != 0 || s.ETA != -1 {
		t.Errorf("a new stage must restart the rate: rate %v ETA %v", s.Rate, s.ETA)
	}
	fin := m.update(progress.Event{Finished: true, Total: 10})
	if !strings.Contains(fin.text(), "done in 0:03") {
		t.Errorf("final line %q", fin.text())
	}
}

func TestNotebookProgressUpdatesInPlace(t *testing.T) {
	tb := newTestBoard()
	p := tb.b.add("bfs", false)
	for i := int64(0); i <= 100; i++ {
		tb.clk.t = tb.clk.t.Add(time.Millisecond)
		p.Report(progress.Event{Stage: "level 1", Done: i, Total: 100, Unit: "states"})
	}
	p.Report(progress.Event{Stage: "level 1", Done: 100, Total: 100, Unit: "states", Finished: true})
	ids, last := tb.updates()
	if len(ids) == 0 || len(ids) > 10 {
		t.Fatalf("%d updates for a fast job, want a few (throttled)", len(ids))
	}
	for _, id := range ids {
		if id != "p_1" {
			t.Fatalf("update to %q: every update must replace the same output", id)
		}
	}
	if !strings.Contains(last, `<progress value="100" max="100"`) || !strings.Contains(last, "done in") {
		t.Errorf("final bar %q", last)
	}
	tb.waitStopped(t)
}

// testBoard is a board with a fake clock, a recording updater and a
// ticker driven by hand.
type testBoard struct {
	b    *board
	clk  *fakeClock
	tick chan time.Time
	mu   sync.Mutex
	ids  []string
	html []string
}

func newTestBoard() *testBoard {
	tb := &testBoard{clk: &fakeClock{t: time.Unix(1000, 0)}, tick: make(chan time.Time)}
	tb.b = newBoard("p_1", func(id, h string) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		tb.ids, tb.html = append(tb.ids, id), append(tb.html, h)
	})
	tb.b.now = tb.clk.now
	tb.b.ticker = func(time.Duration) (<-chan time.Time, func()) { return tb.tick, func() {} }
	return tb
}

func (tb *testBoard) updates() ([]string, string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if len(tb.html) == 0 {
		return tb.ids, ""
	}
	return append([]string(nil), tb.ids...), tb.html[len(tb.html)-1]
}

// advance moves the clock and fires one tick, returning once the ticker
// goroutine has redrawn.
func (tb *testBoard) advance(t *testing.T, d time.Duration) {
	t.Helper()
	tb.b.mu.Lock()
	tb.clk.t = tb.clk.t.Add(d)
	tb.b.mu.Unlock()
	select {
	case tb.tick <- tb.clk.t:
	case <-time.After(5 * time.Second):
		t.Fatal("the ticker goroutine does not take ticks")
	}
	// A second send returns only after the first tick's redraw is done.
	select {
	case tb.tick <- tb.clk.t:
	case <-time.After(5 * time.Second):
		t.Fatal("the ticker goroutine does not take ticks")
	}
}

// waitStopped checks that the ticker goroutine has returned.
func (tb *testBoard) waitStopped(t *testing.T) {
	t.Helper()
	tb.b.mu.Lock()
	running, stopped := tb.b.stop != nil, tb.b.stopped
	tb.b.mu.Unlock()
	if running {
		t.Fatal("the ticker still runs after every bar finished")
	}
	if stopped == nil {
		return
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the ticker goroutine did not return: a leak")
	}
}

func TestElapsedTicksWithoutEvents(t *testing.T) {
	tb := newTestBoard()
	p := tb.b.add("beam width 50", false)
	p.Report(progress.Event{Stage: "level 1", Done: 1, Unit: "levels"})
	_, first := tb.updates()
	if !strings.Contains(first, "0:00") {
		t.Fatalf("first draw %q", first)
	}
	for sec := 1; sec <= 3; sec++ {
		tb.advance(t, time.Second)
		_, h := tb.updates()
		if want := fmt.Sprintf("0:%02d", sec); !strings.Contains(h, want) {
			t.Fatalf("after %ds without events the bar shows %q, want %s", sec, h, want)
		}
	}
	p.Report(progress.Event{Stage: "done", Done: 3, Total: 3, Unit: "levels", Finished: true})
	tb.waitStopped(t)
	_, h := tb.updates()
	if !strings.Contains(h, "done in 0:03") {
		t.Errorf("final %q", h)
	}
}

func TestSweepOuterAndOneInnerBar(t *testing.T) {
	tb := newTestBoard()
	sw := newBoardSweep(tb.b, "beam sweep", 3, "searches")
	for i, name := range []string{"width 1", "width 2", "width 3"} {
		in := sw.Next(name)
		for lvl := 1; lvl <= 4; lvl++ {
			tb.clk.t = tb.clk.t.Add(300 * time.Millisecond)
			in.Report(progress.Event{Stage: fmt.Sprintf("level %d", lvl), Done: int64(lvl), Unit: "levels"})
		}
		_, h := tb.updates()
		if n := strings.Count(h, "<progress"); n != 2 {
			t.Fatalf("search %d: %d bars, want the outer and one inner: %s", i, n, h)
		}
		if !strings.Contains(h, fmt.Sprintf("%d/3 searches", i)) || !strings.Contains(h, name) || !strings.Contains(h, "level 4") {
			t.Fatalf("search %d: %s", i, h)
		}
		in.Report(progress.Event{Stage: "done", Done: 4, Total: 4, Unit: "levels", Finished: true})
		_, h = tb.updates()
		if n := strings.Count(h, "<progress"); n != 1 {
			t.Fatalf("after search %d: %d bars, want the finished inner bar gone: %s", i, n, h)
		}
	}
	tb.advance(t, 2*time.Second) // the outer bar still ticks between searches
	sw.Finish()
	sw.Finish()
	tb.waitStopped(t)
	_, h := tb.updates()
	if n := strings.Count(h, "<progress"); n != 1 || !strings.Contains(h, "3/3 searches") || !strings.Contains(h, "done in") {
		t.Errorf("final board %s", h)
	}
}

func TestSweepFinishClearsUnfinishedInner(t *testing.T) {
	tb := newTestBoard()
	sw := newBoardSweep(tb.b, "bfs sweep", 2, "searches")
	sw.Skip("4x4")
	sw.Next("5x5").Report(progress.Event{Stage: "level 1", Done: 1})
	sw.Finish() // e.g. the search failed and the caller returned
	tb.waitStopped(t)
	if _, h := tb.updates(); strings.Count(h, "<progress") != 1 {
		t.Errorf("final board %s", h)
	}
}

func TestNewTopLevelBarReplacesFinishedOnes(t *testing.T) {
	tb := newTestBoard()
	for i := 0; i < 5; i++ {
		p := tb.b.add(fmt.Sprintf("bfs %d", i), false)
		p.Report(progress.Event{Stage: "level 1", Done: 1, Total: 1})
		p.Report(progress.Event{Stage: "done", Done: 1, Total: 1, Finished: true})
	}
	tb.waitStopped(t)
	_, h := tb.updates()
	if strings.Count(h, "<progress") != 1 || !strings.Contains(h, "bfs 4") {
		t.Errorf("five jobs in turn leave %s; want the last one only", h)
	}
}

func TestStreamSweep(t *testing.T) {
	var b bytes.Buffer
	sw := newStreamSweep(Lines(&b, "sweep", 0), func(j string) progress.Reporter { return Lines(&b, j, time.Hour) }, "sweep", 2, "searches")
	sw.Next("a").Report(progress.Event{Done: 1, Finished: true})
	sw.Next("b").Report(progress.Event{Done: 1, Finished: true})
	sw.Finish()
	out := b.String()
	for _, want := range []string{"sweep · a · 0% 0/2 searches", "sweep · b · 50% 1/2 searches", "sweep · done · 100% 2/2 searches"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestLineProgress(t *testing.T) {
	var b bytes.Buffer
	p := Lines(&b, "sweep", time.Hour)
	p.Report(progress.Event{Done: 1, Unit: "seeds"})
	p.Report(progress.Event{Done: 2, Unit: "seeds"})
	p.Report(progress.Event{Done: 3, Unit: "seeds", Finished: true})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "sweep · 1 seeds") || !strings.Contains(lines[1], "done in") {
		t.Errorf("lines %q: want the first event and the last", lines)
	}
}

// fakeClock steps a meter's time by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestStatusLineCounts(t *testing.T) {
	for _, c := range []struct {
		e       progress.Event
		want    string
		notWant string
	}{
		{progress.Event{Job: "cycle", Stage: "targets"}, "cycle · targets · 0:00", "0 items"},
		{progress.Event{Job: "cycle", Stage: "targets", Unit: "wells"}, "cycle · targets · 0:00", "0 wells"},
		{progress.Event{Job: "j", Done: 12}, "j · 12 items", ""},
		{progress.Event{Job: "j", Done: 0, Total: 5, Unit: "games"}, "j · 0% 0/5 games", ""},
	} {
		m := newMeter(c.e.Job)
		clk := &fakeClock{t: time.Unix(1000, 0)}
		m.now = clk.now
		txt := m.update(c.e).text()
		if !strings.HasPrefix(txt, c.want) || c.notWant != "" && strings.Contains(txt, c.notWant) {
			t.Errorf("%+v: status %q, want it to start %q without %q", c.e, txt, c.want, c.notWant)
		}
	}
}
