#!/usr/bin/env bash
# two GPUs (background job, ~5 min), first thing next session (b36 = HEAD 6021c34; carry .device-carry/b36): the untested GPU code of 2026-11-26's
# afternoon — bfs-tree on device parts, BFS parts that pull (--gpu-part-pull), the phase timers — then BFS pull A/B
B=/tmp/mgbin; L=/tmp/m67logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 240 $B/gpu.test -test.run 'TestPartitionedBFSPulls|TestPartitionedRuns$|TestPartitionedRunsNCCL|TestPartitionedPageRank' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)|pulled' $L/gpu-tests.txt | tr '\n' '|')"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|first trial|last trial|validation' $L/$tag.txt | cut -c1-400 | tr '\n' '|')"; }
for app in bfs bfs-tree; do for p in "" "--gpu-part-pull"; do r $app-22${p:+-pull} $app rmat:22:16 --undirected --gpus 2 --partition random --trials 2 --validate --no-cache $p; done; done
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r bfs-1 bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
for i in 1 2; do for p in "" "--gpu-part-pull"; do r bfs-2${p:+-pull}-$i bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c $p; done; done
r bfs-tree-1 bfs-tree /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
r bfs-tree-2-pull bfs-tree /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --gpu-part-pull
echo "done $(t)"
