#!/usr/bin/python3
"""Vet, for other systems and builds, only the packages that differ there.

Usage:
    /usr/bin/python3 scripts/crossvet.py [--list] [PATTERN...]   (default ./...)

`go vet ./...` for Windows, macOS, arm64 and the pure-Go build (-tags purego)
compiles the whole tree again for each, most of it identical code. A package
can build on Linux and fail elsewhere only where it is written for a system:

  * its files differ for the target: build tags, _windows/_darwin/_linux
    files, _amd64 files and assembly, `//go:build purego` (go list compares
    the Go, test and assembly files chosen on this machine and for the target);
  * for another GOOS, it also imports syscall, os/signal or golang.org/x/sys
    (whose API differs between systems), or reads runtime.GOOS.

For each target those packages (tests included) are vetted with go vet, which
type-checks them for the target: the compile of their dependencies for it is
what a build there would do. --list prints the packages and vets nothing.
Exits with the first failing go vet's status.
"""

import os
import re
import subprocess
import sys

# Each target: (label, environment, extra go flags, whether it is another GOOS).
TARGETS = [
    ("GOOS=windows", {"GOOS": "windows"}, [], True),
    ("GOOS=darwin", {"GOOS": "darwin"}, [], True),
    ("GOARCH=arm64", {"GOARCH": "arm64"}, [], False),
    ("-tags purego", {}, ["-tags", "purego"], False),
]
SYSTEM_IMPORTS = ("syscall", "os/signal", "golang.org/x/sys/")
FIELDS = ["GoFiles", "CgoFiles", "SFiles", "TestGoFiles", "XTestGoFiles", "Imports", "TestImports", "XTestImports"]
FORMAT = "{{.ImportPath}}\t{{.Dir}}" + "".join("\t{{join .%s \" \"}}" % f for f in FIELDS)


def packages(patterns, env, flags):
    """Maps import path -> (dir, {field: set}) as go list sees it for env and flags."""
    out = subprocess.run(["go", "list", "-e", *flags, "-f", FORMAT, *patterns],
                         env={**os.environ, **env}, check=True, capture_output=True, text=True).stdout
    pkgs = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 2 + len(FIELDS):
            continue
        pkgs[parts[0]] = (parts[1], {f: set(v.split()) for f, v in zip(FIELDS, parts[2:])})
    return pkgs


def reads_goos(d, files):
    for f in files:
        try:
            with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                if re.search(r"\bruntime\.GOOS\b", fh.read()):
                    return True
        except OSError:
            pass
    return False


def specific(host, target, other_os):
    """The packages of target that differ from host, or use the system's API."""
    files = ["GoFiles", "CgoFiles", "SFiles", "TestGoFiles", "XTestGoFiles"]
    out = []
    for path, (d, t) in sorted(target.items()):
        h = host.get(path, (d, {}))[1]
        if any(t[f] != h.get(f, set()) for f in files):
            out.append(path)
            continue
        if other_os:
            imports = t["Imports"] | t["TestImports"] | t["XTestImports"]
            if any(i == s or (s.endswith("/") and i.startswith(s)) for i in imports for s in SYSTEM_IMPORTS):
                out.append(path)
            elif reads_goos(d, set().union(*(t[f] for f in files))):
                out.append(path)
    return out


def main(argv):
    list_only = argv[:1] == ["--list"]
    patterns = [a for a in argv if a != "--list"] or ["./..."]
    host = packages(patterns, {}, [])
    module = subprocess.run(["go", "list", "-m", "-f", "{{.Path}}"], check=True, capture_output=True, text=True).stdout.strip()
    short = lambda p: p[len(module) + 1:] if p.startswith(module + "/") else p
    for label, env, flags, other_os in TARGETS:
        pkgs = specific(host, packages(patterns, env, flags), other_os)
        print(f"crossvet: {label}: {len(pkgs)} packages differ: {' '.join(map(short, pkgs)) or '(none)'}",
              flush=True)
        if list_only or not pkgs:
            continue
        rc = subprocess.run(["go", "vet", *flags, *pkgs], env={**os.environ, **env}).returncode
        if rc:
            print(f"crossvet: {label}: go vet failed", file=sys.stderr)
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
