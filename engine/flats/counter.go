package flats

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/hatetris"
)

var nan = math.NaN()

// Counter counts whole games, one at a time, with weight 1 each: the
// tracker, the counts, the pathwise outcome of every life and the
// permeability counts. It allocates only when Counts meets a new edge or
// row pair.
type Counter struct {
	Counts  *Counts
	tracker *Tracker
	r       *hatetris.Rules
	ev      []Event
	path    [hatetris.MaxDepth][maxPath]int32 // dense states a live flat visited
	pathLen [hatetris.MaxDepth]int8
	// pairAt[y]: the pair index of rows y-1 over y of the current well
	// (-1: unknown); rows a move leaves in place keep theirs.
	pairAt [hatetris.MaxDepth]int32
}

// NewCounter returns a counter for rules r (Height = Depth - Bar).
func NewCounter(r *hatetris.Rules) (*Counter, error) {
	c, err := NewCounts(r.Width, r.Depth-r.Bar)
	if err != nil {
		return nil, err
	}
	c.Pathwise = true
	return &Counter{Counts: c, tracker: NewTracker(r), r: r}, nil
}

// Tracker returns the counter's tracker.
func (k *Counter) Tracker() *Tracker { return k.tracker }

// Start begins a game at the empty well.
func (k *Counter) Start() {
	k.tracker.Reset(nil, nil)
	k.pathLen = [hatetris.MaxDepth]int8{}
	k.forgetPairs(hatetris.MaxDepth - 1)
}

// forgetPairs drops the cached pair indices of rows 0..y.
func (k *Counter) forgetPairs(y int) {
	for i := 0; i <= y && i < hatetris.MaxDepth; i++ {
		k.pairAt[i] = -1
	}
}

// Move counts one move of the current game.
func (k *Counter) Move(m *Move) error {
	var err error
	k.ev, err = k.tracker.Apply(m, k.ev[:0])
	if err != nil {
		return err
	}
	if err := k.add(); err != nil {
		return err
	}
	k.Counts.addPairs(k.r, m, 1, &k.pairAt)
	// Rows below the piece's lowest changed or cleared row keep their
	// place and their pair; the pair just above that row changes too.
	low := -1
	for y := k.r.Depth - 1; y >= 0; y-- {
		if m.M[y] != m.B[y] {
			low = y
			break
		}
	}
	k.forgetPairs(low + 1)
	k.Counts.Moves++
	return nil
}

// End ends the game: the live flats become immortal.
func (k *Counter) End() error {
	k.ev = k.tracker.End(k.ev[:0])
	if err := k.add(); err != nil {
		return err
	}
	k.Counts.Games++
	return nil
}

// add is Counts.Add(k.ev, 1) and the lives' paths in one pass: it
// extends the paths with k.ev and settles the lives that ended, each
// state's dense index found once.
func (k *Counter) add() error {
	c := k.Counts
	for i := range k.ev {
		e := &k.ev[i]
		if e.Kind == KindStay {
			j := c.index(e.From)
			if j < 0 {
				return fmt.Errorf("flats: state %s outside a %dx%d well", e.From.Format(c.Width), c.Width, c.Height)
			}
			c.dwell[j]++
			continue
		}
		jt := -1
		if !e.To.IsSink() {
			jt = c.index(e.To)
		}
		if e.From != Empty && c.index(e.From) < 0 || !e.To.IsSink() && jt < 0 {
			return fmt.Errorf("flats: transition %s -> %s outside a %dx%d well", e.From.Format(c.Width), e.To.Format(c.Width), c.Width, c.Height)
		}
		c.addEdge(e.From, e.To, 1)
		l := e.Life
		if e.Kind == KindBorn || e.Kind == KindDie && e.From == Empty {
			k.pathLen[l] = 0
		}
		if e.To.IsSink() {
			cl := 0.0
			if e.To == Cleared {
				cl = 1
			}
			last := -1
			for _, j := range k.path[l][:k.pathLen[l]] {
				lc := &c.lives[j]
				lc.through++
				lc.cleared += cl
				if sh := int(j) & (1<<c.Width - 1); sh != last {
					sc := &c.shapeLives[sh]
					sc.through++
					sc.cleared += cl
					last = sh
				}
			}
			k.pathLen[l] = 0
			continue
		}
		if n := k.pathLen[l]; int(n) < maxPath {
			k.path[l][n] = int32(jt)
			k.pathLen[l] = n + 1
		}
	}
	return nil
}

// CountGame counts a replayed game: every step but a game-ending one,
// then the end (censored games, that stop before game over, end there
// too).
func (k *Counter) CountGame(g *hatetris.Game) error {
	if g.Rules.Width != k.r.Width || g.Rules.Depth != k.r.Depth {
		return fmt.Errorf("flats: a %v game in a %v counter", g.Rules, k.r)
	}
	k.Start()
	for i := range g.Steps {
		m, ok := FromStep(g.Rules, &g.Steps[i])
		if !ok {
			break
		}
		if err := k.Move(&m); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
	}
	return k.End()
}
