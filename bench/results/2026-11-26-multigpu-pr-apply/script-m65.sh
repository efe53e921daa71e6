#!/usr/bin/env bash
# two GPUs (background job): partitioned PageRank, b29 (before) against b31 (the part's apply with its loads in
# flight over ascending owned ids, the min programs' packaging walking the layout ids) on R-MAT 25 with 2 GPUs
L=/tmp/m65logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 60 /tmp/mgb31/gpu.test -test.run 'TestPartitionedPageRank' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/gpu-tests.txt | tr '\n' '|')"
r() { local b=$1 tag=$2; shift 2; timeout 200 /tmp/mg$b/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-220 | tr '\n' '|')"; }
/tmp/mgb31/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r b31 pr-1 pr /tmp/r25.mgb --backend cuda --trials 6 --cache-dir /tmp/c
for b in b29 b31 b29 b31; do r $b pr-2-$b-$RANDOM pr /tmp/r25.mgb --gpus 2 --partition random --trials 8 --cache-dir /tmp/c; done
for i in 1 2; do r b31 pr-2-overlap-$i pr /tmp/r25.mgb --gpus 2 --partition random --trials 8 --cache-dir /tmp/c --gpu-overlap; done
r b31 pr-22-val pr rmat:22:16 --undirected --gpus 2 --partition random --trials 2 --validate --no-cache
r b31 pr-22-val-p3 pr rmat:22:16 --undirected --gpus 2 --parts 3 --partition random --trials 2 --validate --no-cache
echo "done $(t)"
