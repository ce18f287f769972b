#!/usr/bin/python3
"""Ask GoNB's gopls for a completion and for help, as the notebook does.

Usage:
    /usr/bin/python3 scripts/nbcomplete.py [--timeout S]

Starts the gonb kernel (`make lab`'s, with bin/gopls on its PATH) in a
folder one level below the repository root, as the lab's working copies
are, runs the wiring cell of every notebook and a cell that uses the lab
package, then sends what Tab and Shift-Tab send: a complete_request for
`lab.Pi` (the matches must hold `Pick`) and an inspect_request on
`lab.Pick` (the help must show its signature). Prints what came back and
exits 1 when either is missing, 2 when the kernel or gopls is not set up
(run `bash scripts/setup.sh --lab`).

Uses Debian's jupyter_client, so run it with /usr/bin/python3.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mknb import WIRING  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USE = 'import "github.com/hatelab/hatelab/lab"\n\n%%\nfmt.Println(lab.Int(1234))'
PROBE = "%%\nx := lab.Pi"  # Tab after "lab.Pi"
HELP = "%%\nx := lab.Pick(1, 2)"  # Shift-Tab inside "Pick"


def execute(kc, code, timeout):
    """Runs code; returns (status, text of its outputs)."""
    msg_id = kc.execute(code)
    out = []
    deadline = time.time() + timeout
    while True:
        left = deadline - time.time()
        if left <= 0:
            return "timeout", "".join(out)
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except Exception:
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        t, c = msg["msg_type"], msg["content"]
        if t == "stream":
            out.append(c.get("text", ""))
        elif t == "error":
            out.append(f"{c.get('ename')}: {c.get('evalue')}")
        elif t in ("display_data", "execute_result"):
            out.append(c.get("data", {}).get("text/plain", ""))
        elif t == "status" and c.get("execution_state") == "idle":
            reply = kc.get_shell_msg(timeout=timeout)
            return reply["content"].get("status", "?"), "".join(out)


def ask(kc, kind, code, pos, timeout):
    """Sends a complete_request or inspect_request; returns its reply's content."""
    if kind == "complete":
        msg_id = kc.complete(code, pos)
    else:
        msg_id = kc.inspect(code, pos, detail_level=0)
    deadline = time.time() + timeout
    while time.time() < deadline:
        reply = kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        if reply.get("parent_header", {}).get("msg_id") == msg_id:
            return reply["content"]
    return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=240, help="seconds for each step (default 240)")
    args = ap.parse_args()
    if not os.access(os.path.join(ROOT, "bin", "gopls"), os.X_OK):
        print("nbcomplete: bin/gopls is missing: bash scripts/setup.sh --lab", file=sys.stderr)
        return 2
    # A folder one level below the root, as .lab-notebooks is: the wiring
    # cell's ${GONB_DIR}/.. is then the root.
    work = tempfile.mkdtemp(prefix=".nbcomplete-", dir=ROOT)
    gonb_tmp = ""
    log = tempfile.TemporaryFile(mode="w+")  # the kernel's log (GoNB's klog lines): shown on a failure
    km = KernelManager(kernel_name="gonb")
    failed = 0
    try:
        try:
            km.start_kernel(cwd=work, stderr=log)
        except Exception as e:
            print(f"nbcomplete: the gonb kernel did not start ({e}): bash scripts/setup.sh --lab", file=sys.stderr)
            failed = 2
            return 2
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=args.timeout)
        _, gonb_tmp = execute(kc, "!*pwd", args.timeout)  # GoNB's module folder: its gopls listens there
        gonb_tmp = gonb_tmp.strip()
        for code in (WIRING, USE):
            status, text = execute(kc, code, args.timeout)
            if status != "ok":
                print(f"nbcomplete: the cell {code.splitlines()[0]!r} failed ({status}): {text.strip()[:500]}")
                failed = 1
                return 1
        # gopls loads the module in the background: ask until it answers.
        deadline = time.time() + args.timeout
        matches = []
        while time.time() < deadline:
            c = ask(kc, "complete", PROBE, len(PROBE), args.timeout)
            matches = c.get("matches") or []
            if "Pick" in matches:
                break
            time.sleep(2)
        took = args.timeout - (deadline - time.time())
        if "Pick" in matches:
            print(f"nbcomplete: Tab after 'lab.Pi' offers {', '.join(matches[:8])} ({took:.0f}s)")
        else:
            failed += 1
            print(f"nbcomplete: Tab after 'lab.Pi' offers {matches[:8]}, without Pick, after {took:.0f}s")
        c = ask(kc, "inspect", HELP, HELP.index("Pick") + 2, args.timeout)
        text = (c.get("data") or {}).get("text/markdown") or (c.get("data") or {}).get("text/plain") or ""
        if c.get("found") and "func" in text and "Pick" in text:
            sig = next((l for l in text.splitlines() if l.strip() and not l.startswith("```")), "")
            print(f"nbcomplete: Shift-Tab on 'lab.Pick' shows {sig[:100]!r}")
        else:
            failed += 1
            print(f"nbcomplete: Shift-Tab on 'lab.Pick' shows {text.strip()[:300]!r} (found={c.get('found')})")
        return 1 if failed else 0
    except Exception as e:
        print(f"nbcomplete: {type(e).__name__}: {e}")
        failed = 1
        return 1
    finally:
        if failed:
            log.seek(0)
            print("nbcomplete: the kernel's log ends:\n" + "\n".join("    " + l for l in log.read().splitlines()[-30:]))
        log.close()
        stop(km, gonb_tmp)
        shutil.rmtree(work, ignore_errors=True)


def stop(km, gonb_tmp):
    """Shuts the kernel down, and the gopls it started (in a process group
    of its own: a kernel killed leaves it running)."""
    try:
        km.shutdown_kernel(now=False)
    except Exception:
        pass
    if not gonb_tmp.startswith("/") or not os.path.basename(gonb_tmp).startswith("gonb_"):
        return
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(cmd[0]) == b"gopls" and any(gonb_tmp.encode() + b"/" in a for a in cmd):
            try:
                os.kill(int(pid), 15)
            except OSError:
                pass
    shutil.rmtree(gonb_tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
