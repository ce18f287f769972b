package main

import (
	"fmt"

	"github.com/hatelab/hatelab/internal/clip"
)

// maxErrorLine caps the length of the error line main prints, so that an
// error never echoes a large input (a flag value, an argument) in full.
const maxErrorLine = 400

// clipLine cuts msg to maxErrorLine bytes (on a rune boundary) when it is
// longer, saying how long it was.
func clipLine(msg string) string {
	if len(msg) <= maxErrorLine {
		return msg
	}
	return fmt.Sprintf("%s... (message cut, %d bytes in all)", msg[:clip.RuneCut(msg, maxErrorLine)], len(msg))
}
