// Package progress defines the progress events that long-running engine jobs
// (exhaustive searches, beam searches, classic sweeps, training) emit. The
// engine only emits events; the lab package turns them into an in-place
// notebook progress bar and the CLI into a terminal bar, so both show the
// same numbers.
package progress

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
