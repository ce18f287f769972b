#!/usr/bin/env python3
"""citecheck: every source a notebook cites must be one a reader can follow.

Checks the notebook sources (notebooks/src/*.md) and notebooks/CLAIMS.md, or
the files named on the command line, line by line:

* a citation of the project's private notes is an error: `docs/*.md`,
  `shared/...`, a note by its file name (`nnue-design.md`,
  `flats-design.md`, `literature.md`, ...), or a "seed NNN" reference (the notes'
  numbered copies of public pages). Cite the public source (post and
  section, repository and file, paper) or a file of this repository;
* a path into this repository must exist in the tree: a path starting with
  one of the repository's top-level folders (engine/, lab/, datasets/, ...),
  in backticks or in prose, a Go import path under the module, or a
  lab.RepoPath("...") argument;
* an http(s) link must be well formed (scheme, a host with a dot, no
  spaces); it is not fetched: there is no network here;
* a Markdown link [text](target) to a relative target must exist,
  relative to the notebook (notebooks/).

Paths of other repositories (qntm/hatetris `src/...`) are not checked.
Prints one line per problem, `file:line: message`, and exits 1 if there
is any, 2 on bad usage; standard library only.
"""

import argparse
import os
import re
import sys
from urllib.parse import urlsplit

MODULE = "github.com/hatelab/hatelab/"
MAX_BYTES = 4 << 20  # a notebook source is far smaller; refuse anything larger

PRIVATE = [
    (re.compile(r"(?<![\w./-])(?:\.\./)*(?:shared/)?docs/[\w.-]+\.md"), "cites the project's notes (docs/*.md)"),
    (re.compile(r"(?<![\w./-])(?:\.\./)*shared/[\w./-]*"), "cites the project's shared notes or data (shared/...)"),
    (re.compile(r"(?<![\w./-])(?:nnue-design|flats-design|hatetris-rules|literature|peer-hatetris-engine|classic-spec|toolchain)\.md"),
     "cites the project's notes (a design or reference note)"),
    (re.compile(r"\bseeds? 0\d\d\b"), "cites a numbered seed of the notes (seed NNN)"),
]
URL = re.compile(r"https?://[^\s`<>\"')\]]+")
MDLINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
REPOPATH = re.compile(r'RepoPath\("([^"]+)"\)')
IMPORT = re.compile(r'"' + re.escape(MODULE) + r'([\w./-]+)"')
TRAIL = ".,;:!?)]}'\"*_"


def top_dirs(root):
    """The repository's top-level folders, hidden ones left out."""
    return sorted(d for d in os.listdir(root)
                  if not d.startswith(".") and os.path.isdir(os.path.join(root, d)))


def path_pattern(tops):
    names = "|".join(re.escape(t) for t in tops)
    return re.compile(r"(?<![\w./:-])(?:\./)?((?:" + names + r")/[\w./*{}<>-]*)")


def url_problem(url):
    """Why a link is malformed, or None."""
    u = url.rstrip(TRAIL)
    try:
        parts = urlsplit(u)
    except ValueError as e:
        return "malformed link %s: %s" % (u, e)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or "." not in host or host.startswith(".") or host.endswith("."):
        return "malformed link %s" % u
    return None


GOIDENT = re.compile(r"^(.*)\.[A-Z]\w*(?:\.\w+)?$")


def exists(root, p):
    p = p.rstrip(TRAIL).rstrip("/")
    if p.startswith("./"):
        p = p[2:]
    if any(c in p for c in "*{}<>") or p.endswith("..."):
        return True  # a pattern, not a path
    if os.path.exists(os.path.join(root, p)):
        return True
    m = GOIDENT.match(p)  # lab/records.AuditLoops: a package and a name in it
    return bool(m) and os.path.isdir(os.path.join(root, m.group(1)))


def check_file(root, path, pathre):
    """Problems of one file, as (line, message)."""
    out = []
    try:
        st = os.stat(path)
    except OSError as e:
        return [(0, "cannot read: %s" % e.strerror)]
    if not os.path.isfile(path):
        return [(0, "not a regular file")]
    if st.st_size > MAX_BYTES:
        return [(0, "larger than %d bytes" % MAX_BYTES)]
    with open(path, encoding="utf-8") as f:
        text = f.read(MAX_BYTES + 1)
    nbdir = os.path.relpath(os.path.join(root, "notebooks"), root)
    for n, line in enumerate(text.split("\n"), 1):
        spans = []
        for rx, why in PRIVATE:
            for m in rx.finditer(line):
                if any(a <= m.start() < b or m.start() <= a < m.end() for a, b in spans):
                    continue  # one problem per citation
                spans.append((m.start(), m.end()))
                out.append((n, "%s: %s" % (why, m.group(0).rstrip(TRAIL))))
        scrubbed = line
        for m in URL.finditer(line):
            why = url_problem(m.group(0))
            if why:
                out.append((n, why))
            scrubbed = scrubbed.replace(m.group(0), " ")
        for m in MDLINK.finditer(scrubbed):
            t = m.group(1).split("#")[0]
            if t and not re.match(r"^[a-z]+:", t) and not exists(root, os.path.join(nbdir, t)):
                out.append((n, "link target not in the repository: %s" % t))
        for rx in (REPOPATH, IMPORT):
            for m in rx.finditer(scrubbed):
                if not exists(root, m.group(1)):
                    out.append((n, "path not in the repository: %s" % m.group(1)))
            scrubbed = rx.sub(" ", scrubbed)
        for m in pathre.finditer(scrubbed):
            p = m.group(1).rstrip(TRAIL)
            if p.count("/") == 0 or not exists(root, p):
                out.append((n, "path not in the repository: %s" % p))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".", help="the repository's root (default: .)")
    ap.add_argument("files", nargs="*", help="files to check (default: notebooks/src/*.md and notebooks/CLAIMS.md)")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    root = a.root
    if not os.path.isdir(root):
        print("citecheck: --root %s: not a folder" % root, file=sys.stderr)
        return 2
    files = a.files
    if not files:
        src = os.path.join(root, "notebooks", "src")
        if not os.path.isdir(src):
            print("citecheck: --root %s: no notebooks/src folder" % root, file=sys.stderr)
            return 2
        files = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".md"))
        claims = os.path.join(root, "notebooks", "CLAIMS.md")
        if os.path.exists(claims):
            files.append(claims)
    pathre = path_pattern(top_dirs(root))
    bad = 0
    for f in files:
        for n, msg in check_file(root, f, pathre):
            print("%s:%d: %s" % (os.path.relpath(f, root), n, msg))
            bad += 1
    if bad:
        print("citecheck: %d problem(s) in %d file(s)" % (bad, len(files)), file=sys.stderr)
        return 1
    print("citecheck: %d files, every citation followable" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
