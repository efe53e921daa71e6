#!/usr/bin/env bash
# two GPUs, b46 (ppr over device parts): gpu PageRank/ppr tests, CLI partitioned tests, ppr/pr R-MAT 22 validated and R-MAT 25 on 1 and 2 GPUs
B=/tmp/mgbin; L=/tmp/m76logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd gpu && timeout 240 $B/gpu.test -test.run 'TestPartitionedPageRank$' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/gpu-tests.txt | tr '\n' '|') $(grep -E 'Error|expected' $L/gpu-tests.txt | head -5 | tr '\n' '|')"
(cd cmd/mgraph && PATH=$B:$PATH timeout 240 $B/cmd.test -test.run 'TestRunPartitioned$|TestRunPartitionedHostApps' -test.v > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/cmd-tests.txt | tr '\n' '|') $(grep -E 'Error' -A3 $L/cmd-tests.txt | head -8 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-260 | tr '\n' '|')"; }
r ppr-22-$G ppr rmat:22:16 --gpus $G --partition random --source 1 --trials 3 --validate --no-cache
r ppr-22-parts3 ppr rmat:20:16 --backend cuda --parts 3 --sources 1,5,9 --trials 2 --validate --no-cache
$B/mgraph gen rmat:25:16 -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
for i in 1 2; do
  r ppr-1-$i ppr /tmp/r25.mgb --backend cuda --source 1 --trials 8 --cache-dir /tmp/c
  r ppr-$G-$i ppr /tmp/r25.mgb --gpus $G --partition random --source 1 --trials 8 --cache-dir /tmp/c
  r pr-1-$i pr /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
  r pr-$G-$i pr /tmp/r25.mgb --gpus $G --partition random --trials 8 --cache-dir /tmp/c
done
r ppr-$G-auto ppr /tmp/r25.mgb --gpus $G --source 1 --trials 8 --cache-dir /tmp/c
echo "done $(t)"
