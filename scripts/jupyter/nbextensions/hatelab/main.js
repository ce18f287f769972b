// The lab's notebook settings (loaded by scripts/jupyter/nbconfig/notebook.json
// for make lab and make browsercheck):
//   - long outputs are shown whole, never folded into a small scroll box that
//     nothing tells the reader to scroll (Run All folds every output taller
//     than 100 lines by default);
//   - inline code in markdown (a replay string, a long path) wraps inside
//     its paragraph instead of running past the cell, and a long line of a
//     text output wraps at its spaces, not inside a number;
//   - tabs in code cells are blank, not drawn as arrows;
//   - Shift-Tab's help shows: GoNB answers an inspect_request with text/markdown
//     only, and the classic Notebook's tooltip shows text/plain only, so the
//     help came up empty; the Markdown is given to it as plain text, its code
//     fences and rules dropped (plainHelp; scripts/nbhelp_test.go).
define(['jquery', 'base/js/namespace', 'notebook/js/outputarea', 'notebook/js/tooltip'], function ($, Jupyter, outputarea, tooltip) {
  'use strict';
  // markdownToPlain turns GoNB's help (a fenced signature, a rule, the doc
  // comment) into the plain text a tooltip or the pager shows.
  function markdownToPlain(md) {
    return md.split('\n').filter(function (l) { return !/^\s*(```|---\s*$)/.test(l); }).join('\n').replace(/^\n+/, '').replace(/\n{3,}/g, '\n\n');
  }
  function plainHelp() {
    var proto = tooltip.Tooltip.prototype, show = proto._show;
    if (show.hatelab) {
      return;
    }
    proto._show = function (reply) {
      var data = reply && reply.content && reply.content.data;
      if (data && typeof data['text/plain'] !== 'string' && typeof data['text/markdown'] === 'string') {
        data['text/plain'] = markdownToPlain(data['text/markdown']);
      }
      return show.apply(this, arguments);
    };
    proto._show.hatelab = true;
  }
  function unscrollAll() {
    Jupyter.notebook.get_cells().forEach(function (cell) {
      if (cell.output_area) {
        cell.output_area.scroll_state = false;
        cell.output_area.unscroll_area();
      }
    });
  }
  function load_ipython_extension() {
    plainHelp();
    outputarea.OutputArea.auto_scroll_threshold = -1;
    $('<style id="hatelab-style">').text(
      '.rendered_html code { overflow-wrap: anywhere; word-break: normal; }\n' +
      // A long text output wraps at its spaces, not inside a number ("R²=0.9" / "999").
      '.output_area pre { word-break: normal; overflow-wrap: break-word; }\n' +
      // The ipython theme draws every tab of a code line as an arrow (——→): Go indents with tabs.
      '.cm-s-ipython span.cm-tab { background: none; }'
    ).appendTo('head');
    unscrollAll();
    // Outputs that arrive later (Run All) may fold again: unfold them.
    Jupyter.notebook.events.on('output_appended.OutputArea finished_execute.CodeCell', unscrollAll);
  }
  return { load_ipython_extension: load_ipython_extension };
});
