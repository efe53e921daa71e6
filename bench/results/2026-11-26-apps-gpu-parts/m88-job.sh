#!/usr/bin/env bash
# b55 (msf over GPU parts, first GPU run; tc/kcore/mis/color again): tests on 2 GPUs, memcheck msf, validation and timings.
B=/tmp/mgbin; L=/tmp/m88logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 300 $B/gpu.test -test.run 'TestPartitionedStates' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
(cd /tmp && CUDA_VISIBLE_DEVICES=0 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run msf rmat:12:8 --undirected --weights 3 --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/san-msf.txt 2>&1); echo "memcheck msf ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-msf.txt | head -5 | tr '\n' '|')"
(cd /tmp && timeout 300 $B/cmd.test -test.run 'TestRunPartitioned$|TestRunPartitionedOpsApps|TestRunPartitionedBadFlags' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/cmd-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 200 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|validation|spanning' $L/$tag.txt | cut -c1-160 | head -3 | tr '\n' '|')"; }
r val-msf msf rmat:20:16 --undirected --weights 5 --gpus $G --partition random --trials 1 --validate --no-cache
$B/mgraph gen rmat:23:16 --symmetrize --dedupe --drop-self-loops --weights 3 -o /tmp/r23w.mgb > $L/gen23.txt 2>&1; echo "gen ($(t))"
r msf-1 msf /tmp/r23w.mgb --backend cuda --trials 3 --cache-dir /tmp/c
r msf-$G msf /tmp/r23w.mgb --gpus $G --partition random --trials 3 --cache-dir /tmp/c
r msf-cpu2 msf /tmp/r23w.mgb --backend cpu --parts 2 --partition random --trials 2 --cache-dir /tmp/c
r color-1 color rmat:22:16 --undirected --backend cuda --trials 2 --cache-dir /tmp/c
r color-$G color rmat:22:16 --undirected --gpus $G --partition random --trials 2 --cache-dir /tmp/c
echo "done $(t)"
