// The lab's notebook settings (loaded by scripts/jupyter/nbconfig/notebook.json
// for make lab and make browsercheck):
//   - long outputs are shown whole, never folded into a small scroll box that
//     nothing tells the reader to scroll (Run All folds every output taller
//     than 100 lines by default);
//   - inline code in markdown (a replay string, a long path) wraps inside
//     its paragraph instead of running past the cell, and a long line of a
//     text output wraps at its spaces, not inside a number;
//   - tabs in code cells are blank, not drawn as arrows.
define(['jquery', 'base/js/namespace', 'notebook/js/outputarea'], function ($, Jupyter, outputarea) {
  'use strict';
  function unscrollAll() {
    Jupyter.notebook.get_cells().forEach(function (cell) {
      if (cell.output_area) {
        cell.output_area.scroll_state = false;
        cell.output_area.unscroll_area();
      }
    });
  }
  function load_ipython_extension() {
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
