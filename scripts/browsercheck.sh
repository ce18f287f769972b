#!/usr/bin/env bash
# scripts/browsercheck.sh: `make browsercheck`. Opens every notebook,
# executed in quick mode, in the classic Jupyter Notebook in headless
# Chromium (driven by playwright-core, pinned in tools/browsercheck) and
# checks what a reader sees (tools/browsercheck/check.js has the list): no
# error output, nothing wider than its cell, no code line cut at the right,
# no NaN, Inf or float noise in tables and text, no raw DOT or JSON dump, no
# character drawn as a box (tofu, a fallback font's hex-code box, a dashed
# box), no SVG text clipped, overlapping or wider than its box, no chart
# crammed into a corner, no cited repository path that does not exist, at
# most one progress bar left per cell. Saves viewport tiles (1200x1000 px)
# of every notebook into a folder it names at the end.
#
# The executed copies come from .cache/nbquick, which `make test`
# (nbtest) writes; when a copy is missing or older than its notebook or
# than any Go or notebook source, the notebooks are executed again in quick
# mode first (figures go to a temporary folder, never to figures/).
#
# Environment: BROWSERCHECK_OUT  the screenshot folder (default: a new
# folder under /tmp); BROWSERCHECK_NOTEBOOKS  a folder of executed
# notebooks to check as they are (never rerun; default: .cache/nbquick,
# rerun when stale).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PY=/usr/bin/python3
NBQ=${BROWSERCHECK_NOTEBOOKS:-$ROOT/.cache/nbquick}
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
if [[ -n ${BROWSERCHECK_NOTEBOOKS:-} ]]; then
	# Executed notebooks of the caller's: checked as they are, never rerun.
	[[ -d $NBQ ]] || {
		echo "browsercheck: BROWSERCHECK_NOTEBOOKS=$NBQ is not a folder" >&2
		exit 2
	}
	notebooks=("$NBQ"/*.ipynb)
	[[ -f ${notebooks[0]} ]] || {
		echo "browsercheck: BROWSERCHECK_NOTEBOOKS=$NBQ holds no .ipynb file" >&2
		exit 2
	}
	echo "browsercheck: checking the notebooks in $NBQ as they are"
else
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
fi

out=${BROWSERCHECK_OUT:-$(mktemp -d /tmp/hatelab-browsercheck.XXXXXX)}
mkdir -p "$out"
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
token=$($PY -c 'import secrets; print(secrets.token_hex(16))')
log=$(mktemp /tmp/hatelab-browsercheck-server.XXXXXX.log)
args=(--no-browser --ip=127.0.0.1 --port="$port" --NotebookApp.token="$token" --notebook-dir="$NBQ")
[[ $(id -u) -eq 0 ]] && args+=(--allow-root)
# The lab's notebook settings (scripts/jupyter: code lines wrap), as make lab has them.
JUPYTER_CONFIG_PATH=$ROOT/scripts/jupyter${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH} \
	JUPYTER_PATH=$ROOT/scripts/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH} jupyter notebook "${args[@]}" >"$log" 2>&1 &
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
stamp=$(mktemp /tmp/hatelab-browsercheck-stamp.XXXXXX)
node tools/browsercheck/check.js --url "http://127.0.0.1:$port" --token "$token" --out "$out" --repo "$ROOT" "${names[@]}" || rc=$?
echo "browsercheck: $(find "$out" -name '*.png' -newer "$stamp" | wc -l) screenshot tiles in $out"
rm -f "$stamp"
echo "browsercheck: $((SECONDS - start))s"
((rc == 0)) && rm -f "$log"
exit $rc
