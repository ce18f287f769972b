package progress_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/progress"
)

// A job reports one Event per step to any Reporter; Func turns a function
// into one.
func ExampleFunc() {
	rep := progress.Func(func(e progress.Event) {
		fmt.Printf("%s %s: %d/%d %s finished=%v\n", e.Job, e.Stage, e.Done, e.Total, e.Unit, e.Finished)
	})
	for level := 1; level <= 3; level++ {
		rep.Report(progress.Event{Job: "bfs 4x6", Stage: fmt.Sprintf("level %d", level), Done: int64(level), Total: 3, Unit: "levels", Finished: level == 3})
	}
	// Output:
	// bfs 4x6 level 1: 1/3 levels finished=false
	// bfs 4x6 level 2: 2/3 levels finished=false
	// bfs 4x6 level 3: 3/3 levels finished=true
}

// Or lets a job accept a nil Reporter: it reports to Discard instead.
func ExampleOr() {
	job := func(n int, rep progress.Reporter) int {
		rep = progress.Or(rep)
		for i := 1; i <= n; i++ {
			rep.Report(progress.Event{Job: "count", Done: int64(i), Total: int64(n), Finished: i == n})
		}
		return n
	}
	fmt.Println(job(3, nil)) // no progress wanted
	events := 0
	fmt.Println(job(3, progress.Func(func(progress.Event) { events++ })), events)
	// Output:
	// 3
	// 3 3
}
