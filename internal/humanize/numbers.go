package humanize

import (
	"regexp"
	"strconv"
	"strings"
)

// The project's one number style, for tables, progress lines, verdicts and
// prose alike: integers in full with thousands commas from 1,000 up
// (4,730,104,929; never 2.77e+09 beside it), and a number too large or too
// small for that as a mantissa times a power of ten, 5.27·10²⁰ and
// 4.9·10⁻⁵ (never 5.27e+20 or 4.9e-05).

// Int writes n in full with thousands commas from 1,000 up: 999, 1,000,
// -12,345, 4,730,104,929.
func Int(n int64) string { return Commas(strconv.FormatInt(n, 10)) }

// Commas puts thousands commas into the integer part of a decimal number
// as strconv or fmt writes it, from 1,000 up: "1234.5" is "1,234.5",
// "-12345" is "-12,345", "999.99" stays. Anything else (an exponent form,
// a word) is returned as it is.
func Commas(s string) string {
	sign, rest := "", s
	if rest != "" && (rest[0] == '-' || rest[0] == '+') {
		sign, rest = rest[:1], rest[1:]
	}
	intPart, frac, dot := strings.Cut(rest, ".")
	if len(intPart) < 4 || strings.Trim(intPart, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return s
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// Power10 writes 10^k as 10 with a superscript exponent: 10⁰, 10⁵, 10⁻².
func Power10(k int) string {
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	var b strings.Builder
	b.WriteString("10")
	if k < 0 {
		b.WriteRune('⁻')
		k = -k
	}
	for _, c := range strconv.Itoa(k) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}

// exponent is a number as strconv and fmt write one with an exponent: a
// mantissa, 'e', a sign and at least two digits (4.9e-05, 5.27e+20,
// -1e+16); hexadecimal IDs (9446cda5e497) have no sign after their e.
var exponent = regexp.MustCompile(`(^|[^\w.-])(-?)(\d+(?:\.\d+)?)e([-+]\d{2,})\b`)

// Sci rewrites every number of s written with an exponent as a mantissa
// times a power of ten: "4.9e-05" is "4.9·10⁻⁵", "5.27e+20" "5.27·10²⁰",
// "1e-12" "10⁻¹²"; the rest of s is left as it is. It is how a number
// formatted with %g, %e or strconv's 'g' is shown.
func Sci(s string) string {
	if !strings.Contains(s, "e") {
		return s
	}
	return exponent.ReplaceAllStringFunc(s, func(m string) string {
		g := exponent.FindStringSubmatch(m)
		k, err := strconv.Atoi(g[4])
		if err != nil {
			return m
		}
		if g[3] == "1" {
			return g[1] + g[2] + Power10(k)
		}
		return g[1] + g[2] + g[3] + "·" + Power10(k)
	})
}
