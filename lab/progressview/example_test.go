package progressview_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/lab/progressview"
)

// Lines is the display for logs: a plain line per stage, at most one per
// interval within a stage, and always the job's last event. The events here
// come within microseconds, so no rate or ETA is shown yet.
func ExampleLines() {
	var buf bytes.Buffer
	rep := progressview.Lines(&buf, "bfs 10x3", time.Hour)
	for level, states := range []int64{1, 17, 98} {
		stage := fmt.Sprintf("level %d", level)
		rep.Report(progress.Event{Stage: stage, Done: 0, Total: states, Unit: "states"})
		rep.Report(progress.Event{Stage: stage, Done: states, Total: states, Unit: "states"}) // same stage: not shown
	}
	rep.Report(progress.Event{Stage: "done", Done: 116, Total: 116, Unit: "states", Info: "score 0", Finished: true})
	fmt.Print(buf.String())
	// Output:
	// bfs 10x3 · level 0 · 0% 0/1 states · 0:00
	// bfs 10x3 · level 1 · 0% 0/17 states · 0:00
	// bfs 10x3 · level 2 · 0% 0/98 states · 0:00
	// bfs 10x3 · done · 100% 116/116 states · done in 0:00 · score 0
}
