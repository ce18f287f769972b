package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// The commands with a distributed engine take --engine: native (the
// default, this binary's) or beam, which lives in its own binary,
// hatelab-beam (module dist/, `make hatelab-beam`), so that the core build
// never pulls in Apache Beam's dependencies.
var engineCommands = [][]string{{"bfs"}, {"beam"}, {"classic", "sweep"}, {"nnue", "cycle"}}

// errNoBeam is the one line of --engine beam in this binary.
var errNoBeam = exitError{2, errors.New("this binary was built without Beam: build it with `make hatelab-beam` (cd dist && go build ./cmd/hatelab-beam) and run bin/hatelab-beam with the same arguments")}

// addEngineFlags adds --engine to the commands of engineCommands under
// root.
func addEngineFlags(root *cobra.Command) {
	for _, path := range engineCommands {
		cmd, _, err := root.Find(path)
		if err != nil || cmd == root {
			continue
		}
		var engine string
		cmd.Flags().StringVar(&engine, "engine", "native", "native (this binary) or beam (Apache Beam: the hatelab-beam binary: make hatelab-beam)")
		prev := cmd.PreRunE
		cmd.PreRunE = func(c *cobra.Command, args []string) error {
			switch engine {
			case "native":
			case "beam":
				return errNoBeam
			default:
				return fmt.Errorf("--engine %q: want native or beam", engine)
			}
			if prev != nil {
				return prev(c, args)
			}
			return nil
		}
	}
}
