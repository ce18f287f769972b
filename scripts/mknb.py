#!/usr/bin/python3
"""Write a GoNB notebook from a plain-text source, or print a notebook as text.

    /usr/bin/python3 scripts/mknb.py SOURCE.md NOTEBOOK.ipynb   # text -> notebook
    /usr/bin/python3 scripts/mknb.py --text NOTEBOOK.ipynb      # notebook -> text

The text form is a sequence of cells, each opened by a marker line:

    --- meta {"min_images": 3}     (optional, first; the "hatelab" metadata)
    --- md                          a markdown cell follows
    --- go                          a Go code cell follows

Lines before the first marker are ignored. The wiring cell that attaches the
repository's module to GoNB is always written first (see
notebooks/README.md), so the source starts with its first markdown cell.
Outputs are not kept: execute the notebook (make notebooks) to fill them.
"""

import json
import sys

import nbformat
from nbformat import v4

WIRING = (
    '!*go mod edit -replace "github.com/hatelab/hatelab=${GONB_DIR}/.." '
    "-require github.com/hatelab/hatelab@v0.0.0-00010101000000-000000000000"
)

KERNELSPEC = {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}
LANGUAGE_INFO = {"name": "go", "file_extension": ".go", "mimetype": "", "version": "go1.26"}


def parse(text):
    meta, cells, kind, buf = {}, [], None, []

    def flush():
        if kind is None:
            return
        src = "\n".join(buf).strip("\n")
        if kind == "md":
            cells.append(v4.new_markdown_cell(src))
        else:
            cells.append(v4.new_code_cell(src))

    for line in text.splitlines():
        if line.startswith("--- "):
            word = line[4:].strip()
            if word.startswith("meta"):
                flush()
                kind, buf = None, []
                meta.update(json.loads(word[4:].strip() or "{}"))
                continue
            if word in ("md", "go"):
                flush()
                kind, buf = word, []
                continue
        buf.append(line)
    flush()
    return meta, cells


def build(text):
    meta, cells = parse(text)
    nb = v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = LANGUAGE_INFO
    if meta:
        nb.metadata["hatelab"] = meta
    nb.cells = [v4.new_code_cell(WIRING)] + cells
    return nb


def to_text(nb):
    out = []
    if nb.metadata.get("hatelab"):
        out.append("--- meta " + json.dumps(nb.metadata["hatelab"]))
    for i, c in enumerate(nb.cells):
        if i == 0 and c.cell_type == "code" and c.source.strip() == WIRING:
            continue
        out.append("--- md" if c.cell_type == "markdown" else "--- go")
        out.append(c.source)
        out.append("")
    return "\n".join(out)


def main(argv):
    if len(argv) == 2 and argv[0] == "--text":
        sys.stdout.write(to_text(nbformat.read(argv[1], as_version=4)))
        return 0
    if len(argv) != 2 or argv[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        nb = build(f.read())
    nbformat.validate(nb)
    nbformat.write(nb, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
