#!/usr/bin/env bash
# four GPUs (background job), for the session after 2026-11-26 (HEAD deb8637+): GPU tests of the untested changes (concurrent part builds,
# peer access, PR overlap), PR overlap A/B on R-MAT 25, R-MAT 26 partitioning time, then the graph larger than one GPU again
B=/tmp/mgbin; L=/tmp/m61logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 400 $B/gpu.test -test.run 'TestEnablePeerAccess|TestPartitionedPageRank|TestPartitionedRuns$' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/gpu-tests.txt | tr '\n' '|')"
(cd /tmp && timeout 200 $B/cmd.test -test.run 'TestBuildPartLayoutsOnGPUs|TestRunPartitioned$|TestRunPartitionedCached|TestFirstFailure' -test.v > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/cmd-tests.txt | tr '\n' '|')"
r() { local tag=$1; shift; timeout 600 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'partitioning:|built on|rror|last trial|validation' $L/$tag.txt | cut -c1-200 | tr '\n' '|')"; }
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r pr-1 pr /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
for round in 1 2; do for g in 2 4; do
  r pr-$g-r$round pr /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c
  r pr-$g-overlap-r$round pr /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c --gpu-overlap --validate
done; done
r sssp-26-4 sssp rmat:26:16 --undirected --weights 7 --gpus 4 --partition random --trials 4 --source 0 --validate --no-cache
r bfs-1 bfs /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
for g in 2 4; do r bfs-$g bfs /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c --validate; done
echo "done $(t)"
