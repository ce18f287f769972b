package main

import (
	"fmt"
	"strconv"

	"github.com/hatelab/hatelab/internal/clip"
	"github.com/spf13/cobra"
)

// decimalValue is a flag value (pflag.Value) for an integer flag that reads only plain
// decimal: pflag's own integer flags take 010 for octal 8 and 0x10 for 16.
// A sign is allowed only for a negative value, and leading zeros are
// refused (010 is neither 8 nor silently 10).
type decimalValue[T int | int64] struct{ p *T }

// decimalVar defines an integer flag of cmd read as plain decimal
// (decimalValue).
func decimalVar[T int | int64](cmd *cobra.Command, p *T, name string, value T, usage string) {
	*p = value
	cmd.Flags().Var(decimalValue[T]{p}, name, usage)
}

func (d decimalValue[T]) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*d.p), 10)
}

func (d decimalValue[T]) Type() string { return "int" }

func (d decimalValue[T]) Set(s string) error {
	v, err := parseDecimal(s)
	if err != nil {
		return err
	}
	if int64(T(v)) != v {
		return fmt.Errorf("%d is out of range", v)
	}
	*d.p = T(v)
	return nil
}

// parseDecimal reads a plain decimal integer: an optional '-' and digits,
// without leading zeros.
func parseDecimal(s string) (int64, error) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if digits == "" {
		return 0, fmt.Errorf("not a decimal integer")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Errorf("not a decimal integer")
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return 0, fmt.Errorf("leading zeros are not allowed (010 is not read as octal)")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("out of range")
	}
	return v, nil
}

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
