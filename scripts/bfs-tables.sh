#!/usr/bin/env bash
# Rebuilds datasets/bfs/summary.csv and datasets/bfs/levels/ by running
# `hatelab bfs` on every well size of the tables, one after another (each
# run uses all cores; run it on an otherwise idle machine, since the time
# and memory columns are measurements).
#
#   scripts/bfs-tables.sh            # every row (about an hour on 2 cores; 17 GB of memory at most)
#   scripts/bfs-tables.sh 10x6 5x13  # just these sizes (real rule), appended
#
# Rows are appended to datasets/bfs/summary.csv as each search finishes; a
# full rebuild starts from an empty file. Sizes are WxH (real rule) or
# WxH:clear-above-bar. The committed file is sorted by rule, width, height.
# The rows too large for one sitting in memory (10x8, 5x16, 7x11) are not
# rebuilt here (a full rebuild keeps them): they were made with the
# resumable compressed disk mode command of datasets/bfs/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=datasets/bfs
bin=$(mktemp -d)/hatelab
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/hatelab

sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then
	for h in $(seq 2 17); do sizes+=("4x$h"); done
	for h in $(seq 2 15); do sizes+=("5x$h"); done
	for h in $(seq 2 12); do sizes+=("6x$h"); done
	for h in $(seq 2 10); do sizes+=("7x$h"); done
	for h in $(seq 2 9); do sizes+=("8x$h"); done
	for h in $(seq 2 8); do sizes+=("9x$h"); done
	for h in $(seq 2 7); do sizes+=("10x$h"); done
	for h in $(seq 2 8); do sizes+=("8x$h:clear-above-bar"); done
	for h in $(seq 2 6); do sizes+=("10x$h:clear-above-bar"); done
	# The rows made in compressed disk mode over sittings are kept: the
	# new table starts with them (and is sorted at the end), so a rebuild
	# stopped part way loses none of them.
	if [ -s "$out/summary.csv" ]; then
		{
			head -1 "$out/summary.csv"
			grep -E '^(10,8|5,16|7,11),qntm,' "$out/summary.csv" || true
		} > "$out/summary.csv.new"
		mv "$out/summary.csv.new" "$out/summary.csv"
		resort=1
	fi
fi
mkdir -p "$out/levels"
for s in "${sizes[@]}"; do
	rule=qntm
	case "$s" in *:*) rule=${s#*:}; s=${s%%:*} ;; esac
	w=${s%x*} h=${s#*x}
	echo "== ${w}x${h} $rule" >&2
	"$bin" bfs --well-width "$w" --height "$h" --rule "$rule" --quiet \
		--append-summary "$out/summary.csv" --out "$out/levels/w$w-h$h-$rule.csv"
done
if [ -n "${resort:-}" ]; then
	# Back in the table's order: rule (qntm first), width, height.
	{
		head -1 "$out/summary.csv"
		tail -n +2 "$out/summary.csv" | LC_ALL=C sort -t, -k3,3r -k1,1n -k2,2n
	} > "$out/summary.csv.tmp"
	mv "$out/summary.csv.tmp" "$out/summary.csv"
fi
