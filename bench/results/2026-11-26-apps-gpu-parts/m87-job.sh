#!/usr/bin/env bash
# b54 (tc/wtf/pr-delta/kcore/mis/color over GPU parts): tests on 2 GPUs (NCCL), memcheck tc, validation and timings.
B=/tmp/mgbin; L=/tmp/m87logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 420 $B/gpu.test -test.run 'TestPartitionedStates|TestPartitionedPageRank' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
(cd /tmp && CUDA_VISIBLE_DEVICES=0 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run tc rmat:12:8 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 --out /tmp/tc.tsv > $L/san-tc.txt 2>&1); echo "memcheck tc ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation|rror' $L/san-tc.txt | head -5 | tr '\n' '|')"
(cd /tmp && timeout 300 $B/cmd.test -test.run 'TestRunPartitioned$|TestRunPartitionedHostApps|TestRunPartitionedBadFlags' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/cmd-tests.txt | head -20 | cut -c1-300 | tr '\n' '|')"
r() { local tag=$1; shift; timeout 240 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|validation|parts on' $L/$tag.txt | cut -c1-200 | head -3 | tr '\n' '|')"; }
for app in tc kcore mis color pr-delta wtf; do r val-$app $app rmat:20:16 --undirected --gpus $G --partition random --trials 1 --validate --no-cache --source 3; done
$B/mgraph gen rmat:23:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r23.mgb > $L/gen23.txt 2>&1; echo "gen ($(t))"
for app in kcore mis pr-delta wtf tc; do r $app-1 $app /tmp/r23.mgb --backend cuda --trials 3 --cache-dir /tmp/c --source 3; r $app-$G $app /tmp/r23.mgb --gpus $G --partition random --trials 3 --cache-dir /tmp/c --source 3; done
echo "done $(t)"
