// Command hatelab is the command-line face of the hatelab research lab:
// replaying HATETRIS games, generating moves, encoding replays, exhaustive
// searches of small wells, beam searches, NNUE networks and classic-Tetris agent runs.
//
// Each subcommand lives in its own file and registers itself on rootCmd
// from an init function.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "hatelab",
	Short:         "hatelab: HATETRIS and classic Tetris research tools",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// runtimeError marks a failure that is not the user's input (I/O, a
// checkpoint that cannot be written...). It exits with status 1; every other
// error is treated as bad input and exits with status 2.
type runtimeError struct{ err error }

func (e runtimeError) Error() string { return e.err.Error() }
func (e runtimeError) Unwrap() error { return e.err }

// failure wraps err as a runtime (non-input) failure.
func failure(err error) error {
	if err == nil {
		return nil
	}
	return runtimeError{err}
}

func main() {
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	err := rootCmd.Execute()
	if err == nil {
		return
	}
	msg := clipLine(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
	fmt.Fprintln(os.Stderr, "hatelab: "+msg)
	var rt runtimeError
	if errors.As(err, &rt) {
		os.Exit(1)
	}
	os.Exit(2)
}
