#!/usr/bin/env bash
# b52: kcore/mis/color over device parts, first GPU run (one GPU: peer copies, 2-8 parts).
B=/tmp/mgbin; L=/tmp/m83logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 240 $B/gpu.test -test.run 'TestPartitionedStates' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error|expected|actual' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
for app in kcore mis color; do (cd /tmp && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run $app rmat:12:8 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/san-$app.txt 2>&1); echo "memcheck $app ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-$app.txt | head -5 | tr '\n' '|')"; done
r() { local tag=$1; shift; timeout 200 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|last trial|validation|superstep' $L/$tag.txt | cut -c1-300 | head -4 | tr '\n' '|')"; }
for app in kcore mis; do r $app-22 $app rmat:22:16 --undirected --parts 2 --backend cuda --trials 3 --validate --no-cache; done; r kcore-22-1 kcore rmat:22:16 --undirected --backend cuda --trials 3 --no-cache
echo "done $(t)"
