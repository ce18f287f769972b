#!/usr/bin/env bash
# scripts/lab.sh: start the classic Jupyter Notebook on 127.0.0.1 with a
# token, opened on notebooks/ (run through `make lab`, after setup).
# PORT (default 8888) and TOKEN (default: a random one) come from the
# environment.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${PORT:-8888}
TOKEN=${TOKEN:-$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(24))')}
export GOTOOLCHAIN=local

# Trust the committed notebooks: the classic UI hides SVG outputs of
# untrusted notebooks.
for nb in "$ROOT"/notebooks/*.ipynb; do
	[[ -e $nb ]] && jupyter trust "$nb" >/dev/null
done

args=(--no-browser --ip=127.0.0.1 --port="$PORT" --NotebookApp.token="$TOKEN" --notebook-dir="$ROOT/notebooks")
[[ $(id -u) -eq 0 ]] && args+=(--allow-root)
echo "lab: open http://127.0.0.1:$PORT/tree?token=$TOKEN  (Ctrl-C twice to stop)"
exec jupyter notebook "${args[@]}"
