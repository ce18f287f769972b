package humanize

import (
	"testing"
	"time"
)

func TestCountAndClock(t *testing.T) {
	for _, c := range []struct {
		n    float64
		want string
	}{{0, "0"}, {999, "999"}, {2.5, "2.5"}, {1200, "1.2k"}, {3.4e6, "3.4M"}, {5.6e9, "5.6G"}} {
		if got := Count(c.n); got != c.want {
			t.Errorf("Count(%v) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{7 * time.Second, "0:07"}, {205 * time.Second, "3:25"}, {3723 * time.Second, "1:02:03"}} {
		if got := Clock(c.d); got != c.want {
			t.Errorf("Clock(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
