#!/usr/bin/env bash
# two GPUs (background job): CC by hooking over device parts (b37 = the working tree after 6021c34 with partition.FromHooks)
B=/tmp/mgbin; L=/tmp/m69logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run cc rmat:12:8 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/sanitizer.txt 2>&1); echo "memcheck cc 3 parts ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation' $L/sanitizer.txt | tr '\n' '|')"
(cd /tmp && timeout 200 $B/gpu.test -test.run 'TestPartitionedRuns$|TestPartitionedRunsNCCL' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/gpu-tests.txt | tr '\n' '|') $(grep -m3 'cc-lp' $L/gpu-tests.txt | cut -c1-200 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-400 | tr '\n' '|')"; }
for g in 2; do for app in cc cc-lp; do r $app-22-$g $app rmat:22:16 --undirected --gpus $g --partition random --trials 2 --validate --no-cache; done; done
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r cc-1 cc /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
for g in 2; do r cc-$g cc /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c; r cc-lp-$g cc-lp /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c; done
r cc-2-val cc /tmp/r25.mgb --gpus 2 --partition random --trials 1 --cache-dir /tmp/c --validate
echo "done $(t)"
