package lab

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/janpfeifer/gonb/gonbui"
)

// The quick-mode banner: in quick mode, the first output a notebook
// session shows (through Show, ShowPlot, Progress ...) is preceded by a
// banner saying that the numbers below are quick-mode numbers, with the
// parameters the notebook chose by Pick (quick and full values), so that a
// reader never takes a quick table for the full-mode one the text quotes.
// A session is a GoNB kernel: the banner is shown once per kernel (a marker
// file in GoNB's per-kernel folder, GONB_TMP_DIR), not once per cell.

var quick struct {
	sync.Mutex
	picks [][2]string // quick, full, in the order chosen, without repeats
	shown bool        // the banner was shown by this program
}

// maxPicks bounds the pairs the banner lists.
const maxPicks = 24

func notePick(q, f string) {
	quick.Lock()
	defer quick.Unlock()
	for _, p := range quick.picks {
		if p == [2]string{q, f} {
			return
		}
	}
	if len(quick.picks) < maxPicks {
		quick.picks = append(quick.picks, [2]string{q, f})
	}
}

// quickBanner returns the quick-mode banner's text (Markdown-free plain
// text), or "" in full mode: quick mode's meaning, the parameters chosen so
// far by Pick (quick value, then the full-mode value), and where figures go.
func quickBanner() string {
	if !Quick() {
		return ""
	}
	quick.Lock()
	picks := append([][2]string(nil), quick.picks...)
	quick.Unlock()
	var b strings.Builder
	b.WriteString("Quick mode (HATELAB_QUICK=1): this notebook runs with small parameters, so every table and chart " +
		"below holds quick-mode numbers; numbers quoted in the text are the full mode's (make notebooks).")
	if len(picks) > 0 {
		b.WriteString(" Parameters, quick (full): ")
		for i, p := range picks {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(short(p[0]) + " (" + short(p[1]) + ")")
		}
		b.WriteString(".")
	}
	b.WriteString(" Figures go to " + figuresDir() + ", never to figures/.")
	return b.String()
}

// short cuts a long parameter value (a list, a file name) for the banner.
func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}

// quickBannerHTML is the banner as a notebook shows it.
func quickBannerHTML(text string) string {
	return `<div class="hatelab-quick" style="border-left:4px solid #e0a000;background:#fff8e1;padding:4px 8px;` +
		`margin:2px 0;font-size:13px;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere">` +
		html.EscapeString(text) + `</div>`
}

// maybeQuickBanner shows the banner before a notebook's first output of a
// kernel session in quick mode; elsewhere it does nothing.
func maybeQuickBanner() {
	if !Quick() || !InNotebook() {
		return
	}
	quick.Lock()
	if quick.shown {
		quick.Unlock()
		return
	}
	quick.shown = true
	quick.Unlock()
	if dir := os.Getenv("GONB_TMP_DIR"); dir != "" {
		f, err := os.OpenFile(filepath.Join(dir, "hatelab-quick-banner"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return // shown already in this kernel (or no marker can be made: show none rather than one per cell)
		}
		f.Close()
	}
	gonbui.DisplayHTML(quickBannerHTML(quickBanner()))
}
