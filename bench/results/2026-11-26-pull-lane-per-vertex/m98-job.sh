#!/usr/bin/env bash
# one GPU. b62 (= b61 + an empty part's pull step does nothing): the partitioned GPU tests that m97 failed on (star/balanced/8 parts), and small CLI runs in 8 parts.
B=/tmp/mgbin; L=/tmp/m98logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 300 $B/gpu.test -test.v -test.run 'TestPartitionedRuns$|TestPartitionedBFSPulls|TestPartitionedStates' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages|pulled' $L/gpu-tests.txt | head -14 | cut -c1-200 | tr '\n' '|')"
for g in "rmat:10:4 --undirected" "grid:64" "rmat:12:16 --undirected"; do for p in balanced random; do for a in bfs bfs-tree; do tag=$a-$(echo $g-$p | tr -d ' :-')
 timeout 60 $B/mgraph run $a $g --backend cuda --parts 8 --partition $p --validate --no-cache --trials 2 > $L/$tag.txt 2>&1; echo "$tag rc=$?: $(grep -oE '[0-9]+ \([0-9]+ pulled\) supersteps' $L/$tag.txt | tail -1) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-120 | tr '\n' '|')"; done; done; done
echo "done $(t)"
