#!/usr/bin/python3
"""Run `go test -json ARGS...` and print what a reader needs, then one
summary line.

Usage:
    /usr/bin/python3 scripts/gotest.py [--counts FILE] [GO TEST ARGS...]
    /usr/bin/python3 scripts/gotest.py --summary FILE

Prints each package's result line (ok / FAIL / no test files), the output
of every failing test and of a package that fails to build, and at the end

    gotest: 302 passed, 0 failed, 4 skipped (58 packages)

counting top-level tests, examples and fuzz targets (their seed corpus runs
as a test); subtests are not counted. Exits with go test's status.
--counts FILE adds the counts to FILE (JSON; `make test` keeps them in
.cache/gotest-counts.json), and --summary FILE prints the totals of FILE
as one line: make test's last.
"""

import json
import os
import subprocess
import sys


def summary(path):
    try:
        with open(path) as f:
            c = json.load(f)
    except (OSError, ValueError):
        print("make test: no test counts (go tests did not run)")
        return 0
    print(f"make test: {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped "
          f"({c['runs']} go test runs, {c['packages']} packages)")
    return 1 if c["fail"] else 0


def main(argv):
    if argv[:1] == ["--summary"] and len(argv) == 2:
        return summary(argv[1])
    counts_file = None
    if argv[:1] == ["--counts"]:
        if len(argv) < 2:
            print("gotest: --counts needs a file name", file=sys.stderr)
            return 2
        counts_file, argv = argv[1], argv[2:]
    proc = subprocess.Popen(["go", "test", "-json", *argv], stdout=subprocess.PIPE, text=True, bufsize=1)
    n = {"pass": 0, "fail": 0, "skip": 0}
    packages = set()
    out = {}  # (package, test) -> output lines, kept until the result
    for line in proc.stdout:
        try:
            e = json.loads(line)
        except ValueError:
            sys.stdout.write(line)  # not JSON: go's own message
            continue
        pkg, test, act = e.get("Package", ""), e.get("Test", ""), e.get("Action", "")
        key = (pkg, test)
        if act in ("output", "build-output"):
            out.setdefault(key, []).append(e.get("Output", ""))
            continue
        if act in ("pass", "fail", "skip"):
            lines = out.pop(key, [])
            if test:
                if "/" not in test:
                    n[act] += 1
                if act == "fail":
                    sys.stdout.write("".join(l for l in lines if not l.startswith(("=== RUN", "=== PAUSE", "=== CONT", "=== NAME"))))
            else:
                packages.add(pkg)
                # The package's own lines: its result line, and on a failure
                # everything it printed outside its tests (a panic, a build error).
                if act == "fail":
                    sys.stdout.write("".join(lines))
                else:
                    sys.stdout.write("".join(l for l in lines if l.startswith(("ok ", "?", "---", "PASS", "FAIL"))
                                             and not l.startswith("PASS")))
            sys.stdout.flush()
        elif act == "build-fail":
            sys.stdout.write("".join(out.pop(key, [])))
    rc = proc.wait()
    for lines in out.values():  # left without a result (a build failure)
        sys.stdout.write("".join(lines))
    print(f"gotest: {n['pass']} passed, {n['fail']} failed, {n['skip']} skipped ({len(packages)} packages)")
    if counts_file:
        c = {"pass": 0, "fail": 0, "skip": 0, "packages": 0, "runs": 0}
        try:
            with open(counts_file) as f:
                c.update(json.load(f))
        except (OSError, ValueError):
            pass
        for k in n:
            c[k] += n[k]
        c["packages"] += len(packages)
        c["runs"] += 1
        os.makedirs(os.path.dirname(os.path.abspath(counts_file)), exist_ok=True)
        tmp = counts_file + ".tmp"
        with open(tmp, "w") as f:
            json.dump(c, f)
        os.replace(tmp, counts_file)
    if rc == 0 and n["fail"]:
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
