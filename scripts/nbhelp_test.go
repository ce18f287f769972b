package scripts

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNotebookHelpPlain loads the lab's notebook extension
// (scripts/jupyter/nbextensions/hatelab/main.js) in node with stand-ins for
// the classic Notebook's modules, and shows it GoNB's answer to Shift-Tab
// (text/markdown only, as scripts/nbcomplete.py sees it): the tooltip must
// receive the help as text/plain, the signature and the doc comment without
// Markdown's fences and rules; an answer that has text/plain is left alone.
func TestNotebookHelpPlain(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node (scripts/setup.sh --browser installs it)")
	}
	const shim = `
const shown = [];
function Tooltip() {}
Tooltip.prototype._show = function (reply) { shown.push(reply.content.data); };
const tooltip = { Tooltip: Tooltip };
const $ = () => ({ text: () => ({ appendTo: () => {} }) });
const Jupyter = { notebook: { get_cells: () => [], events: { on: () => {} } } };
const outputarea = { OutputArea: {} };
let mod;
global.define = (deps, f) => { mod = f($, Jupyter, outputarea, tooltip); };
require(require("path").resolve(process.argv[1]));
mod.load_ipython_extension();
mod.load_ipython_extension(); // twice: patched once
const tip = new Tooltip();
tip._show({ content: { found: true, data: { 'text/markdown': '` + "```go\\nfunc lab.Pick(quick int, full int) int\\n```\\n\\n---\\n\\nPick returns quick in quick mode." + `' } } });
tip._show({ content: { found: true, data: { 'text/plain': 'kept', 'text/markdown': '# other' } } });
console.log(JSON.stringify(shown));
`
	out, err := exec.Command(node, "-e", shim, "jupyter/nbextensions/hatelab/main.js").CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	want := `[{"text/markdown":"` + "```go\\nfunc lab.Pick(quick int, full int) int\\n```\\n\\n---\\n\\nPick returns quick in quick mode." + `","text/plain":"func lab.Pick(quick int, full int) int\n\nPick returns quick in quick mode."},{"text/plain":"kept","text/markdown":"# other"}]`
	if got != want {
		t.Errorf("the tooltip was shown\n%s\nwant\n%s", got, want)
	}
}
