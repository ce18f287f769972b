#!/usr/bin/env bash
# scripts/lab.sh: start the classic Jupyter Notebook (notebook 6, Debian's
# jupyter-notebook) on 127.0.0.1 with a token, opened on notebooks/ (run
# through `make lab`, after setup).
#
# Environment:
#   PORT   the port on 127.0.0.1 (default 8888). A port already in use is
#          refused (exit 1): Jupyter is not allowed to move to another one,
#          and the URL printed is the one Jupyter reports once it listens.
#   TOKEN  the token (default: a random one, 48 hex digits). Letters,
#          digits and . _ ~ - only; shorter than 16 characters is warned
#          about. It reaches Jupyter through a file of mode 0600 named by
#          JUPYTER_TOKEN_FILE, removed as soon as the server runs, never on
#          a command line (which `ps` shows to every user). Pass it in the
#          environment (TOKEN=... make lab), not as `make lab TOKEN=...`,
#          which puts it on make's command line: the script warns then.
#
# Terminals are disabled (--NotebookApp.terminals_enabled=False, or
# ServerApp's under notebook 7): the notebooks need none, and the server may
# run as root.
#
#   LAB_LOG  where Jupyter's log goes, with its kernels' (default
#          .cache/lab.log in the clone): the terminal shows only the URL,
#          and on a failure the log's path and last lines. GoNB logs with
#          klog: lines starting I…, W… or E… (e.g. "E1123 ... Error
#          message", a self-test line GoNB writes at start-up) are its own
#          notes, not errors of the notebook.
#
# The lab never writes into the repository: Jupyter serves working copies
# of the notebooks in .lab-notebooks/ (git-ignored, one level below the
# root, so each notebook's wiring cell, ${GONB_DIR}/.., still reaches the
# root), copied from notebooks/ when missing or older than the committed
# notebook (an older copy is kept beside it as NAME.ipynb.~N~, and a line
# says so). Figures go to .lab-notebooks/figures (HATELAB_FIGURES), never
# to figures/: only `make notebooks` writes the committed notebooks and
# figures. In quick mode (HATELAB_QUICK=1) the working copies and figures
# are .lab-notebooks-quick/ and its figures/: a full-mode session never
# opens a notebook saved with quick-mode numbers. The first line says which
# mode the lab is in. LAB_DIR names another folder (for tests;
# LAB_COPY_ONLY=1 copies and exits).
#
# Once the server runs, gopls (bin/gopls) loads the lab packages once in
# the background (`gopls check`, niced): its cache then answers a
# notebook's first Tab or Shift-Tab in seconds instead of a minute
# (LAB_WARM_GOPLS=0: not, for tests).
#
# Exit status: 2 for a bad PORT or TOKEN, 1 if the port is in use or
# Jupyter fails, else Jupyter's (Ctrl-C twice stops it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${PORT:-8888}
TOKEN=${TOKEN:-}
export GOTOOLCHAIN=local

die() { # die STATUS MESSAGE: one line on standard error, then exit
	echo "lab: $2" >&2
	exit "$1"
}

# check_port: PORT is a plain decimal port number.
check_port() {
	[[ $PORT =~ ^[1-9][0-9]{0,4}$ ]] && ((PORT <= 65535)) ||
		die 2 "PORT=${PORT:0:20} is not a port number (1..65535, decimal)"
}

# check_token: TOKEN may go into a URL as it is; a short one is warned about.
check_token() {
	((${#TOKEN} <= 256)) || die 2 "TOKEN is ${#TOKEN} characters long; at most 256"
	[[ $TOKEN =~ ^[A-Za-z0-9._~-]+$ ]] ||
		die 2 "TOKEN may hold only letters, digits and . _ ~ - (it goes into a URL)"
	if ((${#TOKEN} < 16)); then
		echo "lab: warning: TOKEN is only ${#TOKEN} characters long: every local user can reach 127.0.0.1:$PORT and guess it; use 16 or more, or leave TOKEN unset for a random one" >&2
	fi
}

# token_on_command_line: prints the id of an ancestor process (make, a
# shell) whose command line holds the token, where ps shows it to every user.
token_on_command_line() {
	local pid=$PPID i stat
	for ((i = 0; i < 10 && pid > 1; i++)); do
		if [[ -r /proc/$pid/cmdline ]] && tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qF -- "$TOKEN"; then
			echo "$pid"
			return 0
		fi
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
		stat=${stat##*) } # after the command name, which may hold spaces
		read -r _ pid _ <<<"$stat"
	done
	return 1
}

# port_in_use: whether something already listens on 127.0.0.1:PORT.
port_in_use() {
	! /usr/bin/python3 - "$PORT" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
PY
}

check_port
if [[ -n $TOKEN ]]; then
	check_token
	if ((${#TOKEN} >= 8)) && pid=$(token_on_command_line); then
		echo "lab: warning: the token is on the command line of process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-20)...), which ps shows to every user: set it in the environment instead (TOKEN=... make lab)" >&2
	fi
else
	TOKEN=$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(24))')
fi
if port_in_use; then
	die 1 "port $PORT on 127.0.0.1 is already in use; choose another (PORT=9000 make lab)"
fi
[[ ${LAB_CHECK_ONLY:-} == 1 ]] && exit 0 # for tests: the checks above, no server

# copy_notebooks SRC DST: DST gets a copy of every SRC/*.ipynb it lacks or
# holds an older copy of (the older one kept as NAME.ipynb.~N~).
copy_notebooks() {
	local src=$1 dst=$2 nb copy fresh=0 kept=()
	mkdir -p "$dst"
	for nb in "$src"/*.ipynb; do
		[[ -f $nb ]] || continue
		copy=$dst/$(basename "$nb")
		if [[ ! -e $copy ]]; then
			cp -p "$nb" "$copy"
			fresh=$((fresh + 1))
		elif [[ $nb -nt $copy ]]; then
			cp -p --backup=numbered "$nb" "$copy"
			kept+=("$(basename "$nb")")
		fi
	done
	((fresh)) && echo "lab: $fresh notebooks copied from notebooks/ into $dst: the lab saves there, never into the repository" >&2
	for nb in "${kept[@]}"; do
		echo "lab: notebooks/$nb is newer than your working copy: copied over it; your copy is kept as $dst/$nb.~N~" >&2
	done
	return 0
}
# quick: HATELAB_QUICK as lab.Quick reads it (strconv.ParseBool, yes, y).
quick=0
case ${HATELAB_QUICK:-} in
1 | t | T | true | TRUE | True | yes | y) quick=1 ;;
esac
if ((quick)); then
	LAB_DIR=${LAB_DIR:-$ROOT/.lab-notebooks-quick}
	echo "lab: quick mode (HATELAB_QUICK=1): small parameters, a banner above each notebook's first output; working copies in $LAB_DIR" >&2
else
	LAB_DIR=${LAB_DIR:-$ROOT/.lab-notebooks}
	echo "lab: full mode: the parameters behind the committed numbers (some cells take minutes; HATELAB_QUICK=1 make lab for quick mode); working copies in $LAB_DIR" >&2
fi
copy_notebooks "$ROOT/notebooks" "$LAB_DIR"
[[ ${LAB_COPY_ONLY:-} == 1 ]] && exit 0 # for tests: the copies, no server
export HATELAB_FIGURES=${HATELAB_FIGURES:-$LAB_DIR/figures}
# The project's notebook settings (scripts/jupyter/nbconfig: long code lines
# wrap instead of being cut at the cell's right edge), before the user's.
export JUPYTER_CONFIG_PATH=$ROOT/scripts/jupyter${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}
# ... and its notebook extensions (scripts/jupyter/nbextensions: outputs shown
# whole, inline code that wraps, no 404 for the widgets extension).
export JUPYTER_PATH=$ROOT/scripts/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}

# Debian's jupyter-notebook is notebook 6 (NotebookApp); notebook 7 runs on
# jupyter_server, whose options are ServerApp's.
command -v jupyter >/dev/null || die 1 "jupyter is not installed: run make setup"
nbversion=$(jupyter notebook --version 2>/dev/null) || die 1 "jupyter notebook is not installed: run make setup"
app=NotebookApp
[[ ${nbversion%%.*} =~ ^[0-9]+$ ]] && ((${nbversion%%.*} >= 7)) && app=ServerApp

LAB_LOG=${LAB_LOG:-$ROOT/.cache/lab.log}
mkdir -p "$(dirname "$LAB_LOG")"
: >"$LAB_LOG"

# Trust the working copies: the classic UI hides SVG outputs of untrusted
# notebooks.
# One call for all (each call starts Python: seconds on a busy machine).
trust=("$LAB_DIR"/*.ipynb)
[[ -e ${trust[0]} ]] && jupyter trust "${trust[@]}" >>"$LAB_LOG" 2>&1

# The token file: mode 0600 (mktemp's), read by Jupyter at start-up, removed
# once the server runs (and in any case on exit).
TOKEN_FILE=$(mktemp "${TMPDIR:-/tmp}/hatelab-lab-token.XXXXXX")
trap 'rm -f "$TOKEN_FILE"' EXIT
printf '%s' "$TOKEN" >"$TOKEN_FILE"
unset JUPYTER_TOKEN # it would take precedence over the file
export JUPYTER_TOKEN_FILE=$TOKEN_FILE

args=(--no-browser --ip=127.0.0.1 --port="$PORT" --$app.port_retries=0
	--$app.terminals_enabled=False --notebook-dir="$LAB_DIR")
[[ $(id -u) -eq 0 ]] && args+=(--allow-root)

# Jupyter logs on standard error (its kernels too): its lines go to
# LAB_LOG, and the URL is printed once Jupyter reports the address it
# listens on (with its port, never a guess). The filter ignores Ctrl-C,
# which is Jupyter's to handle; Jupyter's standard output (its shutdown
# prompt) goes straight to the terminal.
# warm_gopls: gopls type-checks the lab packages once, in the background,
# so that its cache (shared with the kernels' gopls) answers the first
# completion fast; its output goes to the log.
warm_gopls() {
	[[ -x $ROOT/bin/gopls && ${LAB_WARM_GOPLS:-1} != 0 ]] || return 0
	local f files=()
	for f in "$ROOT"/lab/*.go "$ROOT"/lab/*/*.go; do
		[[ $f == *_test.go ]] || files+=("$f")
	done
	(cd "$ROOT" && nice -n 10 timeout 900 "$ROOT/bin/gopls" check "${files[@]}" >/dev/null 2>>"$LAB_LOG" &)
}

echo "lab: Jupyter's log (and the kernels'): $LAB_LOG" >&2
rc=0
{ jupyter notebook "${args[@]}" 2>&1 1>&3 3>&- | {
	trap '' INT
	printed=0
	while IFS= read -r line; do
		printf '%s\n' "$line" >>"$LAB_LOG"
		if ((!printed)) && [[ $line =~ http://127\.0\.0\.1:([0-9]+)/ ]]; then
			printed=1
			rm -f "$TOKEN_FILE"
			warm_gopls
			echo "lab: open http://127.0.0.1:${BASH_REMATCH[1]}/tree?token=$TOKEN  (Ctrl-C twice to stop)"
		fi
	done
	((printed)) || exit 3
}; } 3>&1 || rc=$?
if ((rc == 3)); then
	echo "lab: Jupyter stopped before serving; its log, $LAB_LOG, ends:" >&2
	tail -n 15 "$LAB_LOG" | sed 's/^/    /' >&2
	exit 1
fi
exit "$rc"
