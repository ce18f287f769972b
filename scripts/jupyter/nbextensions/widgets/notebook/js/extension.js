// An empty stand-in for ipywidgets' notebook extension: the classic Notebook
// asks for this file on every page (a hard-coded fallback) and logs a 404
// without it. The hatelab notebooks use no widgets.
define([], function () {
  'use strict';
  return { load_ipython_extension: function () {} };
});
