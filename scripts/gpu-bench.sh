#!/usr/bin/env bash
# gpu-bench.sh: the GPU studies of issue #8 on a GPU machine (needs only the
# NVIDIA driver and a cuda build of mgraph: no Go, no toolkit).
#
# Runs, from the repository root (where bench/plans/ is):
#   1. mgraph probe             -> OUT/probe.txt, OUT/probe.json
#   2. bench/plans/gpu-rmat21.json   -> OUT/rmat21/   (results.json, .csv, table.txt, bench.log)
#   3. bench/plans/gpu-grid2048.json -> OUT/grid2048/
#   4. mgraph report of both    -> OUT/report/ (report.md, PNG and SVG charts,
#      among them bandwidth.png: bytes per arc against the probe's bandwidth)
# A failing plan does not stop the others; the report covers what finished
# (a plan that stopped early still writes the trials it measured). Exits
# non-zero if any step failed.
#
# Usage:
#   scripts/gpu-bench.sh BIN [OUT] [-- extra bench flags for both plans]
#     BIN  the cuda build of mgraph (e.g. .device-carry/bench/mgraph)
#     OUT  output directory (default out/gpu-bench)
# Example: scripts/gpu-bench.sh bin/mgraph out/gpu-bench -- --trials 7
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
	sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
fi
bin=$1; shift
out=out/gpu-bench
if [ $# -gt 0 ] && [ "$1" != "--" ]; then out=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
extra=("$@")

if [ ! -x "$bin" ]; then
	echo "gpu-bench.sh: $bin is not an executable mgraph" >&2
	exit 2
fi
for plan in bench/plans/gpu-rmat21.json bench/plans/gpu-grid2048.json; do
	if [ ! -f "$plan" ]; then
		echo "gpu-bench.sh: $plan not found: run from the repository root" >&2
		exit 2
	fi
done
mkdir -p "$out"
status=0
start=$(date +%s)
step() { # step NAME CMD...: run CMD, time it, note a failure
	local name=$1; shift
	local t0; t0=$(date +%s)
	echo "== $name: $*"
	"$@"
	local rc=$?
	echo "== $name: exit $rc after $(( $(date +%s) - t0 )) s"
	if [ $rc -ne 0 ]; then status=1; fi
	return $rc
}

"$bin" version 2>&1 | tee "$out/version.txt"
step probe bash -c 'set -o pipefail; "$0" probe | tee "$1/probe.txt" && "$0" probe --json > "$1/probe.json"' "$bin" "$out"

dirs=()
for name in rmat21 grid2048; do
	plan=bench/plans/gpu-$name.json
	mkdir -p "$out/$name"
	step "$name" bash -c 'set -o pipefail; "$0" bench --config "$1" --out "$2" "${@:3}" 2>&1 | tee "$2/bench.log"' \
		"$bin" "$plan" "$out/$name" ${extra[@]+"${extra[@]}"}
	if grep -q '"format_version"' "$out/$name/results.json" 2>/dev/null; then
		dirs+=("$out/$name")
	else
		echo "gpu-bench.sh: no results from $plan" >&2
		status=1
	fi
done

if [ ${#dirs[@]} -gt 0 ]; then
	step report "$bin" report --title "mgraph on the GPU: R-MAT 21 and grid 2048" --out "$out/report" "${dirs[@]}"
fi
echo "== all done in $(( $(date +%s) - start )) s; results under $out (report: $out/report/report.md)"
exit $status
