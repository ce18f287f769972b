package lab

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/janpfeifer/gonb/gonbui"
)

// The quick-mode banner: in quick mode, the first output a notebook
// session shows (through Show, ShowPlot, Progress ...) is preceded by a
// banner saying that the numbers the notebook computes are quick-mode
// numbers, with the parameters it chose by Param (name, quick and full
// value, in the order chosen), so that a reader never takes a quick table
// for the full-mode one the text quotes.
//
// A session is a GoNB kernel, and each cell runs as a program of its own:
// the parameters chosen so far and the banner's display id live in files
// of GoNB's per-kernel folder (GONB_TMP_DIR), the banner is shown once per
// kernel, and a parameter chosen by a later cell updates it in place
// (Jupyter's update_display_data), so that it lists every parameter of the
// notebook, in order, however late each is chosen.

// param is one parameter chosen in quick mode.
type param struct {
	Name  string `json:"name"`
	Quick string `json:"quick"`
	Full  string `json:"full"`
}

var quick struct {
	sync.Mutex
	params []param // in the order chosen, without repeats (outside a kernel)
	shown  bool    // the banner was shown by this program
}

// maxParams bounds the parameters the banner lists.
const maxParams = 32

const (
	paramsFile = "hatelab-quick-params.json" // the kernel's parameters so far
	bannerFile = "hatelab-quick-banner"      // the banner's display id, once shown
)

// kernelFile is a file of GoNB's per-kernel folder, or "" outside a kernel.
func kernelFile(name string) string {
	if dir := os.Getenv("GONB_TMP_DIR"); dir != "" && InNotebook() {
		return filepath.Join(dir, name)
	}
	return ""
}

// noteParam records a parameter for the banner (once: a repeat is
// ignored) and, when the banner is shown already, updates it.
func noteParam(p param) {
	quick.Lock()
	defer quick.Unlock()
	file := kernelFile(paramsFile)
	if file == "" {
		quick.params, _ = addParam(quick.params, p)
		return
	}
	params, added := storeParam(file, p)
	if !added {
		return
	}
	if id, err := os.ReadFile(kernelFile(bannerFile)); err == nil && len(id) > 0 {
		gonbui.UpdateHTML(string(id), quickBannerHTML(bannerText(params)))
	}
}

// addParam appends p to params unless it is there already or the list is full.
func addParam(params []param, p param) ([]param, bool) {
	for _, q := range params {
		if q == p {
			return params, false
		}
	}
	if len(params) >= maxParams {
		return params, false
	}
	return append(params, p), true
}

// storeParam adds p to the parameters kept in file (written atomically)
// and returns them all, and whether p was new.
func storeParam(file string, p param) ([]param, bool) {
	params, added := addParam(readParams(file), p)
	if !added {
		return params, false
	}
	if b, err := json.Marshal(params); err == nil {
		tmp := file + ".tmp"
		if os.WriteFile(tmp, b, 0o600) == nil {
			_ = os.Rename(tmp, file)
		}
	}
	return params, true
}

func readParams(file string) []param {
	var ps []param
	if b, err := os.ReadFile(file); err == nil {
		_ = json.Unmarshal(b, &ps)
	}
	return ps
}

// quickParams returns the parameters chosen so far (in this kernel).
func quickParams() []param {
	if file := kernelFile(paramsFile); file != "" {
		return readParams(file)
	}
	quick.Lock()
	defer quick.Unlock()
	return append([]param(nil), quick.params...)
}

// quickBanner returns the quick-mode banner's text (Markdown-free plain
// text), or "" in full mode.
func quickBanner() string {
	if !Quick() {
		return ""
	}
	return bannerText(quickParams())
}

// bannerText is the banner for params: quick mode's meaning, the
// parameters chosen so far (name: quick value, then the full mode's), and
// where figures go.
func bannerText(params []param) string {
	var b strings.Builder
	if len(params) == 0 { // nothing shrunk (yet): the outputs so far are the full mode's
		b.WriteString("Quick mode (HATELAB_QUICK=1): no cell so far has a parameter that quick mode shrinks, so the " +
			"outputs so far are as in full mode; tables and charts read from committed data (datasets/) hold the " +
			"full data, and numbers quoted in the text are the full mode's (make notebooks).")
	} else {
		b.WriteString("Quick mode (HATELAB_QUICK=1): the cells that compute run with small parameters, so their tables " +
			"and charts hold quick-mode numbers; those read from committed data (datasets/) hold the full data, and " +
			"numbers quoted in the text are the full mode's (make notebooks).")
	}
	if len(params) > 0 {
		b.WriteString(" Parameters, quick (full): ")
		for i, p := range params {
			if i > 0 {
				b.WriteString("; ")
			}
			if p.Name != "" {
				b.WriteString(p.Name + " ")
			}
			b.WriteString(short(p.Quick) + " (" + short(p.Full) + ")")
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
		NoBreakNumbers(html.EscapeString(text)) + `</div>`
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
	id := "hatelab-quick-" + gonbui.UniqueId()
	if file := kernelFile(bannerFile); file != "" {
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return // shown already in this kernel (or no marker can be made: show none rather than one per cell)
		}
		_, err = f.WriteString(id)
		if f.Close() != nil || err != nil {
			id = "" // a banner no later cell can update: shown once all the same
		}
	}
	if id == "" {
		gonbui.DisplayHTML(quickBannerHTML(quickBanner()))
		return
	}
	gonbui.UpdateHTML(id, quickBannerHTML(quickBanner()))
}
