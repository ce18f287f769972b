// Package progress defines the progress events that long-running engine jobs
// (exhaustive searches, beam searches, classic sweeps, training) emit. The
// engine only emits events; the lab package turns them into an in-place
// notebook progress bar and the CLI into a terminal bar, so both show the
// same numbers.
package progress

import "strconv"

// Event is one snapshot of a job's progress.
type Event struct {
	// Job names the whole run, e.g. "bfs 10x7" or "beam w=1000".
	Job string
	// Stage names the current step, e.g. "level 12" or "depth 40".
	Stage string
	// Done and Total count units of work (Total 0 means unknown). Displays
	// derive the rate and ETA from successive events.
	Done, Total int64
	// Unit names what Done counts ("states", "seeds", "wells").
	Unit string
	// Info is a short free-form status ("best 8, 1.2 GB").
	Info string
	// Finished is set on the last event of a job.
	Finished bool
}

// Reporter receives progress events. Implementations must be safe to call
// from the goroutine that runs the job; jobs never call Report concurrently.
type Reporter interface {
	Report(Event)
}

// Func adapts a function to a Reporter.
type Func func(Event)

// Report calls f(e).
func (f Func) Report(e Event) { f(e) }

// Discard ignores every event.
var Discard Reporter = Func(func(Event) {})

// Or returns r, or Discard when r is nil.
func Or(r Reporter) Reporter {
	if r == nil {
		return Discard
	}
	return r
}

// Range writes a range of values for a progress line: "lo..hi", or one
// value when both read the same ("1.9", never "1.9..1.9").
func Range(lo, hi string) string {
	if lo == hi {
		return lo
	}
	return lo + ".." + hi
}

// IntRange is Range of two integers: "3..7", "0".
func IntRange(lo, hi int) string { return Range(strconv.Itoa(lo), strconv.Itoa(hi)) }

// FloatRange is Range of two floats with prec decimals: "1.2..1.9", "1.9"
// (equal once rounded).
func FloatRange(lo, hi float64, prec int) string {
	return Range(strconv.FormatFloat(lo, 'f', prec, 64), strconv.FormatFloat(hi, 'f', prec, 64))
}
