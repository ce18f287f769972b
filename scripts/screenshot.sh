#!/usr/bin/env bash
# scripts/screenshot.sh NOTEBOOK OUT.png [HEIGHT]: serve the repository's
# notebooks with the classic Jupyter Notebook on a free loopback port and
# take a headless Chromium screenshot of NOTEBOOK (e.g.
# notebooks/01-records.ipynb) as it shows there, saved outputs included.
# Needs chromium (scripts/setup.sh --chromium). The server, its kernel and
# the browser are stopped afterwards.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
nb=$(realpath "$1")
out=$(realpath -m "$2")
height=${3:-6000}
rel=${nb#"$ROOT/notebooks/"}
command -v chromium >/dev/null || {
	echo "screenshot: chromium is missing: run scripts/setup.sh --chromium" >&2
	exit 2
}
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
token=$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(16))')
tmp=$(mktemp -d)
jupyter trust "$nb" >/dev/null
args=(--no-browser --ip=127.0.0.1 --port="$port" --NotebookApp.token="$token" --notebook-dir="$ROOT/notebooks")
[[ $(id -u) -eq 0 ]] && args+=(--allow-root)
jupyter notebook "${args[@]}" >"$tmp/server.log" 2>&1 &
server=$!
cleanup() {
	# Delete the sessions (their kernels) the page opened, then stop the server.
	/usr/bin/python3 - "$port" "$token" <<'PY' || true
import json, sys, urllib.request
port, token = sys.argv[1:]
base = f"http://127.0.0.1:{port}/api/sessions"
for s in json.load(urllib.request.urlopen(f"{base}?token={token}")):
    urllib.request.urlopen(urllib.request.Request(f"{base}/{s['id']}?token={token}", method="DELETE"))
PY
	kill "$server" 2>/dev/null || true
	wait "$server" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 60); do
	curl -sf "http://127.0.0.1:$port/api?token=$token" >/dev/null 2>&1 && break
	sleep 0.5
done
chromium --headless --no-sandbox --disable-gpu --disable-quic --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
	--user-data-dir="$tmp/chrome" --window-size=1200,"$height" --virtual-time-budget=15000 \
	--screenshot="$out" "http://127.0.0.1:$port/notebooks/$rel?token=$token" >"$tmp/chrome.log" 2>&1
echo "screenshot: $out"
