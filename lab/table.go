package lab

import (
	"fmt"
	"html"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hatelab/hatelab/internal/humanize"
)

// Table is a table of text cells. Show displays it as an HTML table in a
// notebook and as aligned plain text elsewhere.
type Table struct {
	// Title is shown above the table (optional).
	Title   string
	Headers []string
	Rows    [][]string
	// Right marks right-aligned (numeric) columns.
	Right []bool
}

// NewTable starts an empty table with the given headers; fill it with Add.
func NewTable(headers ...string) *Table {
	return &Table{Headers: headers, Right: make([]bool, len(headers))}
}

// Add appends a row, formatting each value as TableOf does; numeric values
// right-align their column.
func (t *Table) Add(values ...any) *Table {
	row := make([]string, len(values))
	for i, v := range values {
		rv := reflect.ValueOf(v)
		row[i] = formatCell(rv, "")
		if i < len(t.Right) && isNumeric(rv) {
			t.Right[i] = true
		}
	}
	t.Rows = append(t.Rows, row)
	return t
}

// TableOf builds a table from a slice (or array) of structs or pointers to
// structs: one column per exported field, in order, promoted fields of
// embedded structs included. A field's `lab` tag renames and formats its
// column: `lab:"Header"`, `lab:"Header,%.2f"`, `lab:",%d lines"` (keeps the
// field name), or `lab:"-"` to leave the field out. Floats print with 4
// significant digits unless a format is given, durations rounded to the
// millisecond, and values with a String method through it. A slice of
// non-structs gives one column "value"; any other value one cell.
func TableOf(rows any) *Table {
	v := reflect.ValueOf(rows)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		t := NewTable("value")
		t.Rows = [][]string{{formatCell(v, "")}}
		return t
	}
	et := v.Type().Elem()
	for et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct {
		t := NewTable("value")
		for i := 0; i < v.Len(); i++ {
			t.Add(v.Index(i).Interface())
		}
		return t
	}
	type col struct {
		index  []int
		format string
	}
	var cols []col
	t := &Table{}
	for _, f := range reflect.VisibleFields(et) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		tag := f.Tag.Get("lab")
		if tag == "-" {
			continue
		}
		name, format, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		cols = append(cols, col{f.Index, format})
		t.Headers = append(t.Headers, name)
		t.Right = append(t.Right, isNumericKind(f.Type))
	}
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		for e.Kind() == reflect.Pointer {
			if e.IsNil() {
				break
			}
			e = e.Elem()
		}
		row := make([]string, len(cols))
		if e.Kind() == reflect.Struct {
			for j, c := range cols {
				fv, err := e.FieldByIndexErr(c.index)
				if err == nil {
					row[j] = formatCell(fv, c.format)
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

func isNumericKind(t reflect.Type) bool {
	if t == durationType {
		return true
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return !t.Implements(stringerType)
	}
	return false
}

func isNumeric(v reflect.Value) bool { return v.IsValid() && isNumericKind(v.Type()) }

func formatCell(v reflect.Value, format string) string {
	if !v.IsValid() {
		return ""
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		if format == "" && !v.Type().Implements(stringerType) {
			return formatCell(v.Elem(), format)
		}
	}
	if !v.CanInterface() {
		return fmt.Sprint(v)
	}
	x := v.Interface()
	if k := v.Kind(); (k == reflect.Float32 || k == reflect.Float64) && !v.Type().Implements(stringerType) {
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Num(f) // never NaN or +Inf through a format
		}
		if format != "" {
			if math.Abs(f) < noise {
				f = 0
			}
			s := fmt.Sprintf(format, f)
			if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.,% ") == "" {
				s = s[1:] // -0.00 is 0.00
			}
			return numberStyle(s)
		}
		return Num(f)
	}
	if format != "" {
		if isNumeric(v) {
			return numberStyle(fmt.Sprintf(format, x))
		}
		return fmt.Sprintf(format, x)
	}
	if d, ok := x.(time.Duration); ok {
		return d.Round(time.Millisecond).String()
	}
	if s, ok := x.(fmt.Stringer); ok {
		return s.String()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if u := v.Uint(); u <= math.MaxInt64 {
			return Int(int64(u))
		}
	}
	return fmt.Sprint(x)
}

// noise is the magnitude below which a table's float is rounding noise of
// a zero (a spread of equal values, 1.78e-15), shown as 0.
const noise = 1e-12

// Denoise returns 0 for a float of magnitude below 1e-12 (rounding noise
// of a zero, such as a σ of 1.78e-15 or a coefficient of -1.3e-15, and
// -0), and f otherwise: for numbers formatted with fmt verbs.
func Denoise(f float64) float64 {
	if math.Abs(f) < noise {
		return 0
	}
	return f
}

// Num formats a float for a table cell or a sentence: 4 significant
// digits; whole numbers and numbers of 10,000 or more in full, with
// thousands commas from 1,000 up (1,235 for 1234.6, 12,073, 2,770,000,000: never
// 2.77e+09 beside 4,730,104,929); from 10¹⁸ up and below 10⁻⁴ as a power
// of ten (5.27·10²⁰, 1.5·10⁻⁵: never 5.27e+20); magnitudes below 10⁻¹²
// (float noise) as 0; NaN as "–" (no value), infinities as ∞ and −∞.
// Tables of TableOf and Add use it.
func Num(f float64) string {
	switch {
	case math.IsNaN(f):
		return "–"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "−∞"
	case math.Abs(f) < noise:
		return "0"
	case math.Abs(f) >= 1e4 && math.Abs(f) < 1e18, f == math.Trunc(f) && math.Abs(f) < 1e18:
		return Int(int64(math.Round(f)))
	}
	return numberStyle(strconv.FormatFloat(f, 'g', 4, 64))
}

// Sig formats f rounded to digits significant digits (1 to 17) as Num
// writes numbers: 2.7712e9 to 3 digits is 2,770,000,000, 5.2713e20 is
// 5.27·10²⁰, 0.057123 is 0.0571. It is how an estimate shows only the
// digits it has.
func Sig(f float64, digits int) string {
	digits = min(max(digits, 1), 17)
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) < noise {
		return Num(f)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', digits, 64), 64)
	if math.Abs(r) >= 1e18 || r != math.Trunc(r) {
		return numberStyle(strconv.FormatFloat(r, 'g', digits, 64))
	}
	return Int(int64(r))
}

// Fixed formats f with decimals digits after the point and thousands
// commas (20,239.0): as a `lab:",%.1f"` tag formats a cell.
func Fixed(f float64, decimals int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Num(f)
	}
	s := strconv.FormatFloat(Denoise(f), 'f', max(decimals, 0), 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:] // -0.0 is 0.0
	}
	return numberStyle(s)
}

// Int formats an integer for a table cell or a sentence: in full, with
// thousands commas from 1,000 up (999, 1,000, 4,730,104,929; a year is
// text, not a number to format).
func Int(n int64) string { return humanize.Int(n) }

// numberStyle writes a number as strconv or fmt formatted it in the lab's
// style: thousands commas, and an exponent as a power of ten (Num); any
// other text (a unit after the number) is kept.
func numberStyle(s string) string {
	lead := leadingNumber.FindString(s)
	return humanize.Sci(humanize.Commas(lead) + s[len(lead):])
}

// leadingNumber is the plain decimal number that a formatted cell starts
// with ("1234.5 lines", "-0.05", "+12.00").
var leadingNumber = regexp.MustCompile(`^[-+]?\d+(?:\.\d+)?`)

// HTML renders the table as an HTML <table>.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString(`<table style="border-collapse:collapse">`)
	if t.Title != "" {
		fmt.Fprintf(&b, `<caption style="font-weight:bold;text-align:left">%s</caption>`, html.EscapeString(t.Title))
	}
	b.WriteString("<thead><tr>")
	for i, h := range t.Headers {
		fmt.Fprintf(&b, `<th style="text-align:%s">%s</th>`, t.align(i), html.EscapeString(h))
	}
	b.WriteString("</tr></thead><tbody>")
	for _, row := range t.Rows {
		b.WriteString("<tr>")
		for i, c := range row {
			fmt.Fprintf(&b, `<td style="text-align:%s">%s</td>`, t.align(i), NoBreakNumbers(html.EscapeString(c)))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func (t *Table) align(i int) string {
	if i < len(t.Right) && t.Right[i] {
		return "right"
	}
	return "left"
}

// Text renders the table as aligned plain text with a header rule.
func (t *Table) Text() string {
	n := len(t.Headers)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	width := make([]int, n)
	cell := func(r []string, i int) string {
		if i < len(r) {
			return r[i]
		}
		return ""
	}
	for i := 0; i < n; i++ {
		width[i] = utf8.RuneCountInString(cell(t.Headers, i))
		for _, r := range t.Rows {
			width[i] = max(width[i], utf8.RuneCountInString(cell(r, i)))
		}
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(t.Title + "\n")
	}
	line := func(r []string) {
		var l strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				l.WriteString("  ")
			}
			c := cell(r, i)
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if t.align(i) == "right" {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(t.Headers)
	rule := make([]string, n)
	for i := range rule {
		rule[i] = strings.Repeat("-", width[i])
	}
	line(rule)
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}

// String is Text.
func (t *Table) String() string { return t.Text() }

// numberToken is a number as the lab writes one (a sign, thousands commas,
// a decimal point, an exponent or a power of ten, 5.27·10²⁰, a unit's
// percent sign), or an interval of two ([+0.29, +0.51]).
// A bound's comparison stays with its number ("< 10⁻¹²" is one token: the
// Holm column of 06's tables broke after "<"); a unit's prefix (182.2k,
// 1.5M) stays with its number, and a range a..b is one token (05's
// prediction intervals, "182.2k .. 216.3k", broke at their "..").
var numberToken = regexp.MustCompile(`\[\s*` + numberRE + `\s*,\s*` + numberRE + `\s*\]|(?:(?:&lt;|&gt;|\x{2264}|\x{2265})=?\s?)?` +
	numberU + `(?:\s?\.\.\s?` + numberU + `)?`)

// numberU is a number with a unit's prefix (k, M, G) written against it.
const numberU = numberRE + `(?:[kMG]\b)?`

const numberRE = `[-+\x{2212}]?\d[\d,]*(?:\.\d+)?(?:[eE][-+\x{2212}]?\d+|\s?[×·]\s?10` + superscripts + `|` + superscripts + `)?%?`

// superscripts is a superscript exponent (⁻¹², ²⁰): 10⁻¹² is one number.
const superscripts = `[\x{207b}\x{2070}-\x{2079}\x{00b9}\x{00b2}\x{00b3}]+`

// NoBreakNumbers wraps every number of an HTML text of more than one
// character, and every interval [a, b], in a span that the browser never
// breaks across lines: a narrow table cell shows "p = 2.3e-5", never
// "p = 2.3e-" over "5" (the browser may break after a minus sign, and
// anywhere in a box with overflow-wrap: anywhere).
func NoBreakNumbers(escaped string) string {
	var b strings.Builder
	last := 0
	for _, m := range numberToken.FindAllStringIndex(escaped, -1) {
		// A sign after a letter or digit is a hyphen (gen-05): not the number's.
		if r, _ := utf8.DecodeLastRuneInString(escaped[:m[0]]); m[0] > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) &&
			strings.ContainsAny(escaped[m[0]:m[0]+1], "+-") {
			m[0]++
		}
		// Not the digits of a character reference (&#39;), nor one character.
		if m[1]-m[0] < 2 || strings.HasSuffix(escaped[:m[0]], "&#") {
			continue
		}
		b.WriteString(escaped[last:m[0]])
		b.WriteString(`<span style="white-space:nowrap">` + escaped[m[0]:m[1]] + `</span>`)
		last = m[1]
	}
	b.WriteString(escaped[last:])
	return b.String()
}
