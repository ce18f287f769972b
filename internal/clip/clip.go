// Package clip shortens inputs quoted in error messages, so that an error
// line never echoes a large input.
package clip

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Limit is the most bytes of an input that Quote shows.
const Limit = 40

// Quote quotes s, cut to its first Limit bytes (on a rune boundary) with
// its full length appended when it is longer.
func Quote(s string) string {
	if len(s) <= Limit {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:RuneCut(s, Limit)]), len(s))
}

// RuneCut returns the largest n <= max at which s can be cut without
// splitting a UTF-8 sequence (len(s) when s is shorter).
func RuneCut(s string, max int) int {
	if len(s) <= max {
		return len(s)
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
