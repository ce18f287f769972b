package main

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/replaycodec"
	"github.com/spf13/cobra"
)

func init() {
	rootCmd.AddCommand(newEncodeCmd(), newDecodeCmd())
}

func newEncodeCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "encode [--format base2048|base65536|hex|raw] KEYS",
		Short: "Encode keystrokes (L R D U) as a HATETRIS replay",
		Long: `Encode a keystroke string (only the letters L, R, D, U) as a HATETRIS replay.
KEYS is the keys themselves, @FILE for the contents of FILE, or - for standard
input; white space around them is ignored. The default format, base2048, is
what the game prints today; base65536 and hex are the 2015 and 2010 formats.`,
		Example: `  hatelab encode DDDRUD                 # ਹԇ
  hatelab encode --format hex DDDRUD    # A9E`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, in, err := formatAndInput(format, args[0])
			if err != nil {
				return err
			}
			out, err := replaycodec.Encode(f, strings.TrimSpace(in))
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintln(cmd.OutOrStdout(), out); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "base2048", "replay format: base2048, base65536, hex or raw")
	return cmd
}

func newDecodeCmd() *cobra.Command {
	var (
		format     string
		showFormat bool
	)
	cmd := &cobra.Command{
		Use:   "decode [--format auto|base2048|base65536|hex|raw] REPLAY",
		Short: "Decode a HATETRIS replay into its keystrokes",
		Long: `Decode a HATETRIS replay and print its keystrokes (L R D U).
REPLAY is the replay itself, @FILE for the contents of FILE, or - for standard
input. With --format auto (the default) the format is recognised as the game
does: raw if only L R D U, hex if only 0-9 A-F # and spaces, Base65536 if it
decodes as such, Base2048 otherwise. Decoding reproduces the game's padding:
an odd hex replay ends with an extra D, a Base65536 or Base2048 replay with an
odd number of runs with an extra L.`,
		Example: `  hatelab decode ਹԇ                     # DDDRUD
  hatelab decode --show-format @replay.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, in, err := formatAndInput(format, args[0])
			if err != nil {
				return err
			}
			keys, got, err := replaycodec.AppendDecode(nil, f, in)
			if err != nil {
				return err
			}
			if showFormat {
				if _, err := fmt.Fprintf(cmd.ErrOrStderr(), "format: %v, %d keys\n", got, len(keys)); err != nil {
					return failure(err)
				}
			}
			if _, err := fmt.Fprintf(cmd.OutOrStdout(), "%s\n", keys); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "auto", "replay format: auto, base2048, base65536, hex or raw")
	cmd.Flags().BoolVar(&showFormat, "show-format", false, "print the format that was decoded and the number of keys on standard error")
	return cmd
}

// formatAndInput validates a --format flag and reads the argument (text,
// @FILE or - for standard input).
func formatAndInput(format, arg string) (replaycodec.Format, string, error) {
	f, err := replaycodec.ParseFormat(format)
	if err != nil {
		return f, "", err
	}
	in, err := readArg(arg)
	return f, in, err
}
