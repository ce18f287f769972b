//go:build !linux && !darwin

package procstat

// PeakRSS returns 0: this operating system's peak memory is not read.
func PeakRSS() int64 { return 0 }

// CPUSeconds returns 0: this operating system's CPU time is not read.
func CPUSeconds() float64 { return 0 }
