#!/usr/bin/env bash
# two GPUs (background job): b29 (before) against b30 (the PR apply over ascending owned ids, the min programs'
# packaging walking the layout ids) on R-MAT 25 with 2 GPUs; b30's partitioned GPU tests; ncu of the 2-GPU PR
L=/tmp/m63logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 150 /tmp/mgb30/gpu.test -test.run 'TestPartitionedPageRank|TestPartitionedRuns$|TestPartRun' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/gpu-tests.txt | tr '\n' '|')"
r() { local b=$1 tag=$2; shift 2; timeout 300 /tmp/mg$b/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-220 | tr '\n' '|')"; }
/tmp/mgb30/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r b30 pr-1 pr /tmp/r25.mgb --backend cuda --trials 6 --cache-dir /tmp/c
for app in pr bfs cc; do for b in b29 b30 b29 b30; do
  r $b $app-2-$b-$RANDOM $app /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c
done; done
r b30 bfs-1 bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
for app in pr bfs cc sssp; do r b30 $app-22-val $app rmat:22:16 --undirected --weights 7 --gpus 2 --partition random --trials 2 --validate --no-cache; done
K="--kernel-name regex:pull_gather_kernel|apply_kernel|pack_kernel|unpack_kernel --launch-skip 20 --launch-count 16 --section SpeedOfLight --section MemoryWorkloadAnalysis"
timeout 200 ncu $K /tmp/mgb30/mgraph run pr /tmp/r25.mgb --gpus 2 --partition random --trials 1 --cache-dir /tmp/c > $L/ncu-pr2.txt 2>&1; echo "ncu-pr2 ($(t)) rc=$?"
K="--kernel-name regex:pack_kernel|unpack_kernel --launch-count 12 --section SpeedOfLight"
timeout 100 ncu $K /tmp/mgb29/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 1 --source 1 --cache-dir /tmp/c > $L/ncu-bfs2-b29.txt 2>&1; echo "ncu-bfs2-b29 ($(t)) rc=$?"
timeout 100 ncu $K /tmp/mgb30/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 1 --source 1 --cache-dir /tmp/c > $L/ncu-bfs2-b30.txt 2>&1; echo "ncu-bfs2-b30 ($(t)) rc=$?"
echo "done $(t)"
