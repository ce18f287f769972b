//go:build linux

package scripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// notebook writes a classic notebook of the given cells (markdown source,
// or a code cell's outputs) to path.
func notebook(t *testing.T, path string, cells ...map[string]any) {
	t.Helper()
	for i, c := range cells {
		c["id"] = fmt.Sprintf("c%d", i) // nbformat 4.5 wants ids: without, the server adds them and the trust is lost
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
		"cells":    cells,
	}
	b, err := json.Marshal(nb)
	must(t, err)
	must(t, os.WriteFile(path, b, 0o644))
}

func md(src string) map[string]any {
	return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
}

func code(src string, outputs ...map[string]any) map[string]any {
	if outputs == nil {
		outputs = []map[string]any{}
	}
	return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "source": src, "execution_count": 1, "outputs": outputs}
}

func html(s string) map[string]any {
	return map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/html": s}}
}

func svgOut(s string) map[string]any {
	return map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"image/svg+xml": s}}
}

func stdout(s string) map[string]any {
	return map[string]any{"output_type": "stream", "name": "stdout", "text": s}
}

// TestBrowserCheckSees runs scripts/browsercheck.sh on two made-up executed
// notebooks: a clean one must pass, and each defect of the other must be
// reported (where chromium, node and playwright-core are installed:
// scripts/setup.sh --browser).
func TestBrowserCheckSees(t *testing.T) {
	needTools(t)
	for _, tool := range []string{"chromium", "node", "jupyter"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: scripts/setup.sh --browser", tool)
		}
	}
	if _, err := os.Stat("../tools/browsercheck/node_modules/playwright-core"); err != nil {
		t.Skip("no playwright-core: scripts/setup.sh --browser")
	}
	if testing.Short() {
		t.Skip("starts a notebook server and a browser")
	}
	dir := t.TempDir()
	nbs := filepath.Join(dir, "nbs")
	must(t, os.MkdirAll(nbs, 0o755))
	clean := `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">` +
		`<rect x="10" y="10" width="80" height="20" fill="#eee"/><text x="50" y="25" font-size="10" text-anchor="middle">cleared</text>` +
		`<text x="200" y="100" font-size="12">1,000</text><text x="300" y="100" font-size="12">10,000</text>` +
		`<text x="150" y="60" font-size="10">0111111110</text>` + // a row shape, not float noise

		`<circle cx="50" cy="150" r="3" fill="blue"/><circle cx="150" cy="100" r="3" fill="blue"/><circle cx="250" cy="60" r="3" fill="blue"/>` +
		`<circle cx="350" cy="20" r="3" fill="blue"/><circle cx="380" cy="180" r="3" fill="blue"/></svg>`
	notebook(t, filepath.Join(nbs, "clean.ipynb"),
		md("# Clean\n\nSee `datasets/records/records.jsonl`, `lab/transitions` and `engine/*/testdata`; a replay ɤ໖."),
		// Drawn glyphs that look like boxes are not reported: a black square
		// (not a box of hex digits), a dotted square (a symbol drawn so),
		// letters that are frames, a white rectangle.
		md("Boxes that are glyphs: ⬛ ⬚ 口 ロ ▯, in code `⬛ ⬚ 口 ロ ▯`."),
		// No-break spaces keep each comparison with its number, as prose must
		// (a plain space lets the line end at "p <", and that is reported).
		md("A long paragraph whose words wrap as they should: "+strings.Repeat("words and 2.3e-5 numbers, p =\u00a03.9·10⁻⁵ and p <\u00a010⁻¹² ", 30)),
		code("x := 1", html(`<table><tr><td>4,730,104,929</td><td>0.25</td><td>–</td><td>p = 2.3e-5</td><td>p = 3.9·10⁻⁵</td><td>+0.40 [0.29, 0.51]</td></tr></table>`+
			`<table><thead><tr><th>arm</th><th>Wilcoxon p</th><th>Holm p</th></tr></thead><tr><td>tuned</td><td>6.7e-12</td><td>1.3e-11</td></tr></table>`), // p-values, not noise
			svgOut(clean), stdout(strings.Repeat("a long output, shown whole\n", 150)), stdout("mean 12.5 lines\n+0.10 lines [-0.50, +0.70], 3 wins 2 losses: no difference detected\n"+
				"+1.50 lines [+1.00, +2.00]: better than hand\n")),
		// Not comparisons cut from a number: an arrow, a sign before a word, a
		// sign and a number in two table rows, a line break the text holds,
		// an equals sign (not checked).
		code("u := 6", html(`<div style="width:4ch;font-family:monospace">a -&gt; 5</div>`+
			`<div style="width:3ch;font-family:monospace">a &lt; b</div>`+
			`<table><tr><td>x &lt;</td></tr><tr><td>5</td></tr></table>`+
			`<div style="width:3ch;font-family:monospace">x = −5</div>`), stdout("total <\n12 games\n")))
	bad := `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">` +
		`<rect x="10" y="10" width="28" height="12" fill="#eee"/><text x="24" y="20" font-size="10" text-anchor="middle">immortal</text>` +
		`<text x="200" y="100" font-size="12">peak states</text><text x="210" y="100" font-size="12">max width</text>` +
		`<text x="395" y="150" font-size="12">clipped label</text>` +
		`<circle cx="20" cy="190" r="2" fill="red"/><circle cx="22" cy="189" r="2" fill="red"/><circle cx="24" cy="191" r="2" fill="red"/>` +
		`<circle cx="21" cy="188" r="2" fill="red"/><circle cx="23" cy="190" r="2" fill="red"/></svg>`
	notebook(t, filepath.Join(nbs, "defects.ipynb"),
		// A glyph no font has (the missing-glyph box), and a code point the
		// fonts do not know (Unifont draws a box with its hex code: before
		// the check compared only with U+0378's box, this one passed).
		md("# Defects\n\nSee `docs/literature.md` and `nnue-design.md`; a glyph no font has: \U0010FFFC; one no font knows: \u0eff."),
		code("x := 1\n// "+strings.Repeat("a very long line ", 20),
			html(`<table><tr><td>NaN</td><td>1.78e-15</td><td>2.77e+09</td></tr></table>`),
			stdout("digraph flats {\n  rankdir=LR;\n  \"a\" -> \"b\" [label=\"3\"];\n}\n"),
			svgOut(bad)),
		code("y := 2", stdout(`{"wells": [`+strings.Repeat(`[1, 2, 3, 4, 5, 6, 7, 8],`, 300)+`[0]]}`+"\n")),
		// Inline code wraps (the lab's settings); a span that may not wrap runs past the cell.
		md("A replay: `"+strings.Repeat("LLDDRRUU", 80)+"`; on one line: <span style=\"white-space:nowrap\">"+strings.Repeat("LLDDRRUU ", 80)+"</span>."),
		code("z := 3", html(`<div style="width:70px;overflow-wrap:anywhere">interval [0.29, 0.51] and p = 2.3e-5</div><div style="width:40px;overflow-wrap:anywhere">4,730,104,929</div>`),
			stdout("+1.50 lines [+1.00, +2.00], 4 wins 0 losses: no difference detected (the interval allows +1.00 to +2.00)\n")),
		// Powers of ten cut between mantissa and exponent ("3.9·" over
		// "10⁻⁵") and within the exponent ("10" over "⁻¹²"): each is one number.
		code("w := 4", html(`<div style="width:4ch;font-family:monospace;overflow-wrap:anywhere">3.9·10⁻⁵</div>`+
			`<div style="width:2ch;font-family:monospace;overflow-wrap:anywhere">10⁻¹²</div>`)),
		// A comparison sign cut from its number: "p <" over "10⁻¹²", "a ≥"
		// over a number in another element, "x ≤" over "−5" ("=" is not
		// checked: the clean notebook holds "x =" over "−5").
		code("v := 5", html(`<div style="width:3ch;font-family:monospace">p &lt; 10⁻¹²</div>`+
			`<div style="width:5ch;font-family:monospace">a ≥ <b>0.001</b></div>`+
			`<div style="width:3ch;font-family:monospace">x ≤ −5</div>`)),
		// A Base2048 letter (U+0CF2, KANNADA SIGN UPADHMANIYA) in the font
		// that drew it in notebook 03's replay when no Kannada font was
		// installed: Unifont's dashed box.
		code("s := 7", html(`<div style="font-family:Unifont">replay ୲ೲ൶</div>`)))
	env := labEnv(dir, "BROWSERCHECK_NOTEBOOKS="+nbs, "BROWSERCHECK_OUT="+filepath.Join(dir, "shots"))
	for _, nb := range []string{"clean.ipynb", "defects.ipynb"} {
		cmd := exec.Command("jupyter", "trust", filepath.Join(nbs, nb))
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jupyter trust: %v: %s", err, out)
		}
	}
	code, stdout, stderr := runScript(t, env, "bash", "browsercheck.sh")
	if code != 1 {
		t.Errorf("exit %d, want 1 (one notebook fails); stderr %q", code, stderr)
	}
	out := stdout + stderr
	t.Logf("browsercheck.sh said:\n%s", out)
	for _, want := range []string{
		"clean.ipynb: ok",
		"defects.ipynb: FAIL",
		"cites docs/literature.md, which is not in the repository",
		"cites nnue-design.md, which is not in the repository",
		"2 characters have no glyph in the page's fonts (drawn as empty boxes or boxes of hex digits), in monospace: \U0010FFFC U+10FFFC, \u0eff U+0EFF",
		"a character is drawn as a dashed box by the only font that has it, in Unifont: ೲ U+0CF2",
		"table cell \"NaN\"",
		"table cell \"1.78e-15\" is float noise",
		"table cell \"2.77e+09\" in exponent form",
		"prints Graphviz DOT source",
		"bytes of JSON",
		"text \"immortal\"",
		"does not fit its 28 px box",
		"texts \"peak states\" and \"max width\" overlap",
		"text \"clipped label\" is clipped by the picture's edge",
		"all 5 points sit in",
		"a line runs",
		"is broken across two lines",
		`the number "3.9·10⁻⁵" is broken across two lines`,
		`the number "10⁻¹²" is broken across two lines`,
		`the comparison "< 10⁻¹²" is broken across two lines ("p <" ends a line)`,
		`the comparison "≥ 0.001" is broken across two lines`,
		`the comparison "≤ −5" is broken across two lines`,
		"a verdict contradicts its interval: \"no difference\" beside the interval",
		"1 of 2 notebooks ok",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "code line is cut") {
		t.Errorf("a long code line was reported cut: the lab's settings wrap it:\n%s", out)
	}
	tiles, _ := filepath.Glob(filepath.Join(dir, "shots", "defects-*.png"))
	if len(tiles) == 0 {
		t.Errorf("no screenshot tiles of defects.ipynb")
	}
}
