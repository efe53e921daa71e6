#!/usr/bin/env bash
# one GPU. b96 (far_min noted on every far lowering; early advance only with a piled value below the next split) against b92.
L=/tmp/m135logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/b92; [ -x /tmp/b92/mgraph ] || { xz -dc .device-carry/b92/mgraph.xz > /tmp/b92/mgraph; chmod +x /tmp/b92/mgraph; }
(cd gpu && timeout 100 $B/gpu.test -test.count=1 -test.v -test.run 'TestFloat32SSSPVariants|TestAsyncOnce' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
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
echo "b92: $(timeout 60 /tmp/b92/mgraph run sssp $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
for nf in 0 1024 512; do for sh in 0 4 8; do A=""; [ $nf != 0 ] && A="--gpu-near-far $nf"
  echo "share=$sh nf=$nf: $(MG_EXP_IDLE_SHARE=$sh timeout 30 $B/mgraph run sssp $G $S --backend cuda --trials 5 $A --trace $L/tr.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
  items $L/tr.json
done; done
echo "b92: $(timeout 60 /tmp/b92/mgraph run sssp $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
echo "done $(t)"
