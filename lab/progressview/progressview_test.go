package progressview

import (
	"bytes"
	"strings"
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
	var ids []string
	var last string
	p := newHTMLProgress("bfs", func(id, h string) { ids = append(ids, id); last = h }, "p_1")
	for i := int64(0); i <= 100; i++ {
		p.Report(progress.Event{Stage: "level 1", Done: i, Total: 100, Unit: "states"})
	}
	p.Report(progress.Event{Stage: "level 1", Done: 100, Total: 100, Unit: "states", Finished: true})
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
