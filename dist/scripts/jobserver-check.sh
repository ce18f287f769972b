#!/usr/bin/env bash
# jobserver-check.sh BINARY: the cluster submission path, on one machine.
# Starts a standalone Prism job server and a separate Go worker pool (two
# processes of BINARY, a hatelab-beam), submits a bfs, a beam search and
# an arena match to them through the universal runner (--environment-type
# EXTERNAL), and checks the results against the native engines, byte for
# byte.
set -euo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
# Free ports, from the kernel.
read -r jport wport < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
"$bin" prism --job-port "$jport" --beam-log prism.log >prism.out 2>&1 &
pids+=($!)
"$bin" worker-pool --port "$wport" --beam-log pool.log >pool.out 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	grep -q "on " prism.out 2>/dev/null && grep -q "on " pool.out 2>/dev/null && break
	sleep 0.1
done
cluster=(--runner universal --endpoint "localhost:$jport" --environment-type EXTERNAL --environment-config "localhost:$wport" --beam-log submit.log)
"$bin" bfs --engine native --well-width 6 --height 6 --out native.csv --levels-dir Ln >/dev/null
"$bin" bfs "${cluster[@]}" --well-width 6 --height 6 --work work --out beam.csv --levels-dir Lb >/dev/null
cmp native.csv beam.csv
diff -r Ln Lb
"$bin" beam --engine native --beam-width 100 --max-pieces 8 --json | grep -v seconds >native.json
"$bin" beam "${cluster[@]}" --beam-width 100 --max-pieces 8 --work bwork --json | grep -v seconds >beam.json
cmp native.json beam.json
"$bin" arena --engine native --arms hand,tuned --suite openings:4:8:1 --beam-width 20 --json >native-arena.json
"$bin" arena "${cluster[@]}" --arms hand,tuned --suite openings:4:8:1 --beam-width 20 --work awork --json 2>arena.err >beam-arena.json
cmp native-arena.json beam-arena.json
# The work ran in the worker pool's process, not the submitting one.
grep -q "StartWorker\|worker" pool.log || { echo "jobserver-check: the worker pool logged no worker" >&2; exit 1; }
echo "jobserver-check: standalone Prism job server + separate Go worker pool: bfs 6x6, beam w100 and an arena match identical to native"
