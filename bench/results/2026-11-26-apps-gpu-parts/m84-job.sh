#!/usr/bin/env bash
B=/tmp/mgbin; L=/tmp/m84logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
(cd /tmp && timeout 300 $B/gpu.test -test.run 'TestPartitionedStates' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error|expected|actual|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
echo "done $(t)"
