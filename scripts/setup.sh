#!/usr/bin/env bash
# scripts/setup.sh: make this clone ready to run the hatelab notebooks.
#
# Idempotent: each step checks first and does only what is missing, so a
# second run takes a second or two. Steps:
#   1. Debian packages for the classic Jupyter Notebook and for headless
#      execution (jupyter-notebook, jupyter-nbconvert, jupyter-client,
#      jupyter-nbformat), and fonts-unifont, a font with a glyph for every
#      character of the Basic Multilingual Plane, so that Base2048 replays
#      are drawn, not shown as empty boxes, with fonts-lohit-knda (a Kannada
#      font, 49 kB), for Unifont draws two Base2048 letters, U+0CF1 and
#      U+0CF2, inside a dashed box. As root they are installed with
#      apt-get (its output goes to .cache/apt.log); as any other user the
#      script prints the exact command and exits 2.
#   2. The project's Go modules, downloaded with a timeout and retries.
#   3. GoNB v0.11.4, goimports and staticcheck, pinned by the tools module
#      in tools/, built into ./bin (git-ignored); with --lab also gopls
#      (completion and help in the notebooks), pinned by tools/gopls: `make
#      lab` needs it, `make test` does not (its build is the longest: about
#      5 minutes of CPU).
#   4. The "gonb" Jupyter kernel, registered for this user, with a
#      kernel.json whose env puts Go and ./bin on PATH, sets
#      GOTOOLCHAIN=local and selects GoMLX's pure-Go backend.
#
# Options:
#   --check      only report what is missing (exit 1 if anything is)
#   --lab        also gopls, for completion and help in the notebooks
#   --chromium   also install chromium (for notebook screenshots)
#   --browser    also what `make browsercheck` needs: chromium, Node and npm
#                (Debian's nodejs and npm, unless node is already on PATH),
#                and the pinned playwright-core of tools/browsercheck
#                (`npm ci` from its package-lock.json, with a timeout and
#                retries)
#
# Environment:
#   HATELAB_GO_TIMEOUT  seconds allowed for one Go download attempt (300)
#   HATELAB_GO_RETRIES  attempts per Go download (4)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN="$ROOT/bin"
GONB_VERSION=v0.11.4
XTOOLS_VERSION=v0.52.0
STATICCHECK_VERSION=v0.8.2
GOPLS_VERSION=v0.23.0
GO_MIN_MINOR=26
APT_PACKAGES=(jupyter-notebook jupyter-nbconvert jupyter-client jupyter-nbformat fonts-unifont fonts-lohit-knda)
GO_TIMEOUT=${HATELAB_GO_TIMEOUT:-300}
GO_RETRIES=${HATELAB_GO_RETRIES:-4}

CHECK=0
LAB=0
CHROMIUM=0
BROWSER=0
for arg in "$@"; do
	case "$arg" in
	--check) CHECK=1 ;;
	--lab) LAB=1 ;;
	--chromium) CHROMIUM=1 ;;
	--browser) CHROMIUM=1 BROWSER=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "setup: unknown option $arg (try --help)" >&2
		exit 2
		;;
	esac
done
((CHROMIUM)) && APT_PACKAGES+=(chromium)
((BROWSER)) && ! command -v node >/dev/null && APT_PACKAGES+=(nodejs npm)

say() { echo "setup: $*"; }
missing=0

# retry CMD...: run CMD under a timeout, retrying with back-off. Go has no
# timeout of its own on a stalled download.
retry() {
	local n=1 rc
	while true; do
		if timeout --kill-after=10 "$GO_TIMEOUT" "$@"; then
			return 0
		else
			rc=$?
		fi
		if ((n >= GO_RETRIES)); then
			say "giving up after $n attempts (exit $rc): $*"
			return "$rc"
		fi
		say "attempt $n failed (exit $rc), retrying: $*"
		sleep $((5 * n))
		n=$((n + 1))
	done
}

# --- 1. Debian packages -------------------------------------------------
need=()
for p in "${APT_PACKAGES[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		need+=("$p")
	fi
done
if ((${#need[@]})); then
	if ((CHECK)); then
		say "missing Debian packages: ${need[*]}"
		missing=1
	elif [[ $(id -u) -eq 0 ]]; then
		say "installing Debian packages: ${need[*]} (apt's output: .cache/apt.log)"
		export DEBIAN_FRONTEND=noninteractive
		mkdir -p "$ROOT/.cache"
		aptlog=$ROOT/.cache/apt.log
		if ! { retry apt-get update -q && retry apt-get install -y -q --no-install-recommends "${need[@]}"; } >"$aptlog" 2>&1; then
			say "apt-get failed; $aptlog ends:" >&2
			tail -n 15 "$aptlog" | sed 's/^/    /' >&2
			exit 1
		fi
	else
		cat >&2 <<EOF
setup: these Debian packages are missing: ${need[*]}
setup: install them as root, then run this again:

    sudo apt-get update && sudo apt-get install -y --no-install-recommends ${need[*]}

EOF
		exit 2
	fi
fi

# --- 2. Go ----------------------------------------------------------------
GO=$(command -v go || true)
[[ -z $GO && -x /usr/local/go/bin/go ]] && GO=/usr/local/go/bin/go
if [[ -z $GO ]]; then
	say "Go 1.$GO_MIN_MINOR or newer is required: install it from https://go.dev/dl/ (to /usr/local/go) and put /usr/local/go/bin on PATH" >&2
	exit 2
fi
export GOTOOLCHAIN=local
GOVER=$("$GO" env GOVERSION) # go1.26.8
minor=${GOVER#go1.}
minor=${minor%%.*}
minor=${minor%%[!0-9]*}
if ((minor < GO_MIN_MINOR)); then
	say "found $GOVER at $GO; hatelab needs go1.$GO_MIN_MINOR or newer" >&2
	exit 2
fi
GODIR=$(dirname "$(readlink -f "$GO")")

# Module downloads (a no-op when the module cache already has them).
if ((CHECK)); then
	(cd "$ROOT" && GOPROXY=off GOFLAGS=-mod=mod "$GO" list -m all >/dev/null 2>&1) || {
		say "Go modules not downloaded yet"
		missing=1
	}
else
	(cd "$ROOT" && retry "$GO" mod download)
fi

# --- 3. GoNB, goimports, staticcheck (and gopls with --lab) ---------------------
has_tool() { # has_tool BINARY MODULE VERSION
	[[ -x $1 ]] && "$GO" version -m "$1" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+$2[[:space:]]+$3([[:space:]]|$)"
}
# build_tools MODULE_DIR WHAT: go install the tools MODULE_DIR's go.mod pins.
build_tools() {
	say "building $2 into $BIN (CPU minutes on a fresh clone: $3)"
	(cd "$1" && retry "$GO" mod download)
	# The build itself must not touch the network: everything is in the
	# module cache now, and a stalled fetch would hang without a timeout.
	(cd "$1" && GOPROXY=off GOBIN="$BIN" "$GO" install tool)
}
if has_tool "$BIN/gonb" github.com/janpfeifer/gonb "$GONB_VERSION" &&
	has_tool "$BIN/goimports" golang.org/x/tools "$XTOOLS_VERSION" &&
	has_tool "$BIN/staticcheck" honnef.co/go/tools "$STATICCHECK_VERSION"; then
	:
elif ((CHECK)); then
	say "GoNB $GONB_VERSION / goimports $XTOOLS_VERSION / staticcheck $STATICCHECK_VERSION not built in $BIN"
	missing=1
else
	build_tools "$ROOT/tools" "GoNB $GONB_VERSION, goimports $XTOOLS_VERSION and staticcheck $STATICCHECK_VERSION" "about 4"
fi
# gopls has a module of its own (tools/gopls): it needs the x/tools it was
# released with, not tools/go.mod's.
if ((LAB)) && ! has_tool "$BIN/gopls" golang.org/x/tools/gopls "$GOPLS_VERSION"; then
	if ((CHECK)); then
		say "gopls $GOPLS_VERSION (completion and help in the notebooks) not built in $BIN"
		missing=1
	else
		build_tools "$ROOT/tools/gopls" "gopls $GOPLS_VERSION (completion and help in the notebooks)" "about 5"
	fi
fi

# --- 4. The gonb kernel ---------------------------------------------------
KERNEL_PATH="$GODIR:$BIN:\${PATH}"
kernel_ok() {
	command -v jupyter >/dev/null 2>&1 || return 1
	local dir
	dir=$(jupyter --data-dir 2>/dev/null)/kernels/gonb
	/usr/bin/python3 - "$dir/kernel.json" "$BIN/gonb" "$KERNEL_PATH" <<'PY'
import json, sys
path, gonb, want_path = sys.argv[1:]
try:
    k = json.load(open(path))
except Exception:
    sys.exit(1)
env = k.get("env") or {}
ok = (k.get("argv") or [""])[0] == gonb and env.get("PATH") == want_path \
    and env.get("GOTOOLCHAIN") == "local" and env.get("GOMLX_BACKEND") == "go"
sys.exit(0 if ok else 1)
PY
}
if kernel_ok; then
	:
elif ((CHECK)); then
	say "the gonb Jupyter kernel is not registered (or not for this clone)"
	missing=1
else
	say "registering the gonb Jupyter kernel"
	# GoNB finds gopls (completion, Shift-Tab help) on the kernel's PATH: ./bin.
	log=$(mktemp)
	if ! PATH="$GODIR:$BIN:$PATH" "$BIN/gonb" --install --force_deps >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
	dir=$(jupyter --data-dir)/kernels/gonb
	/usr/bin/python3 - "$dir/kernel.json" "$BIN/gonb" "$KERNEL_PATH" <<'PY'
import json, sys
path, gonb, kpath = sys.argv[1:]
k = json.load(open(path))
k["argv"][0] = gonb
# jupyter_client expands ${PATH} in kernel.json env values.
k["env"] = {"PATH": kpath, "GOTOOLCHAIN": "local", "GOMLX_BACKEND": "go"}
json.dump(k, open(path, "w"), indent=1)
PY
	kernel_ok || {
		say "kernel registration failed: see $dir/kernel.json" >&2
		exit 1
	}
fi

# --- 5. playwright-core for make browsercheck (--browser) -------------------
if ((BROWSER)); then
	BC="$ROOT/tools/browsercheck"
	want=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dependencies"]["playwright-core"])' "$BC/package.json")
	have=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$BC/node_modules/playwright-core/package.json" 2>/dev/null || true)
	if [[ $have == "$want" ]]; then
		:
	elif ((CHECK)); then
		say "playwright-core $want not installed in tools/browsercheck"
		missing=1
	else
		say "installing playwright-core $want (npm ci in tools/browsercheck)"
		log=$(mktemp)
		if ! (cd "$BC" && GO_TIMEOUT=120 retry npm ci --no-audit --no-fund --ignore-scripts) >"$log" 2>&1; then
			cat "$log" >&2
			rm -f "$log"
			exit 1
		fi
		rm -f "$log"
	fi
fi

if ((CHECK)); then
	((missing)) && exit 1
	say "everything is installed"
	exit 0
fi
say "ready (Go $GOVER, GoNB $GONB_VERSION, kernel gonb)"
