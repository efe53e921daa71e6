#!/usr/bin/env bash
# gpu-test.sh: run the test binaries that `make gpu-test` put in gpubin/, on
# a GPU machine (needs only the NVIDIA driver: no Go, no toolkit), and print
# a PASS/FAIL/SKIP table per package (SKIP: every test skipped; NONE: no test
# matched). Exits non-zero if any package failed.
#
# Usage (from the repository root, where gpubin/ is):
#   scripts/gpu-test.sh [-v] [-run REGEXP] [-log DIR] [-- extra test flags]
#     -v         print every package's full test output (default: failures only)
#     -run RE    run only tests matching RE (passed as -test.run)
#     -log DIR   also write each package's output to DIR/NAME.log
# Each binary runs in its package's directory, so testdata/ paths work.
set -uo pipefail

verbose=0 run="" logdir=""
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1 ;;
	-run) run=$2; shift ;;
	-log) logdir=$2; shift ;;
	--) shift; break ;;
	*) echo "usage: $0 [-v] [-run REGEXP] [-log DIR] [-- test flags]" >&2; exit 2 ;;
	esac
	shift
done

root=$(pwd)
manifest=$root/gpubin/MANIFEST
if [ ! -f "$manifest" ]; then
	echo "gpu-test.sh: $manifest not found: run 'make gpu-test' on the build machine and carry gpubin/ here" >&2
	exit 2
fi
[ -n "$logdir" ] && mkdir -p "$logdir"

if [ -x "$root/gpubin/mgraph" ]; then
	"$root/gpubin/mgraph" version | sed 's/^/# /'
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/# gpu: /'

flags=(-test.v -test.count=1)
[ -n "$run" ] && flags+=("-test.run=$run")
flags+=("$@")

rows=() failed=0
while read -r name dir; do
	[ -z "$name" ] && continue
	bin=$root/gpubin/$name.test
	start=$(date +%s.%N)
	out=$(cd "$root/$dir" && "$bin" "${flags[@]}" 2>&1)
	rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	npass=$(grep -c -- '^\s*--- PASS' <<<"$out")
	nskip=$(grep -c -- '^\s*--- SKIP' <<<"$out")
	nfail=$(grep -c -- '^\s*--- FAIL' <<<"$out")
	if [ $rc -ne 0 ]; then
		status=FAIL
		failed=$((failed + 1))
	elif [ "$npass" -eq 0 ] && [ "$nskip" -gt 0 ]; then
		status=SKIP
	elif [ "$npass" -eq 0 ]; then
		status=NONE
	else
		status=PASS
	fi
	[ -n "$logdir" ] && printf '%s\n' "$out" >"$logdir/$name.log"
	if [ $verbose -eq 1 ] || [ $status = FAIL ]; then
		echo "=== $dir ($name.test, exit $rc)"
		printf '%s\n' "$out"
	fi
	rows+=("$(printf '%-28s %-4s %5s %5s %5s %8s' "$dir" "$status" "$npass" "$nskip" "$nfail" "$secs")")
done <"$manifest"

echo
printf '%-28s %-4s %5s %5s %5s %8s\n' package stat pass skip fail seconds
for r in "${rows[@]}"; do echo "$r"; done
echo
if [ $failed -gt 0 ]; then
	echo "gpu-test: $failed of ${#rows[@]} packages FAILED"
	exit 1
fi
echo "gpu-test: all ${#rows[@]} packages passed"
