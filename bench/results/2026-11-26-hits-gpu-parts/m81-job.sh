#!/usr/bin/env bash
# two GPUs, b51 (b50 + empty parts' HITS steps): the gpu rank tests
B=/tmp/mgbin; L=/tmp/m81logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c
(cd gpu && timeout 200 $B/gpu.test -test.run 'TestPartitionedPageRank$|TestPageRankAllShapes' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/gpu-tests.txt | tr '\n' '|') $(grep -E 'Error' -A6 $L/gpu-tests.txt | head -14 | tr '\n' '|')"
echo "done $(t)"
