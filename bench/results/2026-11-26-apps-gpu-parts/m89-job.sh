#!/usr/bin/env bash
# b56: kcore peels to each part's fixpoint before exchanging; tc's rows built in parallel. Tests, then R-MAT 23 timings, 1 vs 2 GPUs.
B=/tmp/mgbin; L=/tmp/m89logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 200 $B/gpu.test -test.run 'TestPartitionedStates' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
(cd /tmp && CUDA_VISIBLE_DEVICES=0 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run kcore rmat:12:8 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/san-kcore.txt 2>&1); echo "memcheck kcore ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-kcore.txt | head -5 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 200 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|validation|last trial' $L/$tag.txt | cut -c1-220 | head -3 | tr '\n' '|')"; }
r val-kcore kcore rmat:20:16 --undirected --gpus $G --partition random --trials 1 --validate --no-cache
$B/mgraph gen rmat:23:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r23.mgb > $L/gen23.txt 2>&1; echo "gen ($(t))"
for app in kcore tc; do r $app-1 $app /tmp/r23.mgb --backend cuda --trials 3 --cache-dir /tmp/c; r $app-$G $app /tmp/r23.mgb --gpus $G --partition random --trials 3 --cache-dir /tmp/c; done
echo "done $(t)"
