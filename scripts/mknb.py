#!/usr/bin/python3
"""Write a GoNB notebook from a plain-text source, or print a notebook as text.

    /usr/bin/python3 scripts/mknb.py SOURCE.md NOTEBOOK.ipynb   # text -> notebook
    /usr/bin/python3 scripts/mknb.py --text NOTEBOOK.ipynb      # notebook -> text
    /usr/bin/python3 scripts/mknb.py --sync SOURCE.md NOTEBOOK.ipynb   # new sources, outputs kept
    /usr/bin/python3 scripts/mknb.py --check [NOTEBOOK.ipynb ...]       # fail if a notebook and its source differ

The source in notebooks/src/ is the one source of truth. --sync writes the
source's cells into the notebook and keeps each cell's outputs when the
notebook has the same cells in the same order (an edit of a cell's code keeps
its old outputs until the notebook is executed again). --check compares every
notebook's cells with its source (notebooks/src/NAME.md for notebooks/NAME.ipynb)
and exits 1 naming the first cell that differs; `make test` runs it.

The text form is a sequence of cells, each opened by a marker line:

    --- meta {"min_images": 3}     (optional, first; the "hatelab" metadata)
    --- md                          a markdown cell follows
    --- go                          a Go code cell follows

Lines before the first marker are ignored. The wiring cell that attaches the
repository's module to GoNB is always written first (see
notebooks/README.md), so the source starts with its first markdown cell.
Outputs are not kept: execute the notebook (make notebooks) to fill them.
"""

import glob
import json
import os
import re
import sys

import nbformat
from nbformat import v4

WIRING = (
    '!*go mod edit -replace "github.com/hatelab/hatelab=$(realpath --relative-to=. "${GONB_DIR}/..")" '
    "-require github.com/hatelab/hatelab@v0.0.0-00010101000000-000000000000"
)

KERNELSPEC = {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}
LANGUAGE_INFO = {"name": "go", "file_extension": ".go", "mimetype": "", "version": "go1.26"}


# A comparison sign and the number after it ("p < 0.01", "≤ 1.2·10⁻⁵") stay
# on one line: the space between them becomes a no-break space in markdown
# prose (browsercheck reports a sign left at a line end). Code is left as
# written (a no-break space in Go code does not compile): fenced blocks
# (``` or ~~~, three or more, to the closing fence of the same kind or the
# end) and inline code (`x`, ``x``). Lines indented four spaces are prose
# here (the notebooks' list items continue so; they write code fenced). A
# sign that starts a line (a blockquote's ">") is not a comparison.
BOUND = re.compile(r"(?<=[^\n\-=<>!:])([<>]=?|[\u2264\u2265]) (?=[-+\u2212]?\d)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def keep_bounds(src):
    out, prose, fence = [], [], None

    def flush():
        text = "\n".join(prose)
        parts, last = [], 0
        for m in INLINE.finditer(text):
            parts.append(BOUND.sub("\\1\u00a0", text[last:m.start()]))
            parts.append(m.group(0))
            last = m.end()
        parts.append(BOUND.sub("\\1\u00a0", text[last:]))
        if prose:
            out.append("".join(parts))
        prose.clear()

    for line in src.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            flush()
            fence = m.group(1)
            out.append(line)
        elif fence is not None:
            out.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
        else:
            prose.append(line)
    flush()
    return "\n".join(out)


def parse(text):
    meta, cells, kind, buf = {}, [], None, []

    def flush():
        if kind is None:
            return
        src = "\n".join(buf).strip("\n")
        if kind == "md":
            cells.append(v4.new_markdown_cell(keep_bounds(src)))
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


def source_of(path):
    """The text source of notebooks/NAME.ipynb: notebooks/src/NAME.md."""
    d, name = os.path.split(path)
    return os.path.join(d, "src", os.path.splitext(name)[0] + ".md")


def sync(src, path):
    with open(src, encoding="utf-8") as f:
        new = build(f.read())
    if os.path.exists(path):
        old = nbformat.read(path, as_version=4)
        if [c.cell_type for c in old.cells] == [c.cell_type for c in new.cells]:
            for o, n in zip(old.cells, new.cells):
                o.source = n.source
            old.metadata.pop("hatelab", None)
            if new.metadata.get("hatelab"):
                old.metadata["hatelab"] = new.metadata["hatelab"]
            new = old
    nbformat.validate(new)
    nbformat.write(new, path)


def check(paths):
    bad = 0
    for path in paths:
        src = source_of(path)
        if not os.path.exists(src):
            print(f"mknb: {path}: no source {src}", file=sys.stderr)
            bad += 1
            continue
        with open(src, encoding="utf-8") as f:
            want = build(f.read())
        got = nbformat.read(path, as_version=4)
        if want.metadata.get("hatelab") != got.metadata.get("hatelab"):
            print(f"mknb: {path}: metadata differs from {src}", file=sys.stderr)
            bad += 1
            continue
        if len(want.cells) != len(got.cells):
            print(f"mknb: {path}: {len(got.cells)} cells, {src} has {len(want.cells)}", file=sys.stderr)
            bad += 1
            continue
        for i, (w, g) in enumerate(zip(want.cells, got.cells)):
            if w.cell_type != g.cell_type or w.source != g.source:
                print(f"mknb: {path}: cell {i} differs from {src} (run: make nbsync)", file=sys.stderr)
                bad += 1
                break
    for src in sorted(glob.glob(os.path.join("notebooks", "src", "*.md"))):
        nb = os.path.join("notebooks", os.path.splitext(os.path.basename(src))[0] + ".ipynb")
        if paths and not os.path.exists(nb):
            print(f"mknb: {src}: no notebook {nb} (run: make nbsync)", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


def main(argv):
    if argv and argv[0] == "--check":
        paths = argv[1:] or sorted(glob.glob(os.path.join("notebooks", "*.ipynb")))
        return check(paths)
    if len(argv) == 3 and argv[0] == "--sync":
        sync(argv[1], argv[2])
        return 0
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
