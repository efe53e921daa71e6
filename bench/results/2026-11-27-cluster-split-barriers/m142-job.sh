#!/usr/bin/env bash
# one GPU. The whole GPU suite at HEAD (b102 = 8dea907: the cluster split barriers).
L=/tmp/m142logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
(cd /tmp && timeout 470 $B/gpu.test -test.v > $L/gpu-tests.txt 2>&1); rc=$?
echo "gpu tests ($(( $(date +%s)-T0 ))s): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -8 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt) skipped: $(grep -c -- '--- SKIP' $L/gpu-tests.txt)"
grep -E "^(ok|PASS|FAIL)" $L/gpu-tests.txt | tail -3
