#!/usr/bin/env bash
# four GPUs (background job): the parts' layouts built on their GPUs: the CLI test, then partitioning times on R-MAT 25 and 26
B=/tmp/mgbin; L=/tmp/m59logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && $B/cmd.test -test.run 'TestBuildPartLayoutsOnGPUs|TestRunPartitionedCached' -test.v > $L/tests.txt 2>&1); echo "tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/tests.txt | tr '\n' '|')"
r() { local tag=$1; shift; timeout 600 $B/mgraph run "$@" --no-cache > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'partitioning:|built on|rror|last trial|validation|partitioned into' $L/$tag.txt | cut -c1-230 | tr '\n' '|')"; }
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r pr-2 pr /tmp/r25.mgb --gpus 2 --partition random --trials 8
r bfs-4 bfs /tmp/r25.mgb --gpus 4 --partition random --trials 8 --source 0 --validate
r sssp-26-4 sssp rmat:26:16 --undirected --weights 7 --gpus 4 --partition random --trials 4 --source 0 --validate
echo "done $(t)"
