#!/usr/bin/env bash
# two GPUs, b49 (hits/salsa over device parts): gpu rank tests (pr, ppr, hits, salsa), CLI partitioned tests, memcheck on one GPU, R-MAT 22 validated, R-MAT 25 1 vs 2 GPUs
B=/tmp/mgbin; L=/tmp/m79logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd gpu && timeout 300 $B/gpu.test -test.run 'TestPartitionedPageRank$' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/gpu-tests.txt | tr '\n' '|') $(grep -E 'Error' -A6 $L/gpu-tests.txt | head -14 | tr '\n' '|')"
(cd cmd/mgraph && PATH=$B:$PATH timeout 240 $B/cmd.test -test.run 'TestRunPartitioned$|TestRunPartitionedHostApps' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/cmd-tests.txt | tr '\n' '|') $(grep -E 'Error' -A6 $L/cmd-tests.txt | head -14 | tr '\n' '|')"
(cd gpu && CUDA_VISIBLE_DEVICES=0 timeout 240 compute-sanitizer --tool memcheck $B/gpu.test -test.run 'TestPartitionedPageRank$' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt); echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-260 | tr '\n' '|')"; }
for a in hits salsa; do r $a-22-$G $a rmat:22:16 --gpus $G --partition random --trials 2 --validate --no-cache; done
$B/mgraph gen rmat:25:16 -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
for a in hits salsa; do
  r $a-1 $a /tmp/r25.mgb --backend cuda --trials 3 --cache-dir /tmp/c
  r $a-$G $a /tmp/r25.mgb --gpus $G --partition random --trials 8 --cache-dir /tmp/c
done
echo "done $(t)"
