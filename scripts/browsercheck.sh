#!/usr/bin/env bash
# scripts/browsercheck.sh: `make browsercheck`. Opens every notebook,
# executed in quick mode, in the classic Jupyter Notebook in headless
# Chromium (driven by playwright-core, pinned in tools/browsercheck) and
# checks what a reader sees: no error output, no output wider than its
# cell, no float-noise or overlapping axis labels, at most one progress bar
# left per cell (tools/browsercheck/check.js). Saves a screenshot per
# notebook into a folder it names at the end.
#
# The executed copies come from .cache/nbquick, which `make test`
# (nbtest) writes; when a copy is missing or older than its notebook or
# than any Go or notebook source, the notebooks are executed again in quick
# mode first (figures go to a temporary folder, never to figures/).
#
# Environment: BROWSERCHECK_OUT  the screenshot folder (default: a new
# folder under /tmp).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PY=/usr/bin/python3
NBQ="$ROOT/.cache/nbquick"
start=$SECONDS

for tool in chromium node jupyter; do
	command -v "$tool" >/dev/null || {
		echo "browsercheck: $tool is missing: run scripts/setup.sh --browser" >&2
		exit 2
	}
done
[[ -d tools/browsercheck/node_modules/playwright-core ]] || {
	echo "browsercheck: playwright-core is missing: run scripts/setup.sh --browser" >&2
	exit 2
}

notebooks=(notebooks/*.ipynb)
stale=0
for nb in "${notebooks[@]}"; do
	copy="$NBQ/$(basename "$nb")"
	if [[ ! -f $copy || $nb -nt $copy ]]; then
		stale=1
		break
	fi
	if [[ -n $(find lab engine datasets notebooks/src -newer "$copy" \( -name '*.go' -o -name '*.md' \) -print -quit 2>/dev/null) ]]; then
		stale=1
		break
	fi
done
if ((stale)); then
	echo "browsercheck: executing the notebooks in quick mode into $NBQ"
	rm -rf "$NBQ"
	$PY scripts/nbrun.py --quick --out "$NBQ" "${notebooks[@]}"
else
	echo "browsercheck: using the quick-mode notebooks of the last \`make test\` in $NBQ"
fi

out=${BROWSERCHECK_OUT:-$(mktemp -d /tmp/hatelab-browsercheck.XXXXXX)}
mkdir -p "$out"
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
token=$($PY -c 'import secrets; print(secrets.token_hex(16))')
log=$(mktemp /tmp/hatelab-browsercheck-server.XXXXXX.log)
args=(--no-browser --ip=127.0.0.1 --port="$port" --NotebookApp.token="$token" --notebook-dir="$NBQ")
[[ $(id -u) -eq 0 ]] && args+=(--allow-root)
jupyter notebook "${args[@]}" >"$log" 2>&1 &
server=$!
cleanup() {
	# Delete the sessions (their kernels) the pages opened, then stop the server.
	$PY - "$port" "$token" <<'PY' 2>/dev/null || true
import json, sys, urllib.request
port, token = sys.argv[1:]
base = f"http://127.0.0.1:{port}/api/sessions"
for s in json.load(urllib.request.urlopen(f"{base}?token={token}", timeout=10)):
    urllib.request.urlopen(urllib.request.Request(f"{base}/{s['id']}?token={token}", method="DELETE"), timeout=10)
PY
	kill "$server" 2>/dev/null || true
	wait "$server" 2>/dev/null || true
}
trap cleanup EXIT
up=0
for _ in $(seq 120); do
	if curl -sf "http://127.0.0.1:$port/api?token=$token" >/dev/null 2>&1; then
		up=1
		break
	fi
	sleep 0.5
done
if ((!up)); then
	echo "browsercheck: the notebook server did not start; its log: $log" >&2
	exit 1
fi
names=()
for nb in "${notebooks[@]}"; do names+=("$(basename "$nb")"); done
rc=0
node tools/browsercheck/check.js --url "http://127.0.0.1:$port" --token "$token" --out "$out" "${names[@]}" || rc=$?
echo "browsercheck: screenshots in $out: $(cd "$out" && ls | tr '\n' ' ')"
echo "browsercheck: $((SECONDS - start))s"
((rc == 0)) && rm -f "$log"
exit $rc
