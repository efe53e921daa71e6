#!/usr/bin/env bash
# b57 (= 67c127a): the apps added over GPU parts, on 4 GPUs: GPU tests (4 devices: 4 and 8 parts, NCCL) and --validate with --gpus 4.
B=/tmp/mgbin; L=/tmp/m91logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 60 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-120 | head -2 | tr '\n' '|')"; }
for app in tc kcore mis color pr-delta wtf; do r val-$app $app rmat:17:16 --undirected --gpus $G --partition random --trials 1 --validate --no-cache --source 3; done
r val-msf msf rmat:17:16 --undirected --weights 5 --gpus $G --partition random --trials 1 --validate --no-cache
(cd /tmp && timeout 130 $B/gpu.test -test.run 'TestPartitionedStates|TestPartitionedPageRank' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -10 | cut -c1-300 | tr '\n' '|')"
echo "done $(t)"
