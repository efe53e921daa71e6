#!/usr/bin/env bash
# PREPARED, NOT YET RUN (for the next lease of four GPUs; build bN from HEAD with gpu.test and cmd.test, carry it,
# .device-carry/datasets and the launch/unpack/poll scripts of ../2026-11-26-pull-lane-per-vertex/).
# 1. the twelve later apps on the six datasets over four GPUs (issue 21's bar: they ran over four on generated graphs only);
# 2. tc and msf over two and four GPUs on R-MAT 23 against one GPU, after the host-side changes e9fd33c, 239b9d6, 107a048;
# 3. the partitioned GPU tests with NCCL.
B=/tmp/mgbin; L=/tmp/m99logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
pass=0; fail=0
v() { local tag=$1; shift; timeout 90 "$@" > $L/$tag.txt 2>&1; local rc=$?
  if [ $rc = 0 ] && grep -q 'validation: ok' $L/$tag.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $tag rc=$rc: $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-160 | head -2 | tr '\n' '|')"; fi; }
for d in /tmp/datasets/*.mtx.zst; do n=$(basename $d .mtx.zst)
 for app in bfs-tree cc-lp pr-delta tc kcore color mis ppr hits salsa wtf; do
  extra=""; case $app in ppr|wtf|bfs-tree) extra="--source 1";; esac
  v g$G-$n-$app $B/mgraph run $app $d --gpus $G --partition random --trials 1 --validate --no-cache $extra
 done
 v g$G-$n-msf $B/mgraph run msf $d --gpus $G --weights 7 --partition random --trials 1 --validate --no-cache
done; echo "datasets over $G GPUs ($(t)): pass $pass fail $fail"
r() { local tag=$1; shift; timeout 200 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|last trial' $L/$tag.txt | cut -c1-300 | tr '\n' '|')"; }
$B/mgraph gen rmat:23:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r23w.mgb > $L/gen23.txt 2>&1; echo "gen ($(t))"
for app in tc msf; do r $app-1 $B/mgraph run $app /tmp/r23w.mgb --backend cuda --trials 3 --cache-dir /tmp/c
 for g in 2 $G; do r $app-$g $B/mgraph run $app /tmp/r23w.mgb --gpus $g --partition random --trials 3 --cache-dir /tmp/c; done; done
(cd /tmp && timeout 300 $B/gpu.test -test.v -test.run 'TestPartitionedRuns|TestPartitionedBFSPulls|TestPartitionedStates' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-200 | tr '\n' '|')"
echo "done $(t)"
