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

// Numbers in the project's one style: thousands commas from 1,000 up, and
// an exponent as a power of ten.
func ExampleInt() {
	for _, n := range []int64{999, 1000, -12345, 4730104929} {
		fmt.Println(humanize.Int(n))
	}
	fmt.Println(humanize.Commas("6694.80"), humanize.Sci("p = 4.9e-05 (Holm 1e-12), 5.27e+20 [1.11e+20, 2.51e+21], suite 9446cda5e497"))
	// Output:
	// 999
	// 1,000
	// -12,345
	// 4,730,104,929
	// 6,694.80 p = 4.9·10⁻⁵ (Holm 10⁻¹²), 5.27·10²⁰ [1.11·10²⁰, 2.51·10²¹], suite 9446cda5e497
}
