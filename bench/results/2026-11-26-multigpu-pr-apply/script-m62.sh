#!/usr/bin/env bash
# one GPU (background job): where a part's PageRank iteration loses against the whole graph's: ncu on the pull gather, R-MAT 25 whole and in 2 parts
B=/tmp/mgbin; L=/tmp/m62logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
$B/mgraph run pr /tmp/r25.mgb --backend cuda --trials 4 --trace $L/pr-1-trace.json > $L/pr-1.txt 2>&1; echo "pr-1 ($(t)): $(grep -oE 'trial best [0-9.]+ ms' $L/pr-1.txt)"
$B/mgraph run pr /tmp/r25.mgb --backend cuda --parts 2 --partition random --trials 4 --cache-dir /tmp/c > $L/pr-p2.txt 2>&1; echo "pr-p2 ($(t)): $(grep -E 'trial best|last trial' $L/pr-p2.txt | cut -c1-200 | tr '\n' '|')"
K="--kernel-name regex:pull_gather_kernel|pr_apply|mg_part --launch-skip 4 --launch-count 8 --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy"
timeout 200 ncu $K $B/mgraph run pr /tmp/r25.mgb --backend cuda --trials 1 > $L/ncu-1.txt 2>&1; echo "ncu-1 ($(t)) rc=$?"
timeout 200 ncu $K $B/mgraph run pr /tmp/r25.mgb --backend cuda --parts 2 --partition random --trials 1 --cache-dir /tmp/c > $L/ncu-p2.txt 2>&1; echo "ncu-p2 ($(t)) rc=$?"
echo "done $(t)"
