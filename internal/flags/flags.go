// Package flags defines the command-line flags that hatelab (cmd/hatelab)
// and hatelab-beam (dist/cmd/hatelab-beam) share, so that both CLIs parse
// them alike: the value type of every integer flag (plain decimal only)
// and the register functions of the flags both have (the beam width, the
// well's width, depth and bar, workers), with their names, defaults and
// deprecated aliases defined once.
//
// The rule for integers: an optional '-' and decimal digits, without
// leading zeros. pflag's own integer flags read 010 as octal 8 and 0x10
// as 16, and Go's strconv.Atoi reads 010 as 10; here 010 is refused with
// an error that says why, so that no CLI reads it as 8 and none silently
// as 10.
//
// dist/ is a module of its own (github.com/hatelab/hatelab/dist) whose
// path lies under this module's, so Go's internal rule lets it import
// this package (it takes the main module through a replace directive).
package flags

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// Integer is the set of integer types a Decimal flag can hold.
type Integer interface {
	~int | ~int64 | ~uint64
}

// Decimal is a pflag.Value of an integer flag read as plain decimal
// (ParseDecimal); the zero value is not usable: make it with DecimalVar.
type Decimal[T Integer] struct{ p *T }

// DecimalVar defines the integer flag name of fs, read as plain decimal,
// with default value, storing into p.
func DecimalVar[T Integer](fs *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(Decimal[T]{p}, name, usage)
}

// Alias defines old as a deprecated alias of the integer flag name of
// fs (already defined, storing into p): it sets the same value, is
// hidden from the help, and prints a deprecation note when used.
func Alias[T Integer](fs *pflag.FlagSet, p *T, old, name string) {
	fs.Var(Decimal[T]{p}, old, "old name of --"+name)
	// MarkDeprecated fails only for an undefined flag, defined just above.
	_ = fs.MarkDeprecated(old, "use --"+name)
}

func (d Decimal[T]) String() string {
	if d.p == nil {
		return "0"
	}
	if unsigned[T]() {
		return strconv.FormatUint(uint64(*d.p), 10)
	}
	return strconv.FormatInt(int64(*d.p), 10)
}

// Type names the flag's type in the help.
func (d Decimal[T]) Type() string {
	if unsigned[T]() {
		return "uint"
	}
	return "int"
}

// Set reads s as plain decimal into the flag's variable.
func (d Decimal[T]) Set(s string) error {
	if err := checkDigits(s); err != nil {
		return err
	}
	if unsigned[T]() {
		if len(s) > 0 && s[0] == '-' {
			return fmt.Errorf("not a decimal integer of 0 or more")
		}
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || uint64(T(v)) != v {
			return fmt.Errorf("out of range")
		}
		*d.p = T(v)
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || int64(T(v)) != v {
		return fmt.Errorf("out of range")
	}
	*d.p = T(v)
	return nil
}

// Decimals is a pflag.Value of a list flag of integers, comma-separated,
// each read as plain decimal (ParseDecimal); the zero value is not
// usable: make it with DecimalsVar. Setting it replaces the default; a
// flag given twice appends.
type Decimals[T Integer] struct {
	p   *[]T
	set *bool
}

// DecimalsVar defines the integer list flag name of fs ("1000,10000"),
// with default value, storing into p.
func DecimalsVar[T Integer](fs *pflag.FlagSet, p *[]T, name string, value []T, usage string) {
	*p = append([]T(nil), value...)
	fs.Var(Decimals[T]{p, new(bool)}, name, usage)
}

// DecimalsAlias defines old as a deprecated alias of the list flag name
// of fs (already defined, storing into p), as Alias does for one integer.
func DecimalsAlias[T Integer](fs *pflag.FlagSet, p *[]T, old, name string) {
	fs.Var(Decimals[T]{p, new(bool)}, old, "old name of --"+name)
	_ = fs.MarkDeprecated(old, "use --"+name)
}

func (d Decimals[T]) String() string {
	if d.p == nil {
		return "[]"
	}
	return "[" + strings.Join(d.GetSlice(), ",") + "]"
}

// GetSlice returns the values as decimal strings (pflag.SliceValue).
func (d Decimals[T]) GetSlice() []string {
	out := make([]string, len(*d.p))
	for i, v := range *d.p {
		out[i] = Decimal[T]{&v}.String()
	}
	return out
}

// Append adds one value (pflag.SliceValue).
func (d Decimals[T]) Append(s string) error {
	var v T
	if err := (Decimal[T]{&v}).Set(s); err != nil {
		return err
	}
	*d.p = append(*d.p, v)
	return nil
}

// Replace replaces the values (pflag.SliceValue).
func (d Decimals[T]) Replace(ss []string) error {
	vs := make([]T, len(ss))
	for i, s := range ss {
		if err := (Decimal[T]{&vs[i]}).Set(s); err != nil {
			return err
		}
	}
	*d.p = vs
	return nil
}

// Type names the flag's type in the help.
func (d Decimals[T]) Type() string { return Decimal[T]{}.Type() + "s" }

// Set reads s, comma-separated plain decimals, into the flag's list.
func (d Decimals[T]) Set(s string) error {
	var vs []T
	for _, f := range strings.Split(s, ",") {
		var v T
		if err := (Decimal[T]{&v}).Set(strings.TrimSpace(f)); err != nil {
			return fmt.Errorf("%q: %v", f, err)
		}
		vs = append(vs, v)
	}
	if !*d.set {
		*d.p, *d.set = nil, true
	}
	*d.p = append(*d.p, vs...)
	return nil
}

// unsigned reports whether T is an unsigned type.
func unsigned[T Integer]() bool {
	var zero T
	return zero-1 > zero
}

// ParseDecimal reads a plain decimal integer: an optional '-' and digits,
// without leading zeros ("010" is an error, neither 8 nor 10).
func ParseDecimal(s string) (int64, error) {
	if err := checkDigits(s); err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("out of range")
	}
	return v, nil
}

// ParseUnsigned reads a plain decimal integer of 0 or more, without
// leading zeros or a sign: the flags' rule for integers inside specs
// (suites, arms).
func ParseUnsigned(s string) (uint64, error) {
	if strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("not a whole number of 0 or more")
	}
	if err := checkDigits(s); err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("out of range")
	}
	return v, nil
}

// checkDigits checks that s is an optional '-' and decimal digits without
// a leading zero.
func checkDigits(s string) error {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if digits == "" {
		return fmt.Errorf("not a decimal integer")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return fmt.Errorf("not a decimal integer")
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return fmt.Errorf("leading zeros are not allowed (010 is not read as octal)")
	}
	return nil
}

// The names of the flags both CLIs have.
const (
	BeamWidthFlag = "beam-width"
	WellWidthFlag = "well-width"
	WellDepthFlag = "well-depth"
	BarFlag       = "bar"
	WorkersFlag   = "workers"
)

// MaxBeamWidth is the largest --beam-width (engine/beam's limit).
const MaxBeamWidth = 1<<24 - 1

// BeamWidth defines --beam-width (the wells a beam search keeps at each
// level) with default value.
func BeamWidth(fs *pflag.FlagSet, p *int, value int, usage string) {
	DecimalVar(fs, p, BeamWidthFlag, value, usage)
}

// CheckBeamWidth refuses a beam width outside 1..MaxBeamWidth, naming
// flag.
func CheckBeamWidth(flag string, v int) error {
	if v < 1 || v > MaxBeamWidth {
		return fmt.Errorf("--%s %d: want 1 to %d", flag, v, MaxBeamWidth)
	}
	return nil
}

// Well holds the flags of a well's geometry: --well-width (its columns),
// --well-depth (all its rows, bar rows included) and --bar (the rows
// above the bar).
type Well struct{ Width, Depth, Bar int }

// WellVars defines --well-width, --well-depth and --bar with the real
// game's 10, 20 and 4; oldWidth, when not empty, is kept as a deprecated
// alias of --well-width (a command's former name for it, --width).
func WellVars(fs *pflag.FlagSet, w *Well, oldWidth string) {
	DecimalVar(fs, &w.Width, WellWidthFlag, 10, "well width in columns (4..16)")
	if oldWidth != "" {
		Alias(fs, &w.Width, oldWidth, WellWidthFlag)
	}
	DecimalVar(fs, &w.Depth, WellDepthFlag, 20, "well depth in rows, bar rows included (at most 16 below the bar)")
	DecimalVar(fs, &w.Bar, BarFlag, 4, "rows above the bar")
}

// WellWidth defines --well-width alone (for the commands whose well is
// given by its width and a height below the bar), with oldWidth as a
// deprecated alias when not empty.
func WellWidth(fs *pflag.FlagSet, p *int, value int, usage, oldWidth string) {
	DecimalVar(fs, p, WellWidthFlag, value, usage)
	if oldWidth != "" {
		Alias(fs, p, oldWidth, WellWidthFlag)
	}
}

// Workers defines --workers (goroutines; 0: all cores) with default
// value.
func Workers(fs *pflag.FlagSet, p *int, value int, usage string) {
	DecimalVar(fs, p, WorkersFlag, value, usage)
}
