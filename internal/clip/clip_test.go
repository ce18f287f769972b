package clip

import (
	"fmt"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", `"abc"`},
		{strings.Repeat("x", 40), `"` + strings.Repeat("x", 40) + `"`},
		{strings.Repeat("x", 41), `"` + strings.Repeat("x", 40) + `"... (41 bytes)`},
		{strings.Repeat("x", 39) + "é" + "y", `"` + strings.Repeat("x", 39) + `"... (42 bytes)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if RuneCut("ab", 5) != 2 || RuneCut("aé", 2) != 1 {
		t.Error("RuneCut")
	}
}

func ExampleQuote() {
	fmt.Println(Quote("short"))
	fmt.Println(Quote(strings.Repeat("0", 100)))
	// Output:
	// "short"
	// "0000000000000000000000000000000000000000"... (100 bytes)
}
