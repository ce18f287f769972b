package humanize

import (
	"fmt"
	"math"
	"time"
)

// Count formats a count briefly: 999, 1.2k, 3.4M, 5.6G.
func Count(n float64) string {
	a := math.Abs(n)
	switch {
	case a < 1000:
		if n == math.Trunc(n) {
			return fmt.Sprintf("%.0f", n)
		}
		return fmt.Sprintf("%.1f", n)
	case a < 1e6:
		return fmt.Sprintf("%.1fk", n/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.1fM", n/1e6)
	default:
		return fmt.Sprintf("%.1fG", n/1e9)
	}
}

// Clock formats a duration as 0:07, 3:25 or 1:02:03.
func Clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
