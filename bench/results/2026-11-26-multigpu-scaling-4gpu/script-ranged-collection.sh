#!/usr/bin/env bash
# four GPUs (background): the partitioned tests after the ranged collection (NCCL 4 ranks, peer copies), then R-MAT 25 bfs/sssp/pr on 1, 2, 4 GPUs
B=/tmp/mgbin; L=/tmp/m14logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c
(cd /tmp/m14src/gpu && timeout 240 $B/gpu.test -test.count=1 -test.v -test.run 'TestPartitionedRunsNCCL|TestPartitionedPageRank|TestPartitionedRuns$|TestPartRanges' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt)"; grep -E "^(--- |ok|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" --cache-dir /tmp/c > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'partitioned into|rror|last trial' $L/$tag.txt | sed 's/packaging, exchange and waiting/exch/' | cut -c1-200 | tr '\n' '|')"; }
src() { [ $1 = cc -o $1 = pr ] || echo --source 0; }
$B/mgraph gen rmat:20:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r20.mgb > /dev/null 2>&1
for app in bfs cc; do r $app-20-4v $app /tmp/r20.mgb --gpus 4 --trials 2 --validate $(src $app); done
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r25.mgb > /dev/null 2>&1; echo "gen 25 $(t)"
r bfs-25-1 bfs /tmp/r25.mgb --backend cuda --trials 8 --source 0
for g in 2 4; do for app in bfs sssp pr; do r $app-25-$g $app /tmp/r25.mgb --gpus $g --partition random --trials 8 $(src $app); done; done
echo "done $(t)"
