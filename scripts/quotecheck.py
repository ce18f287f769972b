#!/usr/bin/env python3
"""quotecheck: numbers the notebooks' prose quotes from their own cells must match those cells' outputs.

The prose of a notebook (notebooks/src/NAME.md) often quotes what a cell of the
same notebook prints: a time, a count, a mean. When the cell is run again and
prints something else, the prose drifts. A Markdown cell declares what it quotes
in an HTML comment, which the rendered notebook does not show:

    <!-- quotes *The dataset*: "1.1 s" "2,603"="2603 of 6000" "0.175"="0.1747" -->

* `*HEADING*` names the section whose code cells print the values: the cells
  from the heading's own cell (a `#` or `##` heading of the same notebook; a
  unique prefix is enough) up to the next `#` or `##` heading;
* `"TEXT"`: TEXT is in the Markdown cell's prose and in the section's outputs;
* `"PROSE"="OUTPUT"`: PROSE is in the prose, OUTPUT in the outputs; when both
  are one number each, PROSE must be OUTPUT rounded to PROSE's decimals.

Texts are compared after a normalisation: the thousands commas of numbers and
the signs' forms (U+2212 minus) are dropped, runs of white space become one
space; HTML outputs are compared as their text (tags removed). A number at
either end of a TEXT matches only whole: "10.4 s" is not found in "110.4 s",
nor "3.4" in "13.4" or "3.45".

The outputs are the committed, executed notebook's (notebooks/NAME.ipynb), the
full-mode run: `make test` executes quick-mode copies elsewhere (.cache/nbquick)
and this check never reads them. It runs in `make vet`; after `make notebooks`
a failure means the prose quotes an old run: update the prose (and its comment).

Prints one line per problem, `notebooks/src/NAME.md:LINE: message`, and exits 1
if there is any, 2 on bad usage; standard library only.
"""

import argparse
import html
import json
import os
import re
import sys
from decimal import Decimal, InvalidOperation, ROUND_HALF_EVEN, ROUND_HALF_UP

MAX_BYTES = 64 << 20  # the largest committed notebook is a few MB

COMMENT = re.compile(r"<!--\s*quotes\s+(.*?)-->", re.S)
HEAD = re.compile(r"^\s*\*([^*]+)\*\s*:\s*(.*)$", re.S)
ITEM = re.compile(r'\s*"([^"]*)"(?:\s*=\s*"([^"]*)")?')
HEADING = re.compile(r"^(#{1,2})\s+(.*?)\s*$", re.M)
NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")


def norm(s):
    """The text as compared: no thousands commas, one kind of minus, single spaces."""
    s = s.replace("\u2212", "-").replace("\u2009", " ").replace("\u00a0", " ").replace("\u202f", " ")
    s = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", s)
    s = s.replace("\\[", "[").replace("\\]", "]").replace("\\*", "*").replace("\\_", "_")
    return re.sub(r"\s+", " ", s).strip()


def output_text(out):
    """The visible text of one cell output; images give none."""
    if "text" in out:
        t = out["text"]
        return "".join(t) if isinstance(t, list) else t
    data = out.get("data", {})
    parts = []
    for kind in ("text/markdown", "text/plain"):
        if kind in data:
            v = data[kind]
            parts.append("".join(v) if isinstance(v, list) else v)
    if "text/html" in data:
        h = data["text/html"]
        h = "".join(h) if isinstance(h, list) else h
        if "<svg" not in h:
            # Inline spans (lab.NoBreakNumbers wraps "920.6" of "920.6k") join
            # their text; other tags separate it.
            h = re.sub(r"</?span\b[^>]*>", "", h)
            parts.append(html.unescape(re.sub(r"<[^>]+>", " ", h)))
    return "\n".join(parts)


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def sections(cells):
    """(heading text, index of its cell, index past the section) for every # and ## heading."""
    heads = []
    for i, c in enumerate(cells):
        if c.get("cell_type") == "markdown":
            for m in HEADING.finditer(source(c)):
                heads.append((m.group(2).strip(), i))
    out = []
    for k, (h, i) in enumerate(heads):
        end = len(cells)
        for _, j in heads[k + 1:]:
            if j > i:
                end = j
                break
        out.append((h, i, end))
    return out


def contains(text, part):
    """Whether part occurs in text with a number at either end of part whole, not a piece of a longer
    number: "10.4 s" is not in "110.4 s", "4 s" not in "10.4 s", "3" not in "13", "3.4" not in "3.45"
    nor "3,400" (norm drops the comma); the end of a range "228.5M..310.6M" is found."""
    pat = re.escape(part)
    if part[:1].isdigit():
        pat = r"(?<!\d)(?<!\d\.)" + pat
    if part[-1:].isdigit():
        pat += r"(?!\.?\d)"
    return re.search(pat, text) is not None


def rounds_to(prose, output):
    """Whether the number prose is output rounded to prose's decimals (either rounding of a half)."""
    try:
        p, o = Decimal(prose), Decimal(output)
    except InvalidOperation:
        return False
    q = Decimal(1).scaleb(p.as_tuple().exponent)
    return p in (o.quantize(q, ROUND_HALF_EVEN), o.quantize(q, ROUND_HALF_UP))


def parse_source(text):
    """The cells of a notebook source (scripts/mknb.py's format) as (kind, text)."""
    cells, kind, buf = [], None, []
    for line in text.splitlines():
        if line.startswith("--- "):
            word = line[4:].strip()
            if word.startswith("meta") or word in ("md", "go"):
                if kind:
                    cells.append((kind, "\n".join(buf).strip("\n")))
                kind, buf = (None if word.startswith("meta") else word), []
                continue
        buf.append(line)
    if kind:
        cells.append((kind, "\n".join(buf).strip("\n")))
    return cells


def check_notebook(src_path, nb_path):
    """Problems of one notebook, as (line, message)."""
    try:
        if os.path.getsize(nb_path) > MAX_BYTES or os.path.getsize(src_path) > MAX_BYTES:
            return [(0, "larger than %d bytes" % MAX_BYTES)]
        with open(nb_path, encoding="utf-8") as f:
            nb = json.load(f)
        with open(src_path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError) as e:
        return [(0, "cannot read %s: %s" % (nb_path, e))]
    # The prose from the source, the outputs from the executed notebook, whose
    # first cell is the wiring cell the source leaves out.
    executed = nb.get("cells", [])[1:]
    src_cells = parse_source(text)
    if [k for k, _ in src_cells] != ["md" if c.get("cell_type") == "markdown" else "go" for c in executed]:
        return [(0, "the cells of %s are not the source's (run: make nbsync)" % nb_path)]
    cells = [{"cell_type": "markdown" if k == "md" else "code", "source": t, "outputs": c.get("outputs", [])}
             for (k, t), c in zip(src_cells, executed)]
    secs = sections(cells)
    out = []

    def line_of(comment, after=0):
        k = text.find(comment, after)
        return (text.count("\n", 0, k) + 1, k + 1) if k >= 0 else (0, after)

    pos = 0
    for c in cells:
        if c.get("cell_type") != "markdown":
            continue
        md = source(c)
        prose = norm(COMMENT.sub(" ", md))
        for m in COMMENT.finditer(md):
            line, pos = line_of(m.group(0), pos)
            head = HEAD.match(m.group(1))
            if not head:
                out.append((line, 'a quotes comment needs *HEADING*: "TEXT" ...; got: %s' % m.group(1).strip()[:80]))
                continue
            name, rest = head.group(1).strip(), head.group(2)
            hits = [s for s in secs if s[0] == name] or [s for s in secs if s[0].startswith(name)]
            if len(hits) != 1:
                out.append((line, "%s heading *%s* in %s" % ("no" if not hits else "more than one",
                                                              name, os.path.basename(nb_path))))
                continue
            _, a, b = hits[0]
            outputs = [output_text(o) for cc in cells[a:b] if cc.get("cell_type") == "code" for o in cc.get("outputs", [])]
            printed = norm("\n".join(outputs))
            if not printed:
                out.append((line, "section *%s* of %s has no text output (execute the notebook)" %
                            (name, os.path.basename(nb_path))))
                continue
            items, k, unread = [], 0, False
            rest = rest.strip()
            while k < len(rest):
                im = ITEM.match(rest, k)
                if not im:
                    out.append((line, "cannot read the quotes from: %s" % rest[k:k + 60]))
                    unread = True
                    break
                items.append((im.group(1), im.group(2) if im.group(2) is not None else im.group(1)))
                k = im.end()
                while k < len(rest) and rest[k].isspace():
                    k += 1
            if not items and not unread:
                out.append((line, "a quotes comment for *%s* lists nothing" % name))
            for p, o in items:
                np_, no = norm(p), norm(o)
                if not contains(prose, np_):
                    out.append((line, 'the prose does not say "%s", which its comment quotes from *%s*' % (p, name)))
                if not contains(printed, no):
                    out.append((line, 'the prose quotes "%s" from *%s*, whose committed output does not print "%s"' %
                                (p, name, o)))
                elif NUMBER.match(np_) and NUMBER.match(no) and not rounds_to(np_, no):
                    out.append((line, 'the prose says "%s" where *%s* prints %s' % (p, name, o)))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".", help="the repository's root (default: .)")
    ap.add_argument("sources", nargs="*", help="notebook sources to check (default: notebooks/src/*.md)")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    src_dir = os.path.join(a.root, "notebooks", "src")
    if not os.path.isdir(src_dir):
        print("quotecheck: --root %s: no notebooks/src folder" % a.root, file=sys.stderr)
        return 2
    srcs = a.sources or sorted(os.path.join(src_dir, f) for f in os.listdir(src_dir) if f.endswith(".md"))
    bad, quoted = 0, 0
    for s in srcs:
        nb = os.path.join(a.root, "notebooks", os.path.splitext(os.path.basename(s))[0] + ".ipynb")
        if not os.path.isfile(s) or not os.path.isfile(nb):
            print("quotecheck: %s: no such source, or no notebook %s" % (s, nb), file=sys.stderr)
            return 2
        with open(s, encoding="utf-8") as f:
            quoted += len(COMMENT.findall(f.read(MAX_BYTES)))
        for n, msg in check_notebook(s, nb):
            print("%s:%d: %s" % (os.path.relpath(s, a.root), n, msg))
            bad += 1
    if bad:
        print("quotecheck: %d problem(s); the committed notebooks are full-mode runs: "
              "make the prose say what their cells print" % bad, file=sys.stderr)
        return 1
    print("quotecheck: %d notebooks, %d quotes comments, every quoted number printed by its cell" % (len(srcs), quoted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
