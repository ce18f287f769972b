package progressview

import (
	"fmt"
	"html"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/janpfeifer/gonb/gonbui"
	"golang.org/x/term"
)

// board is the one HTML output of a notebook cell that holds the cell's
// live bars, redrawn in place. A new top-level bar replaces the finished
// ones (so a cell that runs several jobs in turn ends with one bar, not a
// stack); an inner bar of a Sweep disappears when it finishes. While a bar
// is live, a goroutine redraws the board every tick so that the elapsed
// time moves even when no event arrives; it stops when every bar has
// finished.
type board struct {
	mu       sync.Mutex
	id       string
	update   func(id, html string)
	now      func() time.Time
	every    time.Duration // redraw throttle for events
	tick     time.Duration // redraw interval of the ticker
	ticker   func(d time.Duration) (c <-chan time.Time, stop func())
	bars     []*bar
	stop     chan struct{} // closed to stop the ticker; nil when none runs
	stopped  chan struct{} // closed when the ticker goroutine has returned
	lastDraw time.Time
	drawn    string
	// flush, when set, is called after the last bar finished and was drawn
	// (gonbui.Sync: the cell's program may end right after).
	flush func()
}

func newBoard(id string, update func(id, html string)) *board {
	return &board{id: id, update: update, now: time.Now, every: 200 * time.Millisecond, tick: time.Second,
		ticker: func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}}
}

var (
	nbBoardOnce sync.Once
	nbBoard     *board
)

// cellBoard is the board of this notebook cell (one per program: GoNB
// runs each cell as its own program).
func cellBoard() *board {
	nbBoardOnce.Do(func() {
		nbBoard = newBoard("p_"+gonbui.UniqueId(), gonbui.UpdateHTML)
		nbBoard.flush = gonbui.Sync
	})
	return nbBoard
}

// bar is one line of a board.
type bar struct {
	b        *board
	m        *meter
	s        snapshot
	seen     time.Time // when the last event came
	inner    bool      // an inner bar of a Sweep: removed when finished
	finished bool
	onFinish func() // called (board locked) when the bar finishes
}

// add puts a new bar on the board. A top-level bar first clears the
// finished bars away.
func (b *board) add(job string, inner bool) *bar {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !inner {
		live := b.bars[:0]
		for _, x := range b.bars {
			if !x.finished {
				live = append(live, x)
			}
		}
		clear(b.bars[len(live):])
		b.bars = live
	}
	m := newMeter(job)
	m.now = b.now
	x := &bar{b: b, m: m, inner: inner, seen: b.now()}
	x.s = snapshot{Event: progress.Event{Job: job}, ETA: -1}
	// The bar's clock runs from its creation, not from its first event.
	m.started, m.start, m.base = true, x.seen, x.seen
	b.bars = append(b.bars, x)
	b.startTicker()
	return x
}

// Report implements progress.Reporter.
func (x *bar) Report(e progress.Event) {
	b := x.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if x.finished {
		return
	}
	stageChanged := e.Stage != x.s.Stage
	x.s = x.m.update(e)
	x.seen = b.now()
	if e.Finished {
		x.finish()
	}
	if e.Finished || stageChanged || b.now().Sub(b.lastDraw) >= b.every {
		b.draw()
	}
	if e.Finished && !b.live() && b.flush != nil {
		b.flush()
	}
}

// finish marks the bar finished (board locked), removes an inner bar, and
// stops the ticker when no bar is live.
func (x *bar) finish() {
	b := x.b
	x.finished = true
	if x.inner {
		for i, y := range b.bars {
			if y == x {
				b.bars = append(b.bars[:i], b.bars[i+1:]...)
				break
			}
		}
	}
	if x.onFinish != nil {
		x.onFinish()
	}
	if !b.live() {
		b.stopTicker()
	}
}

func (b *board) live() bool {
	for _, x := range b.bars {
		if !x.finished {
			return true
		}
	}
	return false
}

// startTicker starts the redraw goroutine unless one runs (board locked).
func (b *board) startTicker() {
	if b.stop != nil {
		return
	}
	c, stopT := b.ticker(b.tick)
	stop, stopped := make(chan struct{}), make(chan struct{})
	b.stop, b.stopped = stop, stopped
	go func() {
		defer close(stopped)
		defer stopT()
		for {
			select {
			case <-stop:
				return
			case <-c:
				b.mu.Lock()
				select {
				case <-stop:
					b.mu.Unlock()
					return
				default:
				}
				b.draw()
				b.mu.Unlock()
			}
		}
	}()
}

// stopTicker stops the redraw goroutine (board locked); it does not wait
// for it (the goroutine needs the lock to return).
func (b *board) stopTicker() {
	if b.stop == nil {
		return
	}
	close(b.stop)
	b.stop = nil
}

// draw renders every bar (board locked) and sends the HTML when it changed.
func (b *board) draw() {
	now := b.now()
	b.lastDraw = now
	var h strings.Builder
	for _, x := range b.bars {
		s := x.s
		if !x.finished {
			s.Elapsed = now.Sub(x.m.start)
			if s.ETA >= 0 {
				s.ETA = max(0, s.ETA-now.Sub(x.seen))
			}
		}
		h.WriteString(s.htmlLine(x.inner))
	}
	out := ""
	if h.Len() > 0 {
		out = `<div class="hatelab-progress">` + h.String() + `</div>`
	}
	if out != b.drawn {
		b.drawn = out
		b.update(b.id, out)
	}
}

// htmlLine is one bar and its status line; it wraps rather than run past
// the cell's right edge.
func (s snapshot) htmlLine(inner bool) string {
	style := "font-family:monospace;font-size:12px;overflow-wrap:anywhere;margin:1px 0"
	width := "min(260px,40%)"
	if inner {
		style += ";padding-left:2em;color:#444"
		width = "min(200px,35%)"
	}
	pstyle := `style="width:` + width + `;vertical-align:middle"`
	bar := `<progress ` + pstyle + `></progress>` // indeterminate
	switch {
	case s.Total > 0:
		bar = fmt.Sprintf(`<progress value="%d" max="%d" %s></progress>`, min(s.Done, s.Total), s.Total, pstyle)
	case s.Finished:
		bar = `<progress value="1" max="1" ` + pstyle + `></progress>`
	}
	return `<div style="` + style + `">` + bar + " " + html.EscapeString(s.text()) + `</div>`
}

// Sweep shows a sweep of searches: one outer bar (searches done of N) and
// one live inner bar for the current search, which disappears when the
// search finishes (finished searches belong in the caller's result table).
// In a notebook both bars are lines of the cell's one progress output and
// the elapsed times tick on their own; elsewhere the outer bar prints a
// line per search and the inner one is Auto's display.
//
//	sw := progressview.NewSweep("beam sweep", len(widths), "searches")
//	for _, w := range widths {
//		res, err := beam.Run(ctx, beam.Config{BeamWidth: w, Progress: sw.Next(fmt.Sprint("width ", w))})
//		...
//	}
//	sw.Finish()
type Sweep struct {
	mu      sync.Mutex
	job     string
	unit    string
	total   int64
	started int64
	outer   progress.Reporter
	inner   func(job string) progress.Reporter
	b       *board // nil outside a notebook
	done    bool
}

// NewSweep returns a Sweep of total searches (unit names them, e.g.
// "searches", "games") drawn where Auto draws.
func NewSweep(job string, total int, unit string) *Sweep {
	switch {
	case gonbui.IsNotebook:
		return newBoardSweep(cellBoard(), job, total, unit)
	case term.IsTerminal(int(os.Stderr.Fd())):
		return newStreamSweep(Lines(os.Stderr, job, 0), func(j string) progress.Reporter { return Terminal(os.Stderr, j) }, job, total, unit)
	default:
		return newStreamSweep(Lines(os.Stderr, job, 0), func(j string) progress.Reporter { return Lines(os.Stderr, j, 10*time.Second) }, job, total, unit)
	}
}

func newBoardSweep(b *board, job string, total int, unit string) *Sweep {
	s := &Sweep{job: job, unit: unit, total: int64(total), b: b}
	outer := b.add(job, false)
	s.outer = outer
	s.inner = func(j string) progress.Reporter { return b.add(j, true) }
	return s
}

func newStreamSweep(outer progress.Reporter, inner func(string) progress.Reporter, job string, total int, unit string) *Sweep {
	return &Sweep{job: job, unit: unit, total: int64(total), outer: outer, inner: inner}
}

// Next starts the next search, named name: the outer bar counts the
// searches before it as done, and the returned reporter draws the inner
// bar (pass it as the search's Progress).
func (s *Sweep) Next(name string) progress.Reporter {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outer.Report(progress.Event{Job: s.job, Stage: name, Done: s.started, Total: s.total, Unit: s.unit})
	s.started++
	return s.inner(name)
}

// Skip counts a search that needed no work (e.g. loaded from a cache).
func (s *Sweep) Skip(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started++
	s.outer.Report(progress.Event{Job: s.job, Stage: name + " (cached)", Done: s.started, Total: s.total, Unit: s.unit})
}

// Finish ends the sweep: the outer bar shows every search done and stops
// ticking. Call it also when the sweep stops early (defer it); a second
// call does nothing.
func (s *Sweep) Finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	s.outer.Report(progress.Event{Job: s.job, Stage: "done", Done: s.started, Total: s.total, Unit: s.unit, Finished: true})
	if s.b != nil {
		// Inner bars of searches that never reported their end go too.
		s.b.mu.Lock()
		for _, x := range append([]*bar(nil), s.b.bars...) {
			if x.inner && !x.finished {
				x.finish()
			}
		}
		s.b.draw()
		s.b.mu.Unlock()
	}
}
