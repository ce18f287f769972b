package humanize_test

import (
	"fmt"
	"time"

	"github.com/hatelab/hatelab/internal/humanize"
)

// Counts as the progress lines and tables show them: states, children,
// lines.
func ExampleCount() {
	for _, n := range []float64{0, 999, 1000, 1234, 817_470_330, 5.6e9} {
		fmt.Println(humanize.Count(n))
	}
	// Output:
	// 0
	// 999
	// 1.0k
	// 1.2k
	// 817.5M
	// 5.6G
}

// Durations as a clock: minutes and seconds, hours when there are any.
func ExampleClock() {
	for _, d := range []time.Duration{0, 7 * time.Second, 205 * time.Second, 3723 * time.Second, 1500 * time.Millisecond} {
		fmt.Println(humanize.Clock(d))
	}
	// Output:
	// 0:00
	// 0:07
	// 3:25
	// 1:02:03
	// 0:02
}
