// Package svgtest holds helpers for tests that check SVG output.
package svgtest

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// WellFormed parses s as XML to the end, failing the test on any error.
func WellFormed(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%.300s", err, s)
		}
	}
}
