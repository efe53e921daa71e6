#!/usr/bin/env bash
# b53: pr-delta over device parts (first GPU run) + kcore/mis/color; one GPU.
B=/tmp/mgbin; L=/tmp/m85logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 300 $B/gpu.test -test.run 'TestPartitionedPageRank|TestPartitionedStates' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
(cd /tmp && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run pr-delta rmat:12:8 --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/san-prd.txt 2>&1); echo "memcheck pr-delta ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-prd.txt | head -5 | tr '\n' '|')"
(cd /tmp && timeout 240 $B/cmd.test -test.run 'TestRunPartitioned$|TestRunPartitionedHostApps' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/cmd-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 200 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-250 | head -3 | tr '\n' '|')"; }


echo "done $(t)"
