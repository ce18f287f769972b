package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hatelab/hatelab/engine/nnue"
)

// newNNUEPositionalCmd writes the positional copy of a shared network.
func newNNUEPositionalCmd() *cobra.Command {
	var out, name string
	cmd := &cobra.Command{
		Use:   "positional --out FILE SHARED.hlnn",
		Short: "Write the positional (D&F) network equal in value to a shared (knewjade) one: a start for learning weights per position",
		Long: `Write the network with positional features (D&F's layout: one weight row per
position and pattern) whose value equals the given shared network's (knewjade's
layout: one row per pattern wherever it lies) on every well: each positional row
is a copy of the shared row of its pattern (engine/nnue.ToPositional), so it
plays exactly as the shared network does, int16 network included. Training
from it ('hatelab nnue cycle --start FILE') can then learn weights per position
without starting from random ones. The file is about 86 times as large (F =
442,368 rows against 5,120 at 10x16).`,
		Example: `  hatelab nnue positional --out gen-03-positional.hlnn datasets/weights/teacher/gen-03.hlnn`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out FILE is required")
			}
			if err := checkCombinedOut(out, args, "copied"); err != nil {
				return err
			}
			n, err := nnue.Load(args[0])
			if err != nil {
				return err
			}
			p, err := nnue.ToPositional(n)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			p.Header.Name = name
			if name == "" {
				base := n.Header.Name
				if base == "" {
					base = strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))
				}
				p.Header.Name = base + "-positional"
			}
			p.Header.Generation = n.Header.Generation
			p.Header.Provenance = fmt.Sprintf("hatelab nnue positional: the positional copy of %s (crc %08x), equal in value on every well; its provenance: %s", args[0], n.Header.CRC32, n.Header.Provenance)
			q, err := nnue.Quantize(p, p.Header.QA, p.Header.QB)
			if err != nil {
				return err
			}
			if err := nnue.Save(out, p); err != nil {
				return failure(err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s\n", out, q)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "weights file to write (.hlnn)")
	f.StringVar(&name, "name", "", "network name recorded in the file (default: the shared network's name, or its file's, and -positional)")
	return cmd
}
