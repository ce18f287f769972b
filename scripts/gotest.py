#!/usr/bin/python3
"""Run `go test -json ARGS...` and print what a reader needs, then one
summary line.

Usage:
    /usr/bin/python3 scripts/gotest.py [--counts FILE] [--label NAME] [GO TEST ARGS...]
    /usr/bin/python3 scripts/gotest.py --summary FILE|DIR

Prints each package's result line (ok / FAIL / no test files), the output
of every failing test and of a package that fails to build, each skipped
test with its reason, and at the end

    gotest: 302 passed, 0 failed, 4 skipped (58 packages)

counting top-level tests, examples and fuzz targets (their seed corpus runs
as a test); subtests are not counted. Exits with go test's status.

--counts FILE adds this run to FILE (JSON) under --label (default: "go
test ARGS"); scripts/nbrun.py adds the notebooks to such a file too.
`make test` keeps one file a part in .cache/test-counts/ (its parts run
side by side). --summary prints the runs of FILE, or of the *.json files
of DIR in the order of their names, as one line, the last of `make test`:
the totals, each run's share, and the skipped tests by name.
"""

import json
import os
import re
import subprocess
import sys


def load(path):
    try:
        with open(path) as f:
            c = json.load(f)
        return c if isinstance(c.get("runs"), list) else None
    except (OSError, ValueError, AttributeError):
        return None


def summary(path):
    files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".json")) if os.path.isdir(path) else [path]
    c = {"runs": [r for f in files for r in (load(f) or {"runs": []})["runs"]]}
    if not c["runs"]:
        print("make test: no test counts (the tests did not run)")
        return 1
    tot = {k: sum(r[k] for r in c["runs"]) for k in ("pass", "fail", "skip")}
    parts = []
    for r in c["runs"]:
        p = f"{r['label']} {r['pass']:,}"
        if r["fail"]:
            p += f" ({r['fail']} failed)"
        if r.get("packages"):
            p += f" in {r['packages']} package{'s' if r['packages'] != 1 else ''}"
        parts.append(p)
    skipped = [s for r in c["runs"] for s in r.get("skipped", [])]
    line = f"make test: {tot['pass']:,} passed, {tot['fail']} failed, {tot['skip']} skipped ({'; '.join(parts)})"
    if skipped:
        line += "; skipped: " + "; ".join(skipped)
    print(line)
    return 1 if tot["fail"] else 0


def skip_reason(pkg, test, lines):
    """The short name of a skipped test and the reason it printed."""
    reason = ""
    for l in lines:
        s = l.strip()
        if not s or s.startswith(("=== ", "--- SKIP")):
            continue
        reason = re.sub(r"^[\w.-]+_test\.go:\d+: ", "", s)
    name = f"{pkg.split('/hatelab/hatelab/', 1)[-1]} {test}"
    return f"{name} ({reason[:100]})" if reason else name


def main(argv):
    if argv[:1] == ["--summary"] and len(argv) == 2:
        return summary(argv[1])
    counts_file, label = None, None
    while argv[:1] in (["--counts"], ["--label"]):
        if len(argv) < 2:
            print(f"gotest: {argv[0]} needs a value", file=sys.stderr)
            return 2
        if argv[0] == "--counts":
            counts_file = argv[1]
        else:
            label = argv[1]
        argv = argv[2:]
    proc = subprocess.Popen(["go", "test", "-json", *argv], stdout=subprocess.PIPE, text=True, bufsize=1)
    n = {"pass": 0, "fail": 0, "skip": 0}
    skipped = []
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
                    if act == "skip":
                        skipped.append(skip_reason(pkg, test, lines))
                        sys.stdout.write(f"--- SKIP {skipped[-1]}\n")
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
        add_run(counts_file, {"label": label or "go test " + " ".join(argv), **n,
                              "packages": len(packages), "skipped": skipped})
    if rc == 0 and n["fail"]:
        rc = 1
    return rc


def add_run(counts_file, run):
    """Appends run to the runs of counts_file (written atomically)."""
    c = load(counts_file) or {"runs": []}
    c["runs"].append(run)
    os.makedirs(os.path.dirname(os.path.abspath(counts_file)), exist_ok=True)
    tmp = counts_file + ".tmp"
    with open(tmp, "w") as f:
        json.dump(c, f)
    os.replace(tmp, counts_file)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
