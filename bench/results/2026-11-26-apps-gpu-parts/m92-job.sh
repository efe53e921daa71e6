#!/usr/bin/env bash
# b58 (= ad39d55): the host-side refactors since 485a2ac on GPUs (GPU tests over 2 GPUs and parts), then the 12 apps
# not yet validated on the datasets over GPUs: --gpus 2 (NCCL) and --backend cuda --parts 3 (one GPU, peer copies).
B=/tmp/mgbin; L=/tmp/m92logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 240 $B/gpu.test -test.run 'TestPartitioned' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -12 | cut -c1-300 | tr '\n' '|')"
(cd /tmp && timeout 150 $B/cmd.test -test.run 'TestRunPartitioned' > $L/cmd-tests.txt 2>&1); echo "cmd tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/cmd-tests.txt | head -12 | cut -c1-300 | tr '\n' '|')"
pass=0; fail=0
r() { local tag=$1; shift; timeout 90 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?
  if [ $rc = 0 ] && grep -q 'validation: ok' $L/$tag.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $tag ($(t)) rc=$rc: $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-160 | head -2 | tr '\n' '|')"; fi; }
for cfg in "--gpus $G" "--backend cuda --parts 3"; do c=$(echo $cfg | tr -d ' -'); 
 for d in /tmp/datasets/*.mtx.zst; do n=$(basename $d .mtx.zst)
  for app in bfs-tree cc-lp pr-delta tc kcore color mis ppr hits salsa wtf; do
   extra=""; case $app in ppr|wtf|bfs-tree) extra="--source 1";; esac
   r $c-$n-$app $app $d $cfg --partition random --trials 1 --validate --no-cache $extra
  done
  r $c-$n-msf msf $d $cfg --weights 7 --partition random --trials 1 --validate --no-cache
 done; echo "$cfg done ($(t)): pass $pass fail $fail"; done
echo "done $(t)"
