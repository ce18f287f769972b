#!/usr/bin/python3
"""Execute hatelab notebooks headless and check them.

Usage:
    /usr/bin/python3 scripts/nbrun.py [--quick] [--inplace] [--jobs N] [--timeout S] NOTEBOOK...
    /usr/bin/python3 scripts/nbrun.py --check-only NOTEBOOK...

Each notebook runs with the kernel started in the notebook's own directory
(so its first cell's ${GONB_DIR}/.. reaches the repository root), then is
checked:
  * no cell may produce an error output, and no stderr output unless the
    notebook's metadata says "hatelab": {"allow_stderr": true};
  * the first code cell must be the module wiring (scripts/mknb.py WIRING);
  * the notebook must hold at least N image outputs (image/png or
    image/svg+xml), N from the metadata "hatelab": {"min_images": N},
    default 1.

--quick   sets HATELAB_QUICK=1 (notebooks shrink their work, see lab.Quick)
          and sends figures to a temporary folder instead of figures/.
--inplace writes the executed notebook back over the original and runs
          `jupyter trust` on it; otherwise the executed copy goes to a
          temporary folder (kept only on failure) and the committed file is
          never touched.
--out DIR writes every executed notebook (trusted) into DIR as well, for
          scripts/browsercheck.sh to serve (`make test` keeps its quick-mode
          copies in .cache/nbquick).
--counts FILE adds the notebooks run (passed, failed) to FILE, the counts
          of scripts/gotest.py, for `make test`'s last line.
--jobs N  runs N notebooks at once, each group in its own nbrun process
          (groups balanced by code cells, since every cell is one Go build);
          `make test` uses 2: one kernel a core once the Go tests are cached.
--check-only runs nothing: it applies the checks to the saved outputs (used
          to check that committed notebooks carry their plots).

Uses Debian's nbclient, so run it with /usr/bin/python3.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mknb import WIRING  # noqa: E402
from gotest import add_run, load  # noqa: E402

IMAGE_TYPES = ("image/png", "image/svg+xml")


def settings(nb):
    meta = nb.metadata.get("hatelab", {}) or {}
    return int(meta.get("min_images", 1)), bool(meta.get("allow_stderr", False))


def check(nb, name):
    """Return a list of problems found in an executed notebook."""
    min_images, allow_stderr = settings(nb)
    problems, images = [], 0
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not code or code[0].source.strip() != WIRING:
        problems.append("the first code cell is not the module wiring of notebooks/README.md:\n    " + WIRING)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "error":
                problems.append(f"cell {i}: error output: {out.get('ename')}: {out.get('evalue')}".rstrip())
            elif kind == "stream" and out.get("name") == "stderr" and not allow_stderr:
                text = "".join(out.get("text", "")).strip()
                if text:
                    problems.append(f"cell {i}: stderr output: {text[:500]}")
            elif kind in ("display_data", "execute_result", "update_display_data"):
                if any(t in out.get("data", {}) for t in IMAGE_TYPES):
                    images += 1
    if images < min_images:
        problems.append(f"{images} image outputs (image/png or image/svg+xml), want at least {min_images}: plots are missing")
    return problems


def trust(path):
    """jupyter trust PATH, quietly: its first run writes the notebook-signing
    key and says so on stderr; its output is shown only on a failure."""
    p = subprocess.run(["jupyter", "trust", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        raise RuntimeError(f"jupyter trust {path} failed (exit {p.returncode}): {p.stdout.strip()}")


def run(path, args, figures):
    nb = nbformat.read(path, as_version=4)
    name = os.path.basename(path)
    env_backup = dict(os.environ)
    if args.quick:
        os.environ["HATELAB_QUICK"] = "1"
        os.environ["HATELAB_FIGURES"] = figures
    else:
        os.environ.pop("HATELAB_QUICK", None)
    client = NotebookClient(
        nb,
        timeout=args.timeout,
        startup_timeout=120,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "gonb"),
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
    )
    start = time.time()
    problems = []
    # The kernel inherits our stderr and logs there (GoNB's klog lines):
    # send it to a file, shown only when the notebook fails.
    log = tempfile.TemporaryFile(mode="w+")
    saved = os.dup(2)
    sys.stderr.flush()
    os.dup2(log.fileno(), 2)
    try:
        client.execute()
    except CellTimeoutError as e:
        problems.append(f"a cell ran past {args.timeout}s: {str(e).splitlines()[0] if str(e) else ''}")
    except CellExecutionError as e:
        problems.append("a cell failed:\n" + "\n".join("    " + l for l in str(e).splitlines()[-25:]))
    except Exception as e:  # kernel died, could not start, ...
        problems.append(f"the notebook did not run: {type(e).__name__}: {e}")
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.environ.clear()
        os.environ.update(env_backup)
    took = time.time() - start
    if not problems:
        problems = check(nb, name)
    if problems:
        log.seek(0)
        tail = log.read().splitlines()[-40:]
        if tail:
            problems.append("kernel log (last lines):\n" + "\n".join("  " + l for l in tail))
    log.close()
    return nb, problems, took


def code_cells(path):
    try:
        return sum(1 for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    except Exception:  # an unreadable notebook fails in its own run, with its error
        return 0


def groups(paths, n):
    """Splits paths into at most n groups of about equal code cells (largest
    first, each to the lightest group; ties to the lower group), each group in
    the order given."""
    n = max(1, min(n, len(paths)))  # no empty group, whatever --jobs says
    sizes = {p: code_cells(p) for p in paths}
    load_, out = [0] * n, [[] for _ in range(n)]
    for p in sorted(paths, key=lambda p: -sizes[p]):
        g = load_.index(min(load_))
        load_[g] += sizes[p]
        out[g].append(p)
    return [sorted(g, key=paths.index) for g in out if g]


def run_parallel(args):
    """Runs the notebooks in args.jobs nbrun processes at once and adds their
    counts to args.counts as one run."""
    flags = [f for f, on in (("--quick", args.quick), ("--inplace", args.inplace)) if on]
    flags += ["--timeout", str(args.timeout)] + (["--out", args.out] if args.out else [])
    tmp = tempfile.mkdtemp(prefix="hatelab-nbjobs-")
    procs = []
    for i, group in enumerate(groups(args.notebooks, args.jobs)):
        counts = os.path.join(tmp, f"{i}.json")
        env = dict(os.environ, HATELAB_NBRUN_PART="1")  # a part: the summary line is the parent's
        procs.append((subprocess.Popen([sys.executable, os.path.abspath(__file__), *flags, "--counts", counts, *group], env=env), counts))
    rc = 0
    passed = failed = 0
    for p, counts in procs:
        rc |= p.wait()
        for r in (load(counts) or {"runs": []})["runs"]:
            passed, failed = passed + r["pass"], failed + r["fail"]
    shutil.rmtree(tmp, ignore_errors=True)
    missing = len(args.notebooks) - passed - failed  # a process that died before counting
    failed += missing
    print(f"nbrun: {passed} of {len(args.notebooks)} notebooks ok ({len(procs)} at once)")
    if args.counts:
        add_run(args.counts, {"label": "notebooks" + (" (quick)" if args.quick else ""), "pass": passed,
                              "fail": failed, "skip": 0, "packages": 0, "skipped": []})
    return 1 if rc or failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="+")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--inplace", action="store_true")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--out", metavar="DIR", help="also write each executed notebook (trusted) into DIR")
    ap.add_argument("--counts", metavar="FILE", help="add the notebooks passed and failed to FILE (scripts/gotest.py)")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per cell (default 1200)")
    ap.add_argument("--jobs", type=int, default=1, help="notebooks run at once, each group in its own process (default 1)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: want at least 1")
    for path in args.notebooks:
        if not os.path.isfile(path):
            ap.error(f"{path}: no such notebook")
    if args.jobs > 1 and not args.check_only and len(args.notebooks) > 1:
        return run_parallel(args)

    failed = 0
    outdir = tempfile.mkdtemp(prefix="hatelab-nb-")
    figures = os.path.join(outdir, "figures")
    os.makedirs(figures, exist_ok=True)
    for path in args.notebooks:
        name = os.path.basename(path)
        if args.check_only:
            problems, took, nb = check(nbformat.read(path, as_version=4), name), 0.0, None
        else:
            print(f"nbrun: {name}: running{' (quick)' if args.quick else ''} ...", flush=True)
            nb, problems, took = run(path, args, figures)
        if problems:
            failed += 1
            print(f"nbrun: {name}: FAIL ({took:.0f}s)")
            for p in problems:
                print("    " + p.replace("\n", "\n    "))
            if nb is not None:
                out = os.path.join(outdir, name)
                nbformat.write(nb, out)
                print(f"    executed copy kept at {out}")
            continue
        if nb is not None and args.inplace:
            nbformat.write(nb, path)
            trust(path)
        if nb is not None and args.out:
            os.makedirs(args.out, exist_ok=True)
            copy = os.path.join(args.out, name)
            nbformat.write(nb, copy)
            trust(copy)
        print(f"nbrun: {name}: ok ({took:.0f}s)", flush=True)
    if not failed:
        shutil.rmtree(outdir, ignore_errors=True)
    if not os.environ.get("HATELAB_NBRUN_PART"):
        print(f"nbrun: {len(args.notebooks) - failed} of {len(args.notebooks)} notebooks ok")
    if args.counts:
        add_run(args.counts, {"label": "notebooks" + (" (quick)" if args.quick else ""), "pass": len(args.notebooks) - failed,
                              "fail": failed, "skip": 0, "packages": 0, "skipped": []})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
