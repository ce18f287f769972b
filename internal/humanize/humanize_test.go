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

func TestNumbers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0"}, {"999", "999"}, {"1000", "1,000"}, {"-1234.5", "-1,234.5"}, {"+12345.678", "+12,345.678"},
		{"999.99", "999.99"}, {"1.5e+20", "1.5e+20"}, {"abc", "abc"}, {"", ""}, {"12a4", "12a4"}, {"1234.", "1,234."},
	} {
		if got := Commas(c.in); got != c.want {
			t.Errorf("Commas(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"4.9e-05", "4.9·10⁻⁵"}, {"5.27e+20", "5.27·10²⁰"}, {"1e-12", "10⁻¹²"}, {"-1e+16", "-10¹⁶"}, {"-2.5e+07", "-2.5·10⁷"},
		{"< 1e-12", "< 10⁻¹²"}, {"[4.5e+19, 1.49e+21]", "[4.5·10¹⁹, 1.49·10²¹]"}, {"1.2e+100", "1.2·10¹⁰⁰"},
		{"suite 9446cda5e497", "suite 9446cda5e497"}, {"gen-1e+05", "gen-1e+05"}, {"x1e+05", "x1e+05"}, {"0.05", "0.05"},
		{"hand@w1e+05", "hand@w1e+05"}, {"3e-5", "3e-5"},
	} {
		if got := Sci(c.in); got != c.want {
			t.Errorf("Sci(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for k, want := range map[int]string{0: "10⁰", 5: "10⁵", -2: "10⁻²", 23: "10²³"} {
		if got := Power10(k); got != want {
			t.Errorf("Power10(%d) = %q, want %q", k, got, want)
		}
	}
}
