package lab

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
)

// SVG is an SVG document. Show displays it as a real image/svg+xml output.
type SVG string

// HTML is an HTML fragment.
type HTML string

// PNG is an encoded PNG image.
type PNG []byte

// Markdown is Markdown text.
type Markdown string

// Rich is implemented by values that have both a notebook (HTML) and a plain
// text form, such as *Table.
type Rich interface {
	HTML() string
	Text() string
}

// Stdout is where Show writes outside a notebook.
var Stdout io.Writer = os.Stdout

// InNotebook reports whether the program runs inside a GoNB notebook cell
// (GoNB sets GONB_PIPE for the programs it runs).
func InNotebook() bool { return gonbui.IsNotebook }

// Show displays each item in turn: SVG, HTML, PNG and Markdown as rich
// outputs, a Rich value (e.g. *Table) as HTML, a *plot.Plot as an SVG chart
// (use ShowPlot to also save it), an error as a red message, anything else
// as its fmt.Print text. Outside a notebook, Show prints text: a Rich
// value's Text, Markdown as is, and a one-line note for images.
func Show(items ...any) {
	for _, it := range items {
		show(it)
	}
}

func show(it any) {
	maybeQuickBanner()
	nb := InNotebook()
	switch v := it.(type) {
	case SVG:
		if nb {
			gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{protocol.MIMEImageSVG: responsive(string(v))}})
			// Wait until GoNB has the picture: a cell whose program ends
			// right after it was seen, rarely, to lose it.
			gonbui.Sync()
		} else {
			w, h := svgSize(string(v))
			fmt.Fprintf(Stdout, "[SVG image %gx%g, %d bytes]\n", w, h, len(v))
		}
	case HTML:
		if nb {
			gonbui.DisplayHTML(string(v))
			gonbui.Sync()
		} else {
			fmt.Fprintln(Stdout, string(v))
		}
	case PNG:
		if nb {
			gonbui.DisplayPNG(v)
			gonbui.Sync()
		} else {
			fmt.Fprintf(Stdout, "[PNG image, %d bytes]\n", len(v))
		}
	case Markdown:
		if nb {
			gonbui.DisplayMarkdown(keepTogether(string(v)))
			gonbui.Sync()
		} else {
			fmt.Fprintln(Stdout, string(v))
		}
	case Rich:
		if nb {
			gonbui.DisplayHTML(v.HTML())
			// Wait until GoNB has it: a cell's last table was, at times,
			// lost when the program ended right after it.
			gonbui.Sync()
		} else {
			fmt.Fprint(Stdout, v.Text())
		}
	case *plot.Plot:
		svg, err := PlotSVG(v, 0, 0)
		if err != nil {
			show(err)
			return
		}
		show(svg)
	case error:
		if nb {
			gonbui.DisplayHTML(`<div style="color:#b00020;font-family:monospace;white-space:pre-wrap">` + html.EscapeString(v.Error()) + `</div>`)
		} else {
			fmt.Fprintln(os.Stderr, "error:", v)
		}
	default:
		fmt.Fprintln(Stdout, v)
	}
}

// Check stops a notebook cell on an error: in a notebook it shows the
// error and exits the cell's program with status 1, so the cell fails (and
// `make test` with it); elsewhere it panics. A nil error does nothing.
func Check(err error) {
	if err == nil {
		return
	}
	if InNotebook() {
		show(err)
		gonbui.Sync()
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	panic(err)
}

// Must returns v, or stops the cell as Check does when err is not nil:
// recs := lab.Must(records.Load(nil)).
func Must[T any](v T, err error) T {
	Check(err)
	return v
}

// CopyBox is long text, such as a Base2048 replay, in a box that wraps
// anywhere (word-break: break-all) instead of running past the cell's
// right edge, and that one click selects whole for copying; label is a
// line above it ("" for none):
//
//	lab.Show(lab.CopyBox("replay (Base2048)", replay))
func CopyBox(label, text string) HTML {
	var b strings.Builder
	b.WriteString(`<div style="margin:4px 0;max-width:100%">`)
	if label != "" {
		b.WriteString(`<div style="font-size:12px;color:#555;margin-bottom:2px">` + html.EscapeString(label) + `</div>`)
	}
	b.WriteString(`<div class="hatelab-copy" title="click to select all" style="font-family:monospace;font-size:12px;` +
		`word-break:break-all;overflow-wrap:anywhere;white-space:pre-wrap;user-select:all;-webkit-user-select:all;` +
		`border:1px solid #ccc;border-radius:3px;background:#f7f7f7;padding:4px 6px;box-sizing:border-box;max-width:100%">`)
	b.WriteString(html.EscapeString(text))
	b.WriteString(`</div></div>`)
	return HTML(b.String())
}

// Note shows a one-line remark (a fit skipped and why) as wrapping text
// that breaks between words, never mid-word as a stream output does, and
// only once per notebook session however many cells or calls repeat it
// (once per program outside a notebook, on standard output).
func Note(text string) {
	notes.Lock()
	seen := notes.seen[text]
	if notes.seen == nil {
		notes.seen = map[string]bool{}
	}
	notes.seen[text] = true
	notes.Unlock()
	if seen {
		return
	}
	if !InNotebook() {
		fmt.Fprintln(Stdout, text)
		return
	}
	if dir := os.Getenv("GONB_TMP_DIR"); dir != "" {
		sum := sha256.Sum256([]byte(text))
		f, err := os.OpenFile(filepath.Join(dir, "hatelab-note-"+hex.EncodeToString(sum[:8])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return // shown already in this kernel
		}
		f.Close()
	}
	show(HTML(`<div class="hatelab-note" style="font-size:13px;color:#444;white-space:normal;overflow-wrap:break-word;word-break:normal">` +
		NoBreakNumbers(html.EscapeString(text)) + `</div>`))
}

var notes struct {
	sync.Mutex
	seen map[string]bool
}

// intervalSpace is the space after the comma of an interval [a, b].
var intervalSpace = regexp.MustCompile(`(\[\s*` + numberRE + `),\s+(` + numberRE + `\s*\])`)

// boundSpace is the space between a comparison sign (<, >, ≤, ≥, <=, >=,
// HTML-escaped or not) and the number after it; a sign that starts a line
// (a blockquote's ">") or ends another operator (->, <<, &lt;&lt;) is not
// a comparison.
var boundSpace = regexp.MustCompile(`([^-=<>!:;\n])(&lt;=?|&gt;=?|[<>\x{2264}\x{2265}]=?) +([-+\x{2212}]?\d)`)

// keepTogether joins, with a no-break space, the two ends of every interval
// [a, b] of a Markdown text (in code spans too) and every comparison sign
// with its number ("p ≥ 0.05") outside code, so that the browser never
// breaks them across lines ([+0.29, / +0.51], "p ≥" / "0.05"); Markdown has
// no other way to say so. Code (fenced, or inline) keeps its spaces: a
// no-break space copied into Go code does not compile. mknb.py's
// keep_bounds does the same to the notebooks' own Markdown.
func keepTogether(md string) string {
	md = intervalSpace.ReplaceAllString(md, "$1,\u00a0$2")
	return outsideCode(md, func(prose string) string { return boundSpace.ReplaceAllString(prose, "$1$2\u00a0$3") })
}

// outsideCode applies f to the parts of a Markdown text outside fenced
// blocks (``` or ~~~ at a line's start, to the closing fence of the same
// kind or the end) and inline code (a run of backticks to the next run of
// the same length), and returns the text with the code as it was.
func outsideCode(md string, f func(string) string) string {
	var b, prose strings.Builder
	flush := func() {
		b.WriteString(inlineOutside(prose.String(), f))
		prose.Reset()
	}
	fence := ""
	for _, line := range strings.SplitAfter(md, "\n") {
		t := strings.TrimLeft(line, " ")
		mark := ""
		if len(line)-len(t) <= 3 {
			for _, c := range []string{"```", "~~~"} {
				if strings.HasPrefix(t, c) {
					mark = t[:len(t)-len(strings.TrimLeft(t, c[:1]))]
				}
			}
		}
		switch {
		case fence == "" && mark != "":
			flush()
			fence = mark
			b.WriteString(line)
		case fence != "":
			b.WriteString(line)
			if mark != "" && mark[0] == fence[0] && len(mark) >= len(fence) && strings.TrimSpace(t[len(mark):]) == "" {
				fence = ""
			}
		default:
			prose.WriteString(line)
		}
	}
	flush()
	return b.String()
}

// inlineOutside applies f to the parts of text outside inline code spans.
func inlineOutside(text string, f func(string) string) string {
	var b strings.Builder
	last := 0
	// runs lists each run of backticks from i on: its start and end.
	run := func(i int) (int, int) {
		for i < len(text) && text[i] != '`' {
			i++
		}
		j := i
		for j < len(text) && text[j] == '`' {
			j++
		}
		return i, j
	}
	for i, j := run(0); i < len(text); i, j = run(j) {
		// The span closes at the next run of the same length.
		k, l := run(j)
		for k < len(text) && l-k != j-i {
			k, l = run(l)
		}
		if k == len(text) {
			continue // no closing run: the backticks are text
		}
		b.WriteString(f(text[last:i]))
		b.WriteString(text[i:l])
		last, j = l, l
	}
	b.WriteString(f(text[last:]))
	return b.String()
}
