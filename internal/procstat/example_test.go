package procstat_test

import (
	"fmt"

	"github.com/hatelab/hatelab/internal/procstat"
)

// The process's resource use, as the search summaries record it (peak RSS
// in summary.csv, CPU seconds beside wall time). The values depend on the
// machine and the moment, so this example is only compiled; 0 means the
// operating system does not say.
func Example() {
	fmt.Printf("peak RSS %d MB, current RSS %d MB, CPU %.2f s\n",
		procstat.PeakRSS()>>20, procstat.CurrentRSS()>>20, procstat.CPUSeconds())
}
