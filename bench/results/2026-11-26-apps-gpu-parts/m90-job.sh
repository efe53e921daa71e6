#!/usr/bin/env bash
# b57: one driver for the device parts (eachDevicePart), mg::part_emit shared by the min programs' and k-core's packing. One GPU.
B=/tmp/mgbin; L=/tmp/m90logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 400 $B/gpu.test -test.run 'TestPartitionedRuns$|TestPartitionedStates|TestPartitionedPageRank' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
for app in bfs kcore; do (cd /tmp && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run $app rmat:12:8 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/san-$app.txt 2>&1); echo "memcheck $app ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-$app.txt | head -5 | tr '\n' '|')"; done
(cd /tmp && timeout 300 $B/cmd.test -test.run 'TestRunPartitioned$' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/cmd-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
echo "done $(t)"
