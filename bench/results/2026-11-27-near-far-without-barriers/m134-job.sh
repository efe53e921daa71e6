#!/usr/bin/env bash
# one GPU. b95 (far log, O(1) advance; the split stays when the piled minimum is unknown; idle counted only with a share) against b92: where the time goes.
L=/tmp/m134logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/b92; [ -x /tmp/b92/mgraph ] || { xz -dc .device-carry/b92/mgraph.xz > /tmp/b92/mgraph; chmod +x /tmp/b92/mgraph; }
(cd gpu && timeout 150 $B/gpu.test -test.count=1 -test.v -test.run 'TestFloat32SSSPVariants|TestAsyncOnce' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/tests.txt | head
G=/tmp/g2048.mgb; S="--source 2098176"
[ -f $G ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o $G > /dev/null 2>&1
items() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for t in d['trials'][-1:]:
  for it in (t['result'].get('Trace') or t['result'].get('trace') or []):
    if 'async' in it: print('   ', it['async'], it['seconds'])
" $1; }
for r in 1 2; do for b in $B /tmp/b92; do n=$(basename $b)
 for cfg in "sssp --gpu-near-far -1" "sssp" "bfs --mode async"; do
  echo "$n [$cfg] r=$r: $(MG_EXP_IDLE_SHARE=0 timeout 60 $b/mgraph run $cfg $G $S --backend cuda --trials 6 --trace $L/tr.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
  [ $r = 1 ] && items $L/tr.json
 done; done; done
echo "done $(t)"
