package progressview

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/janpfeifer/gonb/gonbui"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Auto returns a progress.Reporter that shows a job's progress events
// as a bar with rate and ETA: in a notebook, an HTML bar updated in place
// in the cell's output; on a terminal, a progressbar on standard error;
// otherwise (logs, CI) one plain line on standard error every 10 seconds
// and at the end. job names the bar when the events carry no Job.
//
//	res, err := bfs.Search(ctx, bfs.Options{Width: 8, Height: 8, Progress: progressview.Auto("bfs 8x8")})
func Auto(job string) progress.Reporter {
	switch {
	case gonbui.IsNotebook:
		return Notebook(job)
	case term.IsTerminal(int(os.Stderr.Fd())):
		return Terminal(os.Stderr, job)
	default:
		return Lines(os.Stderr, job, 10*time.Second)
	}
}

// meter turns successive events into rate and ETA.
type meter struct {
	job       string
	now       func() time.Time
	start     time.Time // of the job
	base      time.Time // of the current rate baseline
	baseDone  int64
	last      progress.Event
	started   bool
	lastShown time.Time
}

// snapshot is what a display shows.
type snapshot struct {
	progress.Event
	Elapsed time.Duration
	Rate    float64       // units per second, 0 when unknown
	ETA     time.Duration // -1 when unknown
}

func newMeter(job string) *meter { return &meter{job: job, now: time.Now} }

func (m *meter) update(e progress.Event) snapshot {
	now := m.now()
	if !m.started {
		m.started, m.start, m.base, m.baseDone = true, now, now, e.Done
	}
	// A new stage, or a count that went backwards, restarts the rate.
	if e.Done < m.last.Done || e.Stage != m.last.Stage {
		m.base, m.baseDone = now, e.Done
	}
	if e.Job == "" {
		e.Job = m.job
	}
	m.last = e
	s := snapshot{Event: e, Elapsed: now.Sub(m.start), ETA: -1}
	if dt := now.Sub(m.base).Seconds(); dt > 0.2 {
		s.Rate = float64(e.Done-m.baseDone) / dt
	}
	if e.Total > 0 && s.Rate > 0 && !e.Finished {
		s.ETA = time.Duration(float64(e.Total-e.Done) / s.Rate * float64(time.Second))
	}
	if e.Finished && e.Total > 0 && e.Done == 0 {
		s.Done = e.Total
	}
	return s
}

// due reports whether a display throttled to every should redraw now.
func (m *meter) due(every time.Duration, e progress.Event) bool {
	now := m.now()
	if e.Finished || m.lastShown.IsZero() || now.Sub(m.lastShown) >= every || e.Stage != m.last.Stage {
		m.lastShown = now
		return true
	}
	return false
}

// text is the one-line status: "job · stage · 45% 1.2k/3.4k states · 120 states/s · ETA 0:12 · info".
func (s snapshot) text() string {
	parts := []string{s.Job}
	if s.Stage != "" {
		parts = append(parts, s.Stage)
	}
	unit := s.Unit
	if unit == "" {
		unit = "items"
	}
	switch {
	case s.Total > 0:
		parts = append(parts, fmt.Sprintf("%.0f%% %s/%s %s", 100*float64(s.Done)/float64(s.Total), humanize.Count(float64(s.Done)), humanize.Count(float64(s.Total)), unit))
	case s.Done > 0:
		parts = append(parts, humanize.Count(float64(s.Done))+" "+unit)
		// Nothing counted and no total: no "0 items", which says nothing.
	}
	if s.Rate > 0 {
		parts = append(parts, humanize.Count(s.Rate)+" "+unit+"/s")
	}
	if s.Finished {
		parts = append(parts, "done in "+humanize.Clock(s.Elapsed))
	} else if s.ETA >= 0 {
		parts = append(parts, "ETA "+humanize.Clock(s.ETA))
	} else {
		parts = append(parts, humanize.Clock(s.Elapsed))
	}
	if s.Info != "" {
		parts = append(parts, s.Info)
	}
	return strings.Join(parts, " · ")
}

// Notebook is the notebook bar: a line of the cell's one progress output,
// replaced in place (at most 5 times a second, and once a second while it
// runs so that its elapsed time moves); the final state stays until the
// cell starts another top-level bar, which replaces it.
func Notebook(job string) progress.Reporter { return cellBoard().add(job, false) }

// Terminal draws a schollz/progressbar on w (a terminal): count,
// rate and ETA; a spinner when the total is unknown.
func Terminal(w io.Writer, job string) progress.Reporter {
	return &termProgress{w: w, m: newMeter(job)}
}

type termProgress struct {
	mu    sync.Mutex
	w     io.Writer
	m     *meter
	bar   *progressbar.ProgressBar
	stage string
	total int64
}

func (p *termProgress) describe(e progress.Event) string {
	d := p.m.job
	if e.Job != "" {
		d = e.Job
	}
	if e.Stage != "" {
		d += " " + e.Stage
	}
	if e.Info != "" {
		d += " (" + e.Info + ")"
	}
	return d
}

func (p *termProgress) Report(e progress.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.m.update(e)
	total := e.Total
	if total <= 0 {
		total = -1
	}
	if p.bar == nil || e.Stage != p.stage {
		if p.bar != nil {
			p.bar.Finish()
			fmt.Fprintln(p.w)
		}
		unit := e.Unit
		if unit == "" {
			unit = "it"
		}
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.describe(e)),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString(unit),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetWidth(30),
		)
		p.stage, p.total = e.Stage, total
	} else {
		if total != p.total {
			p.bar.ChangeMax64(total)
			p.total = total
		}
		p.bar.Describe(p.describe(e))
	}
	p.bar.Set64(s.Done)
	if e.Finished {
		p.bar.Finish()
		fmt.Fprintf(p.w, "\n%s\n", s.text())
		p.bar = nil
	}
}

// Lines writes the status as a plain line to w: at most once per every
// within a stage, and always at a new stage and at a job's last event (so
// a search that reports one stage per level prints a line per level): for
// logs and CI.
func Lines(w io.Writer, job string, every time.Duration) progress.Reporter {
	return &lineProgress{w: w, m: newMeter(job), every: every}
}

type lineProgress struct {
	mu    sync.Mutex
	w     io.Writer
	m     *meter
	every time.Duration
}

func (p *lineProgress) Report(e progress.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.m.due(p.every, e) {
		p.m.update(e)
		return
	}
	fmt.Fprintln(p.w, p.m.update(e).text())
}
